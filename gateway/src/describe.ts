import { createLogger, createMetrics } from "@vulnscan/kit";
import { buildApp } from "./app.js";
import { gatewayEnvSchema } from "./config.js";
import type { Upstreams } from "./upstreams.js";

/**
 * The OpenAPI document the gateway serves at /openapi.json, built in-process from the route
 * schemas: describing the routes calls no upstream, so tests and the client libraries' build
 * read exactly what a running gateway of this version serves, without a running system.
 */
export async function describeApi(version = "0.0.0"): Promise<Record<string, unknown>> {
  const app = await buildApp({
    config: gatewayEnvSchema.parse({ SERVICE_VERSION: version }),
    logger: createLogger("describe", "silent"),
    registry: createMetrics("describe").registry,
    upstreams: { urls: {}, health: {}, auth: {}, scans: {}, targets: {}, findings: {}, webhooks: {}, grc: {} } as unknown as Upstreams,
    guard: {
      authenticator: { authenticate: async () => Promise.reject(new Error("not used")) },
      limiter: { hit: async () => undefined },
      plans: { rateLimits: async () => ({}) },
    },
  });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
  }
}
