// The gateway as unit tests build it: no upstream but the ones a test hands in, a silent logger,
// no rate limit, and a caller who is refused (401) unless the test says who signs in.
import { createLogger, createMetrics } from "@vulnscan/kit";
import type { FastifyInstance } from "fastify";
import { type AppDeps, buildApp } from "./app.js";
import { gatewayEnvSchema } from "./config.js";
import { HttpError } from "./errors.js";
import type { Upstreams } from "./upstreams.js";

const refused = async (): Promise<never> => Promise.reject(new HttpError(401, "NOT_AUTHENTICATED", "Not authenticated"));

export async function buildTestApp(
  opts: {
    authenticate?: AppDeps["guard"]["authenticator"]["authenticate"];
    upstreams?: Partial<Upstreams>;
    plugins?: AppDeps["plugins"];
    plans?: AppDeps["guard"]["plans"];
  } = {},
): Promise<FastifyInstance> {
  const none = {} as never;
  const app = await buildApp({
    config: gatewayEnvSchema.parse({ SERVICE_VERSION: "9.9.9" }),
    logger: createLogger("gateway-test", "silent"),
    registry: createMetrics("gateway-test").registry,
    upstreams: { urls: none, health: none, auth: none, scans: none, targets: none, findings: none, webhooks: none, grc: none, ...opts.upstreams } as Upstreams,
    guard: {
      authenticator: { authenticate: opts.authenticate ?? refused },
      limiter: { hit: async () => undefined },
      plans: opts.plans ?? ({ rateLimits: async () => ({}) } as unknown as AppDeps["guard"]["plans"]),
    },
    ...(opts.plugins ? { plugins: opts.plugins } : {}),
  });
  await app.ready();
  return app;
}
