import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { createLogger, createMetrics } from "@vulnscan/kit";
import { AuthService, PlanSchema } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { Health } from "@vulnscan/proto/grpc/health/v1/health_pb.js";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { gatewayEnvSchema } from "../config.js";
import type { RateLimits } from "../rate-limit.js";
import type { Upstreams } from "../upstreams.js";
import { TokenVerifier } from "./token-verifier.js";

const ISS = "vulnscan-auth";
const AUD = "vulnscan-api";
let app: FastifyInstance;
let sign: (claims: JWTPayload, opts?: { kid?: string; alg?: string; expSeconds?: number }) => Promise<string>;
let foreignSign: (claims: JWTPayload) => Promise<string>;
const revoked = new Set<string>();
const apiKeys: Record<string, { orgId: string; permissions: string[] }> = {
  vsk_reader: { orgId: "org_a", permissions: ["read:scans"] },
};
const counts = new Map<string, number>();

const claims = (over: JWTPayload = {}) => ({ sub: "user_1", org: "org_a", sid: "session_1", email: "u@a.test", ...over });

const probes: FastifyPluginAsync = async (a) => {
  a.get("/api/v1/probe/read", { config: { permission: "read:scans" } }, async (req) => ({ org: req.principal?.orgId }));
  a.post("/api/v1/probe/write", { config: { permission: "write:scans" } }, async () => ({ ok: true }));
};

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const other = await generateKeyPair("ES256");
  const jwk = await exportJWK(publicKey);
  sign = (c, o = {}) =>
    new SignJWT(c)
      .setProtectedHeader({ alg: o.alg ?? "ES256", kid: o.kid ?? "k1" })
      .setIssuer(ISS)
      .setAudience(AUD)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + (o.expSeconds ?? 3600))
      .sign(privateKey);
  foreignSign = (c) =>
    new SignJWT(c).setProtectedHeader({ alg: "ES256", kid: "k1" }).setIssuer(ISS).setAudience(AUD).setIssuedAt().setExpirationTime("1h").sign(other.privateKey);

  const auth = createClient(
    AuthService,
    createRouterTransport(({ service }) =>
      service(AuthService, {
        getJwks: () => ({ keys: [{ kid: "k1", kty: "EC", alg: "ES256", crv: "P-256", x: jwk.x!, y: jwk.y! }], issuer: ISS, audience: AUD, cacheSeconds: 300 }),
        checkSession: (req) => ({ active: !revoked.has(req.sessionId), userId: "user_1" }),
        verifyApiKey: (req) => {
          const k = apiKeys[req.key];
          if (!k) throw new ConnectError("Could not validate credentials", Code.Unauthenticated);
          return { orgId: k.orgId, apiKeyId: "apikey_1", permissions: k.permissions, name: "ci" };
        },
        getPlan: () => ({
          plan: create(PlanSchema, { limits: { requestsPerHour: { max: 5 }, requestsPerDay: { max: 1000 } } }),
        }),
      }),
    ),
  );
  const upstreams = { urls: {}, health: {} as Record<string, ReturnType<typeof createClient<typeof Health>>>, auth } as unknown as Upstreams;
  const verifier = new TokenVerifier(async () => {
    const r = await auth.getJwks({});
    return { keys: r.keys, issuer: r.issuer, audience: r.audience, cacheSeconds: r.cacheSeconds };
  });
  const limiter = {
    async hit(orgId: string, limits: RateLimits) {
      const n = (counts.get(orgId) ?? 0) + 1;
      counts.set(orgId, n);
      return { allowed: n <= limits.perHour!, limit: limits.perHour!, remaining: Math.max(0, limits.perHour! - n), reset: 2_000_000_000, retryAfterSeconds: 42 };
    },
  };
  const { PlanCache } = await import("../plans.js");
  app = await buildApp({
    config: gatewayEnvSchema.parse({}),
    logger: createLogger("guard-test", "silent"),
    registry: createMetrics("guard-test").registry,
    upstreams,
    guard: { verifier, limiter, plans: new PlanCache(auth) },
    plugins: [probes],
  });
});
afterAll(() => app.close());

const get = (headers: Record<string, string>, url = "/api/v1/probe/read") => app.inject({ method: "GET", url, headers });

describe("the guard", () => {
  it("requires credentials: 401 NOT_AUTHENTICATED", async () => {
    const res = await get({});
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: "Not authenticated", error_code: "NOT_AUTHENTICATED" });
    expect(res.headers["www-authenticate"]).toBe("Bearer");
  });

  it("accepts a valid bearer token and scopes the request to its organization", async () => {
    counts.clear();
    const res = await get({ authorization: `Bearer ${await sign(claims())}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ org: "org_a" });
  });

  it("refuses every token that cannot be validated with 401 INVALID_TOKEN", async () => {
    counts.clear();
    const good = await sign(claims());
    const [h, p, s] = good.split(".");
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const corpus: Record<string, string> = {
      garbage: "not-a-jwt",
      "alg none": `${b64({ alg: "none", kid: "k1" })}.${b64({ ...claims(), iss: ISS, aud: AUD, exp: 4e9 })}.`,
      "HS256 with the public key as secret": `${b64({ alg: "HS256", kid: "k1" })}.${p}.${s}`,
      "signed by another key": await foreignSign(claims()),
      "tampered payload": `${h}.${b64({ ...claims({ org: "org_b" }), iss: ISS, aud: AUD, exp: 4e9 })}.${s}`,
      "unknown kid": await sign(claims(), { kid: "k9" }),
      "missing sid": await sign({ sub: "user_1", org: "org_a" }),
      "not bearer scheme": "",
    };
    for (const [name, token] of Object.entries(corpus)) {
      const header = name === "not bearer scheme" ? `Basic ${Buffer.from("a:b").toString("base64")}` : `Bearer ${token}`;
      const res = await get({ authorization: header });
      expect(res.statusCode, name).toBe(401);
      expect(res.json(), name).toEqual({ detail: "Could not validate credentials", error_code: "INVALID_TOKEN" });
    }
  });

  it("says TOKEN_EXPIRED for an expired token", async () => {
    const res = await get({ authorization: `Bearer ${await sign(claims(), { expSeconds: -120 })}` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: "Token has expired", error_code: "TOKEN_EXPIRED" });
  });

  it("refuses a token whose session was revoked", async () => {
    counts.clear();
    revoked.add("session_gone");
    const res = await get({ authorization: `Bearer ${await sign(claims({ sid: "session_gone" }))}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().error_code).toBe("INVALID_TOKEN");
  });

  it("checks API-key permissions: 403 without it, 401 for unknown keys", async () => {
    counts.clear();
    expect((await get({ "x-api-key": "vsk_reader" })).statusCode).toBe(200);
    const write = await app.inject({ method: "POST", url: "/api/v1/probe/write", headers: { "x-api-key": "vsk_reader" } });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({ detail: "This API key lacks the write:scans permission", error_code: "FORBIDDEN" });
    const refresh = await app.inject({ method: "POST", url: "/api/v1/auth/refresh", headers: { "x-api-key": "vsk_reader" } });
    expect(refresh.statusCode).toBe(403);
    const unknown = await get({ "x-api-key": "vsk_nope" });
    expect(unknown.statusCode).toBe(401);
  });

  it("puts rate-limit headers on authenticated responses and answers 429 over the limit", async () => {
    counts.clear();
    const token = await sign(claims());
    for (let i = 1; i <= 5; i++) {
      const res = await get({ authorization: `Bearer ${token}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers["x-ratelimit-limit"]).toBe("5");
      expect(res.headers["x-ratelimit-remaining"]).toBe(String(5 - i));
      expect(res.headers["x-ratelimit-reset"]).toBe("2000000000");
    }
    const over = await get({ authorization: `Bearer ${token}` });
    expect(over.statusCode).toBe(429);
    expect(over.headers["retry-after"]).toBe("42");
    expect(over.json().error_code).toBe("RATE_LIMIT_EXCEEDED");
  });

  it("keeps the API description behind authentication", async () => {
    counts.clear();
    expect((await app.inject({ method: "GET", url: "/openapi.json" })).statusCode).toBe(401);
    expect((await app.inject({ method: "GET", url: "/docs" })).statusCode).toBe(401);
    expect((await app.inject({ method: "GET", url: "/redoc" })).statusCode).toBe(401);
    const res = await app.inject({ method: "GET", url: "/openapi.json", headers: { authorization: `Bearer ${await sign(claims())}` } });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/v1/auth/token", "/api/v1/auth/sessions/{session_id}", "/api/health"]));
  });
});
