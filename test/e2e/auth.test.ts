import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createMongo, KafkaBus, createLogger, Topics, type MongoHandle } from "@vulnscan/kit";
import { EventEnvelopeSchema, type EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { decodeJwt, decodeProtectedHeader, importJWK, SignJWT, generateKeyPair } from "jose";
import { TOTP, Secret } from "otpauth";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSystem, type RunningSystem } from "../../scripts/system.js";
import { admin, Api } from "../support/api.js";
import { unique } from "../support/names.js";

let system: RunningSystem;
let api: Api;
let prefix: string;
let authDb: MongoHandle;
let bus: KafkaBus;
const events: EventEnvelope[] = [];
const PASSWORD = "correct horse battery staple";

interface Account {
  orgId: string;
  email: string;
}

function makeAccount(plan: string, name = plan): Account {
  const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  const org = admin(["create-org", "--name", `${name} ${unique("org")}`, "--plan", plan], env);
  const email = `${unique(name)}@example.test`.toLowerCase();
  admin(["create-user", "--org", org.id, "--email", email, "--password", PASSWORD], env);
  return { orgId: org.id, email };
}

async function login(a: Account): Promise<string> {
  const res = await api.token(a.email, PASSWORD);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.access_token;
}

async function eventually<T>(fn: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error("not seen in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Revocation reaches every gateway replica through vulnscan.auth.events within a second (DESIGN.md §6). */
async function statusWithin(probe: () => Promise<{ status: number; body: { error_code?: string } }>, want: number, ms = 2000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await probe();
    if (res.status === want || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 25));
  }
}

const totpFor = (secret: string, at = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: at });

beforeAll(async () => {
  prefix = `${unique("e2eauth")}_`;
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir: fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-e2e-auth-")),
    logLevel: "warn",
  });
  api = new Api(system.gatewayUrl);
  authDb = createMongo(inject("mongoUrl"), `${prefix}auth`, "e2e");
  bus = new KafkaBus({ clientId: "e2e-auth", brokers: [inject("kafkaBrokers")], topicPrefix: prefix, logger: createLogger("e2e", "silent") });
  await bus.subscribe({
    groupId: unique("e2e-auth-events"),
    topic: Topics.authEvents,
    schema: EventEnvelopeSchema,
    handle: async (e) => {
      events.push(e);
    },
  });
});

afterAll(async () => {
  await bus?.close();
  await authDb?.close();
  await system?.stop();
});

describe("tokens", () => {
  it("issues an ES256 JWT with the documented claims for form credentials", async () => {
    const acct = makeAccount("startup");
    const res = await api.token(acct.email, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: "bearer", expires_in: 3600 });
    const header = decodeProtectedHeader(res.body.access_token);
    expect(header).toMatchObject({ alg: "ES256", kid: expect.any(String) });
    const claims = decodeJwt(res.body.access_token);
    expect(claims).toMatchObject({
      org: acct.orgId,
      sid: expect.stringMatching(/^session_/),
      sub: expect.stringMatching(/^user_/),
      iss: expect.any(String),
      aud: expect.anything(),
    });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect((await api.withToken(res.body.access_token).get("/api/v1/auth/sessions")).status).toBe(200);
  });

  it("answers wrong password and unknown user identically: 401 INVALID_CREDENTIALS", async () => {
    const acct = makeAccount("startup");
    const wrong = await api.token(acct.email, "not the password at all");
    const unknown = await api.token("nobody-here@example.test", "not the password at all");
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: "Incorrect email or password", error_code: "INVALID_CREDENTIALS" });
    }
    const ev = await eventually(() => events.find((e) => e.type === "user.login_failed" && e.orgId === acct.orgId));
    expect(ev.payload.case).toBe("userLoginFailed");
    expect(ev.payload.value).toMatchObject({ email: acct.email });
  });

  it("validates the token request: 422 naming the field, 400 for a malformed body", async () => {
    const missing = await api.request("POST", "/api/v1/auth/token", "username=a%40b.test", { "content-type": "application/x-www-form-urlencoded" });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ error_code: "VALIDATION_ERROR", field: "password" });
    const malformed = await api.request("POST", "/api/v1/auth/token", '{"username": ', { "content-type": "application/json" });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ detail: "Malformed request body", error_code: "BAD_REQUEST" });
  });

  it("refreshes for the same session; the refreshed token works", async () => {
    const acct = makeAccount("startup");
    const token = await login(acct);
    const res = await api.withToken(token).post("/api/v1/auth/refresh");
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe("bearer");
    expect(decodeJwt(res.body.access_token).sid).toBe(decodeJwt(token).sid);
    expect((await api.withToken(res.body.access_token).get("/api/v1/auth/sessions")).status).toBe(200);
  });

  it("refuses the negative token corpus: 401 INVALID_TOKEN / TOKEN_EXPIRED", async () => {
    const acct = makeAccount("startup");
    const good = await login(acct);
    const [h, p, s] = good.split(".");
    const claims = decodeJwt(good);
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const header = decodeProtectedHeader(good);
    const own = await generateKeyPair("ES256");
    const keyDoc = await authDb.db.collection<{ _id: string; private_jwk: Record<string, string> }>("signing_keys").findOne({ _id: header.kid! });
    const realKey = await importJWK(keyDoc!.private_jwk, "ES256");
    const resign = (c: Record<string, unknown>, key = realKey) => new SignJWT(c).setProtectedHeader({ alg: "ES256", kid: header.kid! }).sign(key);
    const now = Math.floor(Date.now() / 1000);

    const invalid: Record<string, string> = {
      garbage: "garbage",
      "alg none": `${b64({ alg: "none", kid: header.kid })}.${p}.`,
      "alg HS256": `${b64({ alg: "HS256", kid: header.kid })}.${p}.${s}`,
      "tampered payload": `${h}.${b64({ ...claims, org: "org_other" })}.${s}`,
      "signed with another key": await resign({ ...claims }, own.privateKey),
      "wrong audience": await resign({ ...claims, aud: "someone-else" }),
      "wrong issuer": await resign({ ...claims, iss: "https://evil.example" }),
    };
    for (const [name, token] of Object.entries(invalid)) {
      const res = await api.withToken(token).get("/api/v1/auth/sessions");
      expect(res.status, name).toBe(401);
      expect(res.body, name).toEqual({ detail: "Could not validate credentials", error_code: "INVALID_TOKEN" });
    }
    const expired = await resign({ ...claims, iat: now - 7200, exp: now - 3600 });
    const res = await api.withToken(expired).get("/api/v1/auth/sessions");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: "Token has expired", error_code: "TOKEN_EXPIRED" });

    const none = await api.get("/api/v1/auth/sessions");
    expect(none.status).toBe(401);
    expect(none.body.error_code).toBe("NOT_AUTHENTICATED");
  });
});

describe("sessions", () => {
  it("lists sessions with the current flag, revokes one at once on every gateway replica, also one started later", async () => {
    const acct = makeAccount("professional");
    const first = await login(acct);
    const second = await login(acct);
    const list = await api.withToken(first).get("/api/v1/auth/sessions");
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    const firstSid = decodeJwt(first).sid as string;
    const secondSid = decodeJwt(second).sid as string;
    const current = list.body.items.find((s: { id: string }) => s.id === firstSid);
    expect(current).toMatchObject({
      current: true,
      ip: expect.any(String),
      user_agent: expect.any(String),
      created_at: expect.any(String),
      last_used_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(list.body.items.find((s: { id: string }) => s.id === secondSid).current).toBe(false);

    const replica = await system.startGateway();
    const onReplica = new Api(replica.url).withToken(second);
    expect((await onReplica.get("/api/v1/auth/sessions")).status).toBe(200);

    const revoke = await api.withToken(first).delete(`/api/v1/auth/sessions/${secondSid}`);
    expect(revoke.status).toBe(200);
    expect(revoke.body).toMatchObject({ id: secondSid, status: "revoked" });
    // Refused within a second on both replicas…
    expect((await statusWithin(() => api.withToken(second).get("/api/v1/auth/sessions"), 401)).status).toBe(401);
    expect((await statusWithin(() => onReplica.get("/api/v1/auth/sessions"), 401)).body.error_code).toBe("INVALID_TOKEN");
    // …and on a replica that starts after the revocation.
    const late = await system.startGateway();
    expect((await new Api(late.url).withToken(second).get("/api/v1/auth/sessions")).status).toBe(401);
    expect((await new Api(late.url).withToken(first).get("/api/v1/auth/sessions")).status).toBe(200);
    await replica.stop();
    await late.stop();
  });

  it("cannot revoke another organization's (or user's) session: 404, and it keeps working", async () => {
    const a = makeAccount("startup", "alpha");
    const b = makeAccount("startup", "beta");
    const tokenA = await login(a);
    const tokenB = await login(b);
    const sidB = decodeJwt(tokenB).sid as string;
    const res = await api.withToken(tokenA).delete(`/api/v1/auth/sessions/${sidB}`);
    expect(res.status).toBe(404);
    expect(res.body.error_code).toBe("NOT_FOUND");
    expect((await api.withToken(tokenB).get("/api/v1/auth/sessions")).status).toBe(200);
  });

  it("logout-all revokes every session of the user", async () => {
    const acct = makeAccount("startup");
    const t1 = await login(acct);
    const t2 = await login(acct);
    const res = await api.withToken(t1).post("/api/v1/auth/logout-all");
    expect(res.status).toBe(200);
    expect(res.body.revoked).toBe(2);
    expect((await statusWithin(() => api.withToken(t1).get("/api/v1/auth/sessions"), 401)).status).toBe(401);
    expect((await statusWithin(() => api.withToken(t2).get("/api/v1/auth/sessions"), 401)).status).toBe(401);
  });
});

describe("MFA", () => {
  it("enrols, requires the code, refuses a replayed code, and emits user.mfa_disabled", async () => {
    const acct = makeAccount("startup");
    const token = await login(acct);
    const setup = await api.withToken(token).post("/api/v1/auth/mfa/setup");
    expect(setup.status).toBe(200);
    expect(setup.body.otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
    const secret = setup.body.secret as string;

    // Three distinct codes are needed (enable, login, disable) and each must be newer than the
    // last used one, within the ±1 step window: previous, current and next step. Start early in
    // a step so they all stay valid while the test runs.
    while (Date.now() % 30_000 > 15_000) await new Promise((r) => setTimeout(r, 250));
    const t0 = Date.now();

    const bad = await api.withToken(token).post("/api/v1/auth/mfa/enable", { code: "12345" });
    expect(bad.status).toBe(422);
    expect(bad.body.field).toBe("code");
    const enable = await api.withToken(token).post("/api/v1/auth/mfa/enable", { code: totpFor(secret, t0 - 30_000) });
    expect(enable.status, JSON.stringify(enable.body)).toBe(200);
    expect(enable.body).toEqual({ mfa_enabled: true, recovery_codes: expect.any(Array) });

    const without = await api.token(acct.email, PASSWORD);
    expect(without.status).toBe(401);
    expect(without.body).toEqual({ detail: "MFA code required", error_code: "MFA_REQUIRED" });

    const code = totpFor(secret, t0);
    const withCode = await api.token(acct.email, PASSWORD, code);
    expect(withCode.status).toBe(200);
    const replay = await api.token(acct.email, PASSWORD, code);
    expect(replay.status).toBe(401);

    const disable = await api.withToken(withCode.body.access_token).post("/api/v1/auth/mfa/disable", { code: totpFor(secret, t0 + 30_000) });
    expect(disable.status).toBe(200);
    expect(disable.body).toEqual({ mfa_enabled: false });
    const ev = await eventually(() => events.find((e) => e.type === "user.mfa_disabled" && e.orgId === acct.orgId));
    expect(ev.payload.value).toMatchObject({ email: acct.email });
    expect((await api.token(acct.email, PASSWORD)).status).toBe(200);
  });

  it("shows MFA state in /auth/me, and recovery codes sign in once, are replaced on request and turn MFA off", async () => {
    const acct = makeAccount("professional");
    const token = await login(acct);
    const me = async (t: string) => (await api.withToken(t).get("/api/v1/auth/me")).body;
    expect(await me(token)).toMatchObject({
      email: acct.email,
      mfa_enabled: false,
      recovery_codes_remaining: 0,
      organization: { id: acct.orgId, plan: "professional" },
    });

    const secret = (await api.withToken(token).post("/api/v1/auth/mfa/setup")).body.secret as string;
    const enable = await api.withToken(token).post("/api/v1/auth/mfa/enable", { code: totpFor(secret, Date.now()) });
    expect(enable.status, JSON.stringify(enable.body)).toBe(200);
    const codes = enable.body.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    // After a reload the console asks /me: MFA is on.
    expect(await me(token)).toMatchObject({ mfa_enabled: true, recovery_codes_remaining: 10 });

    // A recovery code instead of the TOTP code, typed in capitals without dashes; once only.
    const typed = codes[0]!.toUpperCase().replaceAll("-", "");
    const signedIn = await api.token(acct.email, PASSWORD, typed);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect((await api.token(acct.email, PASSWORD, codes[0]!)).body).toMatchObject({ error_code: "INVALID_MFA_CODE" });
    const t2 = signedIn.body.access_token as string;
    expect(await me(t2)).toMatchObject({ mfa_enabled: true, recovery_codes_remaining: 9 });

    // New codes (proven by a recovery code): the old ones stop working.
    const fresh = await api.withToken(t2).post("/api/v1/auth/mfa/recovery-codes", { code: codes[1] });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body).toMatchObject({ recovery_codes: expect.any(Array), recovery_codes_remaining: 10 });
    expect((await api.token(acct.email, PASSWORD, codes[2]!)).status).toBe(401);
    const wrong = await api.withToken(t2).post("/api/v1/auth/mfa/recovery-codes", { code: "aaaa-bbbb-cccc-dddd" });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ error_code: "VALIDATION_ERROR", field: "code" });

    // Lost the authenticator: a recovery code turns MFA off, and the codes go with it.
    const off = await api.withToken(t2).post("/api/v1/auth/mfa/disable", { code: fresh.body.recovery_codes[0] });
    expect(off.body).toEqual({ mfa_enabled: false });
    expect(await me(t2)).toMatchObject({ mfa_enabled: false, recovery_codes_remaining: 0 });
    expect((await api.token(acct.email, PASSWORD)).status).toBe(200);
  });
});

describe("validation errors", () => {
  it("answer every field error at once, in plain words, the first also as detail and field", async () => {
    const token = await login(makeAccount("professional"));
    const res = await api.withToken(token).post("/api/v1/auth/api-keys", { name: "", permissions: [], expires_at: "tomorrow", role: "admin" });
    expect(res.status).toBe(422);
    expect(res.body.error_code).toBe("VALIDATION_ERROR");
    const fields = (res.body.errors as { field: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual(["expires_at", "name", "permissions", "role"]);
    expect(res.body).toMatchObject({ field: res.body.errors[0].field, detail: res.body.errors[0].detail });
    const byField = Object.fromEntries((res.body.errors as { field: string; detail: string }[]).map((e) => [e.field, e.detail]));
    expect(byField).toEqual({
      role: "Remove role: it is not a field of this request.",
      name: "Name must not be empty.",
      permissions: "Permissions must list at least 1 item.",
      expires_at: "Expires at must be a date and time, such as 2026-11-27T09:30:00Z.",
    });
  });
});

describe("API keys", () => {
  it("are refused on the Startup plan with 403 PLAN_UPGRADE_REQUIRED", async () => {
    const token = await login(makeAccount("startup"));
    const res = await api.withToken(token).post("/api/v1/auth/api-keys", { name: "ci", permissions: ["read:scans"] });
    expect(res.status).toBe(403);
    expect(res.body.error_code).toBe("PLAN_UPGRADE_REQUIRED");
  });

  it("are shown once, listed without their value, enforce permissions, and stop at revocation or expiry", async () => {
    const acct = makeAccount("professional");
    const token = await login(acct);
    const created = await api.withToken(token).post("/api/v1/auth/api-keys", { name: "ci reader", permissions: ["read:scans"] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(String), name: "ci reader", permissions: ["read:scans"], key: expect.any(String), revoked: false });
    const key = created.body.key as string;

    const list = await api.withToken(token).get("/api/v1/auth/api-keys");
    expect(list.body.total).toBe(1);
    expect(JSON.stringify(list.body)).not.toContain(key);
    const stored = JSON.stringify(await authDb.db.collection("api_keys").find({}).toArray());
    expect(stored).not.toContain(key);

    const byKey = api.withApiKey(key);
    // Key management and sessions need a bearer token.
    expect((await byKey.get("/api/v1/auth/api-keys")).status).toBe(403);
    // Unknown body fields are refused (no mass assignment).
    const extra = await api.withToken(token).post("/api/v1/auth/api-keys", { name: "x", permissions: ["read:scans"], org_id: "org_other" });
    expect(extra.status).toBe(422);
    expect(extra.body.field).toBe("org_id");
    const badPerm = await api.withToken(token).post("/api/v1/auth/api-keys", { name: "x", permissions: ["admin:all"] });
    expect(badPerm.status).toBe(422);

    const revoke = await api.withToken(token).delete(`/api/v1/auth/api-keys/${created.body.id}`);
    expect(revoke.status).toBe(200);
    expect(revoke.body.revoked).toBe(true);
    expect((await statusWithin(() => byKey.get("/openapi.json"), 401)).status).toBe(401);

    const past = await api.withToken(token).post("/api/v1/auth/api-keys", { name: "old", permissions: ["read:scans"], expires_at: "2020-01-01T00:00:00Z" });
    expect(past.status).toBe(422);
    expect(past.body.field).toBe("expires_at");

    const other = await login(makeAccount("professional"));
    const foreign = await api.withToken(other).delete(`/api/v1/auth/api-keys/${created.body.id}`);
    expect(foreign.status).toBe(404);
  });
});

describe("rate limits and API description", () => {
  it("carry X-RateLimit headers, and /openapi.json, /docs and /redoc need authentication", async () => {
    const token = await login(makeAccount("startup"));
    const res = await api.withToken(token).get("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBe("100");
    expect(Number(res.headers.get("x-ratelimit-remaining"))).toBeLessThan(100);
    expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
    expect(res.body.openapi).toBe("3.1.0");
    for (const p of [
      "/api/v1/auth/token",
      "/api/v1/auth/refresh",
      "/api/v1/auth/sessions",
      "/api/v1/auth/logout-all",
      "/api/v1/scans",
      "/api/v1/scans/{scan_id}",
      "/api/v1/scans/quota",
      "/api/v1/scans/schedules",
      "/api/health",
    ]) {
      expect(Object.keys(res.body.paths), p).toContain(p);
    }
    for (const p of ["/openapi.json", "/docs", "/redoc"]) expect((await api.get(p)).status, p).toBe(401);
    expect((await api.withToken(token).get("/redoc")).status).toBe(200);
    const docs = await api.withToken(token).get("/docs");
    expect([200, 302]).toContain(docs.status);
  });

  it("answers 429 RATE_LIMIT_EXCEEDED with Retry-After past the hourly limit", async () => {
    const acct = makeAccount("startup");
    const token = await login(acct);
    const results = await Promise.all(Array.from({ length: 110 }, () => api.withToken(token).get("/api/v1/auth/sessions")));
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(100);
    expect(limited).toHaveLength(10);
    expect(limited[0]!.body.error_code).toBe("RATE_LIMIT_EXCEEDED");
    expect(Number(limited[0]!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited[0]!.headers.get("x-ratelimit-remaining")).toBe("0");
  });
});
