import fs from "node:fs";
import { createRequire } from "node:module";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError } from "../errors.js";
import { buildTestApp } from "../test-app.js";

// ReDoc's bundle is read on its first request (not held from the start): served whole, the same
// bytes on every request, to a signed-in reader only.
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({
    authenticate: async (headers) => {
      if (headers.authorization !== "Bearer t") throw new HttpError(401, "NOT_AUTHENTICATED", "Not authenticated");
      return { kind: "user", orgId: "org_1", userId: "user_1", sessionId: "s_1", email: "a@example.com", token: "t" };
    },
  });
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
