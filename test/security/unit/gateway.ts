import { createLogger, createMetrics } from "@vulnscan/kit";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../../gateway/src/app.js";
import { gatewayEnvSchema } from "../../../gateway/src/config.js";
import type { Upstreams } from "../../../gateway/src/upstreams.js";

/**
 * The gateway built in-process for the security suite's gateway-level tests: every upstream
 * client made by `clientOf(service)` (the tests' recording fakes), every request signed in as
 * one user of `org_a`, no rate limit.
 */
export function signedInGateway(name: string, clientOf: (service: string) => unknown): Promise<FastifyInstance> {
  const services = ["auth", "scans", "findings", "webhooks", "grc"] as const;
  const upstreams = {
    urls: {},
    health: new Proxy({}, { get: () => clientOf("health") }),
    ...Object.fromEntries(services.map((s) => [s, clientOf(s)])),
  } as unknown as Upstreams;
  return buildApp({
    config: gatewayEnvSchema.parse({ SERVICE_VERSION: "0.0.0" }),
    logger: createLogger(name, "silent"),
    registry: createMetrics(name).registry,
    upstreams,
    guard: {
      authenticator: {
        authenticate: async () => ({ kind: "user", orgId: "org_a", userId: "user_1", sessionId: "session_1", email: "a@example.test", token: "t" }),
      },
      limiter: { hit: async () => undefined },
      plans: { rateLimits: async () => ({}) },
    },
  });
}
