import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { createLogger, createMetrics } from "@vulnscan/kit";
import { AuthService, PlanSchema } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { Health } from "@vulnscan/proto/grpc/health/v1/health_pb.js";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../app.js";
import { gatewayEnvSchema } from "../config.js";
import type { RateLimits } from "../rate-limit.js";
import type { Upstreams } from "../upstreams.js";
import { PlanCache } from "../plans.js";
import { MemoryFeed, testAuthenticator } from "./testing.js";
import type { AuthView } from "./auth-view.js";
import { TokenVerifier } from "./token-verifier.js";

const ISS = "vulnscan-auth";
const AUD = "vulnscan-api";
let app: FastifyInstance;
let sign: (claims: JWTPayload, opts?: { kid?: string; alg?: string; expSeconds?: number }) => Promise<string>;
let foreignSign: (claims: JWTPayload) => Promise<string>;
const apiKeys: Record<string, { orgId: string; permissions: string[]; id?: string; user?: string }> = {
  vsk_reader: { orgId: "org_a", permissions: ["read:scans"] },
  vsk_doomed: { orgId: "org_a", permissions: ["read:scans"], id: "apikey_doomed" },
  vsk_alices: { orgId: "org_a", permissions: ["read:scans"], id: "apikey_alices", user: "user_alice" },
};
const counts = new Map<string, number>();
const calls = { verifyApiKey: 0, getPlan: 0, jwks: 0 };
const hourly = 5;
let feed: MemoryFeed;
let view: AuthView;
let plans: PlanCache;
/** What GetAuthState answers at the next (re)load. */
const snapshotSessions: string[] = ["session_in_snapshot"];

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
        getJwks: () => (
          calls.jwks++, { keys: [{ kid: "k1", kty: "EC", alg: "ES256", crv: "P-256", x: jwk.x!, y: jwk.y! }], issuer: ISS, audience: AUD, cacheSeconds: 300 }
        ),
        verifyApiKey: (req) => {
          calls.verifyApiKey++;
          const k = apiKeys[req.key];
          if (!k) throw new ConnectError("Could not validate credentials", Code.Unauthenticated);
          return {
            orgId: k.orgId,
            apiKeyId: k.id ?? "apikey_1",
            permissions: k.permissions,
            name: "ci",
            expiresAt: timestampFromMs(Date.now() + 3_600_000),
            createdByUserId: k.user ?? "user_1",
          };
        },
        getPlan: () => {
          calls.getPlan++;
          return { plan: create(PlanSchema, { apiKeysEnabled: true, limits: { requestsPerHour: { max: hourly }, requestsPerDay: { max: 1000 } } }) };
        },
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
      return {
        allowed: n <= limits.perHour!,
        limit: limits.perHour!,
        remaining: Math.max(0, limits.perHour! - n),
        reset: 2_000_000_000,
        retryAfterSeconds: 42,
      };
    },
  };
  plans = new PlanCache(auth);
  feed = new MemoryFeed(50);
  const t = testAuthenticator({
    verifier,
    auth,
    plans,
    feed,
    maxStalenessMs: 1000,
    snapshot: async () => ({
      revokedSessions: snapshotSessions.map((sessionId) => ({ sessionId, tokensValidUntil: timestampFromMs(Date.now() + 3_600_000) })),
    }),
  });
  view = t.view;
  await t.ready;
  app = await buildApp({
    config: gatewayEnvSchema.parse({}),
    logger: createLogger("guard-test", "silent"),
    registry: createMetrics("guard-test").registry,
    upstreams,
    guard: { authenticator: t.authenticator, limiter, plans },
    plugins: [probes],
  });
});
afterAll(async () => {
  await view.stop();
  feed.close();
  await app.close();
});

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

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

  it("refuses a token whose session was revoked, from the snapshot or from an event, without asking auth", async () => {
    counts.clear();
    const loaded = await get({ authorization: `Bearer ${await sign(claims({ sid: "session_in_snapshot" }))}` });
    expect(loaded.statusCode).toBe(401);
    expect(loaded.json().error_code).toBe("INVALID_TOKEN");

    const auth = { authorization: `Bearer ${await sign(claims({ sid: "session_gone" }))}` };
    expect((await get(auth)).statusCode).toBe(200);
    feed.publish({
      type: "auth.session_revoked",
      orgId: "org_a",
      payload: {
        case: "authSessionRevoked",
        value: { sessionId: "session_gone", userId: "user_1", tokensValidUntil: timestampFromMs(Date.now() + 3_600_000) },
      },
    });
    const res = await get(auth);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: "Could not validate credentials", error_code: "INVALID_TOKEN" });
  });

  it("verifies a token once and then answers from memory", async () => {
    counts.clear();
    const token = await sign(claims({ sid: "session_cached" }));
    const spy = vi.spyOn(TokenVerifier.prototype, "verify");
    for (let i = 0; i < 3; i++) expect((await get({ authorization: `Bearer ${token}` })).statusCode).toBe(200);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });

  it("refuses a disabled user's tokens and the keys they created, and admits them again when enabled", async () => {
    counts.clear();
    const token = { authorization: `Bearer ${await sign(claims({ sub: "user_alice", sid: "session_alice" }))}` };
    const key = { "x-api-key": "vsk_alices" };
    expect((await get(token)).statusCode).toBe(200);
    expect((await get(key)).statusCode).toBe(200);
    feed.publish({ type: "auth.user_disabled", orgId: "org_a", payload: { case: "authUserDisabled", value: { userId: "user_alice" } } });
    expect((await get(token)).statusCode).toBe(401);
    expect((await get(key)).statusCode).toBe(401);
    feed.publish({ type: "auth.user_enabled", orgId: "org_a", payload: { case: "authUserEnabled", value: { userId: "user_alice" } } });
    expect((await get(token)).statusCode).toBe(200);
  });

  it("resolves an API key once through auth, then from memory until an event revokes it", async () => {
    counts.clear();
    const before = calls.verifyApiKey;
    for (let i = 0; i < 3; i++) expect((await get({ "x-api-key": "vsk_doomed" })).statusCode).toBe(200);
    expect(calls.verifyApiKey - before).toBe(1);
    feed.publish({
      type: "auth.api_key_revoked",
      orgId: "org_a",
      payload: { case: "authApiKeyRevoked", value: { apiKeyId: "apikey_doomed", expiresAt: timestampFromMs(Date.now() + 3_600_000) } },
    });
    const res = await get({ "x-api-key": "vsk_doomed" });
    expect(res.statusCode).toBe(401);
    expect(res.json().error_code).toBe("INVALID_TOKEN");
  });

  it("takes plan changes from the events, not from auth", async () => {
    counts.clear();
    const token = { authorization: `Bearer ${await sign(claims())}` };
    expect((await get(token)).headers["x-ratelimit-limit"]).toBe("5");
    const before = calls.getPlan;
    feed.publish({
      type: "auth.plan_changed",
      orgId: "org_a",
      payload: { case: "authPlanChanged", value: { plan: { apiKeysEnabled: true, limits: { requestsPerHour: { max: 7 }, requestsPerDay: { max: 1000 } } } } },
    });
    expect((await get(token)).headers["x-ratelimit-limit"]).toBe("7");
    expect(calls.getPlan).toBe(before);
    feed.publish({
      type: "auth.plan_changed",
      orgId: "org_a",
      payload: { case: "authPlanChanged", value: { plan: { apiKeysEnabled: true, limits: { requestsPerHour: { max: 5 }, requestsPerDay: { max: 1000 } } } } },
    });
  });

  it("refuses with 503 and Retry-After while its view cannot be shown current, and recovers by itself", async () => {
    counts.clear();
    const token = { authorization: `Bearer ${await sign(claims())}` };
    expect((await get(token)).statusCode).toBe(200);
    feed.cut = true;
    await until(async () => ((await get(token)).statusCode === 503 ? true : undefined), 5000);
    counts.clear(); // the polls above were admitted and counted
    const res = await get(token);
    expect(res.json()).toEqual({ detail: "Authentication is temporarily unavailable; retry shortly", error_code: "SERVICE_UNAVAILABLE" });
    expect(res.headers["retry-after"]).toBe("5");
    expect((await get({ "x-api-key": "vsk_reader" })).statusCode).toBe(503);
    // A revocation made while it was cut off: stored by auth (so in the snapshot a resync loads)
    // and published (so a reader that resumes reads it); whichever way it recovers, it knows.
    snapshotSessions.push("session_revoked_while_cut");
    feed.publish({
      type: "auth.session_revoked",
      orgId: "org_a",
      payload: { case: "authSessionRevoked", value: { sessionId: "session_revoked_while_cut", tokensValidUntil: timestampFromMs(Date.now() + 3_600_000) } },
    });
    feed.cut = false;
    await until(async () => ((await get(token)).statusCode === 200 ? true : undefined), 10_000);
    expect((await get({ authorization: `Bearer ${await sign(claims({ sid: "session_revoked_while_cut" }))}` })).statusCode).toBe(401);
  }, 20_000);

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
    expect((await app.inject({ method: "GET", url: "/asyncapi.json" })).statusCode).toBe(401);
    expect((await app.inject({ method: "GET", url: "/asyncapi" })).statusCode).toBe(401);
    const res = await app.inject({ method: "GET", url: "/openapi.json", headers: { authorization: `Bearer ${await sign(claims())}` } });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/v1/auth/token", "/api/v1/auth/sessions/{session_id}", "/api/health"]));
  });

  it("lets a browser open the docs with the console's docs cookie, for the docs only and only while the session lives", async () => {
    counts.clear();
    const token = await sign(claims({ sid: "session_docs" }));
    const set = await app.inject({ method: "POST", url: "/api/v1/auth/docs-cookie", headers: { authorization: `Bearer ${token}` } });
    expect(set.statusCode).toBe(204);
    const cookies = [set.headers["set-cookie"]].flat() as string[];
    expect(cookies.map((c) => /Path=([^;]+)/.exec(c)?.[1])).toEqual(["/docs", "/redoc", "/openapi.json", "/asyncapi", "/asyncapi.json"]);
    for (const c of cookies) expect(c).toMatch(/HttpOnly; SameSite=Strict/);
    expect((await app.inject({ method: "POST", url: "/api/v1/auth/docs-cookie", headers: { "x-api-key": "vsk_reader" } })).statusCode).toBe(403);

    const cookie = { cookie: `other=1; vulnscan_docs=${token}` };
    expect((await app.inject({ method: "GET", url: "/openapi.json", headers: cookie })).statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: "/redoc", headers: cookie })).statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: "/asyncapi", headers: cookie })).statusCode).toBe(200);
    // Never a credential for the API itself.
    expect((await get(cookie)).statusCode).toBe(401);
    feed.publish({
      type: "auth.session_revoked",
      orgId: "org_a",
      payload: {
        case: "authSessionRevoked",
        value: { sessionId: "session_docs", userId: "user_1", tokensValidUntil: timestampFromMs(Date.now() + 3_600_000) },
      },
    });
    expect((await app.inject({ method: "GET", url: "/openapi.json", headers: cookie })).statusCode).toBe(401);
  });
});
