import { createLogger, createMetrics, createMongo, ensureIndexes, initTelemetry, main, Readiness, startAdminServer } from "@vulnscan/kit";
import { buildApp } from "./app.js";
import { TokenVerifier } from "./auth/token-verifier.js";
import { loadGatewayConfig } from "./config.js";
import { PlanCache } from "./plans.js";
import { RateLimiter, rateLimitIndexes } from "./rate-limit.js";
import { createUpstreams } from "./upstreams.js";

await main(async () => {
  const config = loadGatewayConfig();
  const telemetry = initTelemetry("gateway", config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const logger = createLogger("gateway", config.LOG_LEVEL);
  const { registry } = createMetrics("gateway");
  const readiness = new Readiness();
  const mongo = createMongo(config.MONGO_URL, config.MONGO_DB, "gateway");
  readiness.add({ name: "mongo", check: () => mongo.ping() });
  const upstreams = createUpstreams(config);
  const limiter = new RateLimiter(mongo.db);
  const verifier = new TokenVerifier(async () => {
    const r = await upstreams.auth.getJwks({});
    return { keys: r.keys, issuer: r.issuer, audience: r.audience, cacheSeconds: r.cacheSeconds };
  });
  const app = await buildApp({
    config,
    logger,
    registry,
    upstreams,
    guard: { verifier, limiter, plans: new PlanCache(upstreams.auth) },
  });
  await app.listen({ host: config.HOST, port: config.PORT });
  const admin = await startAdminServer({ host: config.HOST, port: config.ADMIN_PORT, readiness, registry });

  // Indexes and pruning need the database; the gateway serves meanwhile (rate limiting
  // answers 503 until Mongo does), so it is started in the background.
  void ensureIndexes(mongo.db, rateLimitIndexes)
    .then(() => readiness.markStarted())
    .catch((err) => logger.error({ err }, "could not ensure indexes"));
  const prune = setInterval(() => {
    limiter.prune().catch((err) => logger.warn({ err: (err as Error).message }, "rate counter prune failed"));
  }, 10 * 60_000);
  prune.unref();

  return {
    stop: async () => {
      readiness.markStopping();
      clearInterval(prune);
      await app.close();
      await admin.close();
      await mongo.close();
      await telemetry.shutdown().catch(() => undefined);
    },
  };
});
