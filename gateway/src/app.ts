import { randomUUID } from "node:crypto";
import formbody from "@fastify/formbody";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from "fastify";
import type { Registry } from "prom-client";
import type { Logger } from "@vulnscan/kit";
import { registerGuard, type GuardDeps } from "./auth/guard.js";
import type { GatewayConfig } from "./config.js";
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from "./plugins/errors.js";
import { registerMethodNotAllowed } from "./plugins/methods.js";
import { registerDeprecation } from "./plugins/deprecation.js";
import { registerDecimalNumbers, registerFiniteNumbers, registerNoNul } from "./plugins/no-nul.js";
import { registerObservability } from "./plugins/observability.js";
import { registerOpenApi } from "./plugins/openapi.js";
import { ajvOptions, lazySchemaCompilers } from "./plugins/validation.js";
import { authRoutes } from "./routes/auth/index.js";
import { consoleRoutes } from "./routes/console/index.js";
import { eventsRoutes } from "./routes/events/index.js";
import { findingsRoutes } from "./routes/findings/index.js";
import { grcRoutes } from "./routes/grc/index.js";
import { healthRoutes } from "./routes/health.js";
import { scanRoutes } from "./routes/scans/index.js";
import { targetRoutes } from "./routes/targets/index.js";
import { webhookRoutes } from "./routes/webhooks/index.js";
import type { Upstreams } from "./upstreams.js";

export interface AppDeps {
  config: GatewayConfig;
  logger: Logger;
  registry: Registry;
  upstreams: Upstreams;
  guard: GuardDeps;
  /** Extra route plugins (tests use this to mount probes). */
  plugins?: FastifyPluginAsync[];
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Builds the gateway as a value, so tests build exactly what production serves. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const schemas = lazySchemaCompilers();
  const app = Fastify({
    // Our pino and Fastify's own pino typings differ by a minor version; the runtime contract is the same.
    loggerInstance: deps.logger as unknown as FastifyBaseLogger,
    bodyLimit: deps.config.BODY_LIMIT_BYTES,
    // observability.ts writes one access-log line per request instead of Fastify's two.
    disableRequestLogging: true,
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Unknown fields are refused, defaults applied; query strings coerced, JSON bodies not (validation.ts).
    ajv: ajvOptions,
    schemaController: { compilersFactory: { buildValidator: schemas.buildValidator, buildSerializer: schemas.buildSerializer } },
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: deps.config.TRUST_PROXY,
    // Errors met before routing and on the socket leave in the spec's shape too (plugins/errors.ts).
    frameworkErrors,
    clientErrorHandler,
  });

  app.decorate("compileSchemas", () => schemas.compileAll());
  app.decorate("schemasPending", schemas.pending);
  // Ready first, then the schemas not yet used, in the background (plugins/validation.ts).
  app.addHook("onListen", async () =>
    schemas.compileInBackground((err) => app.log.error({ err }, "a route's schema does not compile; its requests will fail")),
  );
  app.addHook("onClose", async () => schemas.stop());
  registerObservability(app, deps.registry);
  registerErrorHandling(app);
  registerNoNul(app);
  registerFiniteNumbers(app);
  registerDecimalNumbers(app);
  registerMethodNotAllowed(app);
  registerDeprecation(app);
  registerGuard(app, deps.guard);
  await app.register(formbody);
  await registerOpenApi(app, deps.config.SERVICE_VERSION);
  await app.register(eventsRoutes());
  await app.register(healthRoutes({ upstreams: deps.upstreams, version: deps.config.SERVICE_VERSION }));
  await app.register(authRoutes(deps.upstreams.auth));
  await app.register(scanRoutes(deps.upstreams.scans));
  await app.register(targetRoutes(deps.upstreams.targets, deps.upstreams.findings));
  await app.register(findingsRoutes(deps.upstreams.findings, { scans: deps.upstreams.scans, retests: deps.upstreams.retests, diffs: deps.upstreams.diffs }));
  await app.register(consoleRoutes({ distDir: deps.config.WEB_DIST_DIR }));
  await app.register(webhookRoutes(deps.upstreams.webhooks));
  await app.register(grcRoutes(deps.upstreams.grc, deps.config.CONTROL_PAGE_FRESH_MS));
  for (const plugin of deps.plugins ?? []) await app.register(plugin);
  return app;
}
