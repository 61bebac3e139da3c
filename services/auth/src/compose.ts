import { Outbox, Topics, type ServiceContext, type ServiceParts } from "@vulnscan/kit";
import { startPeriodic, type PeriodicJob } from "@vulnscan/kit/periodic";
import { authSettings, type Config } from "./config.js";
import { createAuthDomain } from "./domain/index.js";
import { argon2Hasher } from "./domain/passwords.js";
import { authObserver } from "./metrics.js";
import { AuthRpcService } from "./rpc/auth-service.js";
import { authRoutes, authServiceNames } from "./rpc/routes.js";
import { startHeartbeat } from "./events/heartbeat.js";
import { authFields, authIndexes, mongoRepositories, outboxCollections } from "./storage/index.js";

const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000;
/** Ended sessions stay this long (support can still see them), then are deleted. */
const ENDED_SESSION_RETENTION_MS = 30 * 24 * 3600 * 1000;

/** Wiring: mongo → repositories → outbox → domain → rpc. */
export function compose(ctx: ServiceContext<Config>): ServiceParts {
  const { config, logger } = ctx;
  const settings = authSettings(config);
  const outbox = new Outbox(ctx.db, ctx.kafka, logger, outboxCollections);
  const repos = mongoRepositories(ctx.db, outbox);
  const keyRotationMs = config.AUTH_KEY_ROTATION_SECONDS * 1000;
  const domain = createAuthDomain({
    ...repos,
    hasher: argon2Hasher,
    settings,
    observer: authObserver(ctx.metrics.registry),
    now: () => new Date(),
    keyRotationMs,
    onBackgroundError: (err) => logger.warn({ err }, "login failure record not written"),
  });
  const impl = new AuthRpcService(domain, {
    issuer: settings.issuer,
    audience: settings.audience,
    cacheSeconds: config.AUTH_JWKS_CACHE_SECONDS,
  });

  const jobs: PeriodicJob[] = [];
  const every = (intervalMs: number, name: string, run: () => Promise<unknown>) => jobs.push(startPeriodic({ name, intervalMs, run, logger }));

  return {
    routes: authRoutes(impl),
    serviceNames: authServiceNames,
    indexes: authIndexes,
    fields: authFields,
    topics: [Topics.authEvents],
    start: async () => {
      // Replicas starting together race here; the unique generation index leaves one key.
      const key = await domain.keyring.ensureCurrent();
      logger.info({ kid: key.kid, generation: key.generation }, "signing key ready");
      outbox.start();
      jobs.push(startHeartbeat(ctx.kafka, logger, config.AUTH_HEARTBEAT_INTERVAL_MS));
      every(Math.min(keyRotationMs / 4, 60_000), "signing key maintenance", () => domain.keyring.maintain());
      every(HOUSEKEEPING_INTERVAL_MS, "housekeeping", async () => {
        const now = Date.now();
        await repos.sessions.purgeEndedBefore(new Date(now - ENDED_SESSION_RETENTION_MS));
        await repos.attempts.purgeExpired(new Date(now));
      });
    },
    stop: async () => {
      await Promise.all(jobs.map((j) => j.stop()));
      await domain.login.settled();
      await outbox.stop();
    },
  };
}
