import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { Health, HealthCheckResponseSchema } from "@vulnscan/proto/grpc/health/v1/health_pb.js";
import { createLogger, createMetrics } from "@vulnscan/kit";
import type { FastifyPluginAsync } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "./app.js";
import { gatewayEnvSchema } from "./config.js";
import { HttpError } from "./errors.js";
import type { PlanCache } from "./plans.js";
import type { UpstreamName, Upstreams } from "./upstreams.js";

const names: UpstreamName[] = ["auth", "scan-orchestrator", "findings", "grc", "webhook-dispatcher"];

function upstreams(down: UpstreamName[] = []): Upstreams {
  const health = Object.fromEntries(
    names.map((n) => [
      n,
      createClient(
        Health,
        createRouterTransport(({ service }) =>
          service(Health, {
            check() {
              if (down.includes(n)) throw new ConnectError("connect ECONNREFUSED", Code.Unavailable);
              return create(HealthCheckResponseSchema, { status: 1 });
            },
            async *watch() {},
          }),
        ),
      ),
    ]),
  ) as Upstreams["health"];
  return {
    urls: {} as Upstreams["urls"],
    health,
    auth: {} as Upstreams["auth"],
    scans: {} as Upstreams["scans"],
    targets: {} as Upstreams["targets"],
    findings: {} as Upstreams["findings"],
    webhooks: {} as Upstreams["webhooks"],
    grc: {} as Upstreams["grc"],
  };
}

const probe: FastifyPluginAsync = async (app) => {
  app.post(
    "/api/v1/probe",
    {
      config: { public: true },
      schema: {
        body: {
          type: "object",
          additionalProperties: false,
          required: ["target"],
          properties: { target: { type: "string", minLength: 1 }, scan_type: { enum: ["quick", "full"] } },
        },
      },
    },
    async (req) => req.body,
  );
  app.get("/api/v1/upstream-error", { config: { public: true } }, async () => {
    throw new ConnectError("Scan not found", Code.NotFound);
  });
  app.get("/api/v1/crash", { config: { public: true } }, async () => {
    throw new Error("secret internals");
  });
  app.get("/api/v1/quota", { config: { public: true } }, async () => {
    throw new HttpError(429, "SCAN_QUOTA_EXCEEDED", "Monthly scan quota exceeded");
  });
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

async function app(down: UpstreamName[] = []) {
  const config = gatewayEnvSchema.parse({ SERVICE_VERSION: "9.9.9" });
  const a = await buildApp({
    config,
    logger: createLogger("gateway-test", "silent"),
    registry: createMetrics("gateway-test").registry,
    upstreams: upstreams(down),
    // These tests cover routing and errors on public routes; the guard has its own tests.
    guard: {
      authenticator: { authenticate: async () => Promise.reject(new HttpError(401, "NOT_AUTHENTICATED", "Not authenticated")) },
      limiter: { hit: async () => undefined },
      plans: {} as PlanCache,
    },
    plugins: [probe],
  });
  close = () => a.close();
  return a;
}

describe("gateway app", () => {
  it("GET /api/health answers the spec's health record", async () => {
    const res = await (await app()).inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe("healthy");
    expect(body.version).toBe("9.9.9");
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
  });

  it("reports degraded with 503 when a required upstream is down", async () => {
    const res = await (await app(["findings"])).inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: "degraded", services: { findings: "down", auth: "up" } });
  });

  it("unknown routes get the spec's 404 body", async () => {
    const res = await (await app()).inject({ method: "GET", url: "/api/v1/nothing-here" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: "Not found", error_code: "NOT_FOUND" });
  });

  it("a known path asked with another method is a 405 with Allow; an unknown one stays 404", async () => {
    const a = await app();
    const res = await a.inject({ method: "PUT", url: "/api/v1/probe?x=1" });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe("POST");
    expect(res.json()).toMatchObject({ error_code: "METHOD_NOT_ALLOWED" });
    const trace = await a.inject({ method: "DELETE", url: "/api/health/" });
    expect(trace.statusCode).toBe(405);
    expect(trace.headers.allow).toBe("GET, HEAD");
    expect((await a.inject({ method: "PUT", url: "/api/v1/probe/more" })).statusCode).toBe(404);
  });

  it("declares /api/health public in the OpenAPI document", async () => {
    // /openapi.json itself needs authentication (spec); the document is what it serves.
    const a = await app();
    await a.ready();
    const doc = a.swagger() as { paths: Record<string, { get: { security: unknown } }> };
    expect(doc.paths["/api/health"]?.get.security).toEqual([]);
  });

  it("malformed JSON is a 400 BAD_REQUEST", async () => {
    const res = await (await app()).inject({
      method: "POST",
      url: "/api/v1/probe",
      headers: { "content-type": "application/json" },
      payload: '{"target": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: "Malformed request body", error_code: "BAD_REQUEST" });
  });

  it("schema violations are 422 VALIDATION_ERROR naming the field", async () => {
    const a = await app();
    const missing = await a.inject({ method: "POST", url: "/api/v1/probe", payload: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ error_code: "VALIDATION_ERROR", field: "target" });

    const bad = await a.inject({ method: "POST", url: "/api/v1/probe", payload: { target: "x", scan_type: "deep" } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ error_code: "VALIDATION_ERROR", field: "scan_type" });

    const extra = await a.inject({ method: "POST", url: "/api/v1/probe", payload: { target: "x", org_id: "org_x" } });
    expect(extra.statusCode).toBe(422);
    const unknown = { detail: "Remove org_id: it is not a field of this request.", error_code: "VALIDATION_ERROR", field: "org_id" };
    expect(extra.json()).toEqual({ ...unknown, errors: [unknown] });
  });

  it("answers a body that is not an object with 422 in the error shape (an error naming no field), never 500", async () => {
    const a = await app();
    for (const payload of ["[]", '"text"', "42"]) {
      const res = await a.inject({ method: "POST", url: "/api/v1/probe", headers: { "content-type": "application/json" }, payload });
      expect(res.statusCode, payload).toBe(422);
      expect(res.json(), payload).toEqual({
        detail: "The request must be an object.",
        error_code: "VALIDATION_ERROR",
        errors: [{ detail: "The request must be an object.", error_code: "VALIDATION_ERROR" }],
      });
    }
  });

  it("answers every field error at once, in plain words, the first also as detail and field", async () => {
    const a = await app();
    const res = await a.inject({ method: "POST", url: "/api/v1/probe", payload: { target: "", scan_type: "deep", org_id: "org_x" } });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.errors).toEqual([
      { field: "org_id", detail: "Remove org_id: it is not a field of this request.", error_code: "VALIDATION_ERROR" },
      { field: "target", detail: "Target must not be empty.", error_code: "VALIDATION_ERROR" },
      { field: "scan_type", detail: "Scan type must be one of: quick, full.", error_code: "VALIDATION_ERROR" },
    ]);
    expect(body).toMatchObject({ detail: body.errors[0].detail, field: body.errors[0].field, error_code: "VALIDATION_ERROR" });
    for (const e of body.errors) expect(e.detail).not.toMatch(/must NOT|must be one of: true|must match/);
  });

  it("refuses NUL characters in body and query strings with 422 naming the field", async () => {
    const a = await app();
    const body = await a.inject({
      method: "POST",
      url: "/api/v1/probe",
      headers: { "content-type": "application/json" },
      payload: '{"target": "a\\u0000b"}',
    });
    expect(body.statusCode).toBe(422);
    const nul = { detail: "target must not contain NUL characters", error_code: "VALIDATION_ERROR", field: "target" };
    expect(body.json()).toEqual({ ...nul, errors: [nul] });
    const query = await a.inject({ method: "POST", url: "/api/v1/probe?x=%00", payload: { target: "fine" } });
    expect(query.statusCode).toBe(422);
    expect(query.json()).toMatchObject({ error_code: "VALIDATION_ERROR", field: "x" });
    const fine = await a.inject({ method: "POST", url: "/api/v1/probe", payload: { target: "fine" } });
    expect(fine.statusCode).toBe(200);
  });

  it("maps upstream RPC errors and hides internals of unexpected ones", async () => {
    const a = await app();
    const nf = await a.inject({ method: "GET", url: "/api/v1/upstream-error" });
    expect(nf.statusCode).toBe(404);
    expect(nf.json()).toEqual({ detail: "Scan not found", error_code: "NOT_FOUND" });

    const crash = await a.inject({ method: "GET", url: "/api/v1/crash" });
    expect(crash.statusCode).toBe(500);
    expect(crash.json()).toEqual({ detail: "Internal server error", error_code: "INTERNAL_ERROR" });

    const quota = await a.inject({ method: "GET", url: "/api/v1/quota" });
    expect(quota.statusCode).toBe(429);
    expect(quota.json().error_code).toBe("SCAN_QUOTA_EXCEEDED");
  });

  it("echoes a caller's request id and issues one otherwise", async () => {
    const a = await app();
    const given = await a.inject({ method: "GET", url: "/api/health", headers: { "x-request-id": "req-12345678" } });
    expect(given.headers["x-request-id"]).toBe("req-12345678");
    const issued = await a.inject({ method: "GET", url: "/api/health" });
    expect(issued.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
