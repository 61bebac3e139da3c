import fs from "node:fs";
import { createRequire } from "node:module";
import { createLogger, createMetrics } from "@vulnscan/kit";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { gatewayEnvSchema } from "../config.js";
import { HttpError } from "../errors.js";
import type { Upstreams } from "../upstreams.js";

// ReDoc's bundle is read on its first request (not held from the start): served whole, the same
// bytes on every request, to a signed-in reader only.
let app: FastifyInstance;
beforeAll(async () => {
  const none = {} as never;
  app = await buildApp({
    config: gatewayEnvSchema.parse({ SERVICE_VERSION: "9.9.9" }),
    logger: createLogger("gateway-test", "silent"),
    registry: createMetrics("gateway-test").registry,
    upstreams: { urls: none, health: none, auth: none, scans: none, targets: none, findings: none, webhooks: none, grc: none } as Upstreams,
    guard: {
      authenticator: {
        authenticate: async (headers: { authorization?: string }) => {
          if (headers.authorization !== "Bearer t") throw new HttpError(401, "NOT_AUTHENTICATED", "Not authenticated");
          return { kind: "user", orgId: "org_1", userId: "user_1", sessionId: "s_1", email: "a@example.com", token: "t" };
        },
      },
      limiter: { hit: async () => undefined },
      plans: { rateLimits: async () => ({}) },
    },
  });
  await app.ready();
});
afterAll(async () => app?.close());

describe("/redoc/redoc.standalone.js", () => {
  it("serves the redoc bundle, read on the first request, the same on the next", async () => {
    const bundle = fs.readFileSync(createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js"));
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ method: "GET", url: "/redoc/redoc.standalone.js", headers: { authorization: "Bearer t" } });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^application\/javascript/);
      expect(res.rawPayload.equals(bundle)).toBe(true);
    }
  });

  it("needs a signed-in reader", async () => {
    const res = await app.inject({ method: "GET", url: "/redoc/redoc.standalone.js" });
    expect(res.statusCode).toBe(401);
  });
});
