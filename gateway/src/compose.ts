import { createMongo, ensureIndexes, KafkaBus, type Logger, type SocketFactory, untilSucceeds } from "@vulnscan/kit";
import type { FastifyPluginAsync } from "fastify";
import type { Registry } from "prom-client";
import { buildApp } from "./app.js";
import { Authenticator } from "./auth/authenticator.js";
import { AuthView } from "./auth/auth-view.js";
import { kafkaAuthEventFeed } from "./auth/event-feed.js";
import { TokenVerifier } from "./auth/token-verifier.js";
import type { GatewayConfig } from "./config.js";
import { PlanCache } from "./plans.js";
import { RateLimiter, rateLimitFields, rateLimitIndexes } from "./rate-limit.js";
import { createUpstreams } from "./upstreams.js";

export interface GatewayParts {
  app: Awaited<ReturnType<typeof buildApp>>;
  view: AuthView;
  /** Resolves once the AuthView is first current (loaded from auth's snapshot). */
  viewReady: Promise<void>;
  limiter: RateLimiter;
  /** Resolves once the rate-limit indexes exist. */
  indexed: Promise<void>;
  stop(): Promise<void>;
}

/**
 * One gateway replica's parts: upstream clients, the AuthView on vulnscan.auth.events, the
 * in-memory authenticator, the plan cache, the rate limiter and the Fastify app (not yet
 * listening). main.ts runs it; the benchmark and the two-replica test run it in-process.
 */
export async function composeGateway(
  config: GatewayConfig,
  opts: {
    logger: Logger;
    registry: Registry;
    plugins?: FastifyPluginAsync[];
    /** How Kafka connections are opened (the two-replica test cuts one replica's network with it). */
    kafkaSocketFactory?: SocketFactory;
  },
): Promise<GatewayParts> {
  const { logger } = opts;
  const mongo = createMongo(config.MONGO_URL, config.MONGO_DB, "gateway");
  const upstreams = createUpstreams(config);
  const limiter = new RateLimiter(mongo.db);
  const verifier = new TokenVerifier(async () => {
    const r = await upstreams.auth.getJwks({});
    return { keys: r.keys, issuer: r.issuer, audience: r.audience, cacheSeconds: r.cacheSeconds };
  });
  const feed = kafkaAuthEventFeed(
    () =>
      new KafkaBus({
        clientId: "gateway",
        brokers: config.KAFKA_BROKERS,
        topicPrefix: config.KAFKA_TOPIC_PREFIX,
        logger,
        ...(opts.kafkaSocketFactory ? { socketFactory: opts.kafkaSocketFactory } : {}),
      }),
  );
  const plans = new PlanCache(upstreams.auth);
  const view = new AuthView({
    feed,
    snapshot: () => upstreams.auth.getAuthState({}),
    plans,
    maxStalenessMs: config.AUTH_VIEW_MAX_STALENESS_MS,
    logger: logger.child({ component: "auth-view" }),
  });
  const { ready: viewReady } = view.start();
  const authenticator = new Authenticator({ verifier, auth: upstreams.auth, view, plans });
  const app = await buildApp({
    config,
    logger,
    registry: opts.registry,
    upstreams,
    guard: { authenticator, limiter, plans },
    ...(opts.plugins ? { plugins: opts.plugins } : {}),
  });
  // Until the database answers (it may start later, or be restarting): unready until then.
  const stopped = new AbortController();
  const indexed = untilSucceeds(
    async () => {
      await ensureIndexes(mongo.db, rateLimitIndexes, { fields: rateLimitFields, logger });
    },
    {
      logger,
      what: "waiting for the database to ensure the rate-limit indexes",
      signal: stopped.signal,
    },
  );
  return {
    app,
    view,
    viewReady,
    limiter,
    indexed,
    stop: async () => {
      stopped.abort();
      await app.close();
      await view.stop();
      await feed.close();
      await mongo.close();
    },
  };
}
