import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError } from "../errors.js";
import { buildTestApp } from "../test-app.js";

// Swagger UI is built at the first /docs request, in an instance of its own: what a reader gets
// must be what @fastify/swagger-ui serves, behind the gateway's guard and in its error shape.
const auth = { authorization: "Bearer t" };
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({
    authenticate: async (headers) => {
      if (headers.authorization !== auth.authorization) throw new HttpError(401, "NOT_AUTHENTICATED", "Not authenticated");
      return { kind: "user", orgId: "org_1", userId: "user_1", sessionId: "s_1", email: "a@example.com", token: "t" };
    },
  });
});
afterAll(async () => app?.close());

const get = (url: string, headers: Record<string, string> = auth) => app.inject({ method: "GET", url, headers });

describe("/docs (Swagger UI)", () => {
  it("serves the page, its initializer with the docs' request interceptor, and its static files under a CSP", async () => {
    const page = await get("/docs/");
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["content-security-policy"]).toMatch(/script-src 'self'/);
    expect(page.body).toContain("swagger-initializer.js");

    const init = await get("/docs/static/swagger-initializer.js");
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain("/docs/session");

    const dist = path.dirname(createRequire(import.meta.url).resolve("@fastify/swagger-ui/package.json"));
    const bundle = await get("/docs/static/swagger-ui-bundle.js");
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers["content-type"]).toMatch(/javascript/);
    expect(bundle.rawPayload.equals(fs.readFileSync(path.join(dist, "static", "swagger-ui-bundle.js")))).toBe(true);
  });

  it("hands Swagger UI the gateway's own document", async () => {
    const fromUi = await get("/docs/json");
    expect(fromUi.statusCode).toBe(200);
    expect(fromUi.json()).toEqual((await get("/openapi.json")).json());
  });

  it("answers a missing file in the API's error shape, and nothing without credentials", async () => {
    const missing = await get("/docs/static/nope.js");
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error_code: "NOT_FOUND" });
    expect((await get("/docs/", {})).statusCode).toBe(401);
    expect((await get("/docs/static/swagger-ui-bundle.js", {})).statusCode).toBe(401);
  });
});
