import { Code } from "@connectrpc/connect";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { toJsonString } from "@bufbuild/protobuf";
import { ListApiKeysResponseSchema, PlanTier } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { totpCode, TOTP_PERIOD_SECONDS } from "../src/domain/totp.js";
import { Collections } from "../src/storage/collections.js";
import { closeDatabases, database, failure, freshStep, PASSWORD, startAuth, type AuthClient, type AuthUnderTest } from "./harness.js";

let auth: AuthUnderTest;
let rpc: AuthClient;

beforeAll(async () => {
  auth = await startAuth();
  rpc = auth.client;
});
afterAll(async () => {
  await auth?.stop();
  await database(auth.dbName)
    .dropDatabase()
    .catch(() => undefined);
  await closeDatabases();
});

const client = { ip: "203.0.113.9", userAgent: "auth-it/1.0" };

async function orgWithUser(tier = PlanTier.PROFESSIONAL) {
  const { organization } = await rpc.createOrganization({ name: unique("Org"), tier });
  const email = `${unique("user")}@example.com`;
  const { user } = await rpc.createUser({ orgId: organization!.id, email, password: PASSWORD });
  return { orgId: organization!.id, userId: user!.id, email };
}

async function login(email: string, mfaCode = "") {
  return rpc.issueToken({ username: email, password: PASSWORD, mfaCode, ...client });
}

describe("organizations, plans and users", () => {
  it("CreateOrganization / GetOrganization / GetPlan answer the plan facts", async () => {
    const { organization } = await rpc.createOrganization({ name: "  Acme Corp ", tier: PlanTier.STARTUP });
    expect(organization).toMatchObject({ name: "Acme Corp", plan: { tier: PlanTier.STARTUP, apiKeysEnabled: false, webhooksEnabled: false } });
    expect(organization!.id).toMatch(/^org_[0-9a-f]{28}$/);
    const got = await rpc.getOrganization({ orgId: organization!.id });
    expect(got.organization?.id).toBe(organization!.id);
    const { plan } = await rpc.getPlan({ orgId: organization!.id });
    expect(plan?.limits?.requestsPerHour).toMatchObject({ unlimited: false, max: 100 });
    expect(plan?.limits?.webhooks).toMatchObject({ unlimited: false, max: 0 });
    expect(plan?.limits?.minCidrPrefixLength).toBe(28);

    expect(await failure(rpc.getOrganization({ orgId: "org_missing" }))).toMatchObject({ code: Code.NotFound, errorCode: "NOT_FOUND" });
    expect(await failure(rpc.getPlan({ orgId: "" }))).toMatchObject({ code: Code.NotFound, errorCode: "NOT_FOUND" });
    expect(await failure(rpc.createOrganization({ name: "x", tier: PlanTier.UNSPECIFIED }))).toMatchObject({
      code: Code.InvalidArgument,
      errorCode: "VALIDATION_ERROR",
      field: "tier",
    });
    expect(await failure(rpc.createOrganization({ name: " ", tier: PlanTier.STARTUP }))).toMatchObject({ code: Code.InvalidArgument, field: "name" });
  });

  it("SetPlan moves an organization, with per-field custom limits", async () => {
    const { orgId } = await orgWithUser(PlanTier.STARTUP);
    const { organization } = await rpc.setPlan({
      orgId,
      tier: PlanTier.ENTERPRISE,
      customLimits: { requestsPerHour: { max: 20_000 }, concurrentScans: { max: 10 } },
    });
    const limits = organization!.plan!.limits!;
    expect(organization!.plan!.tier).toBe(PlanTier.ENTERPRISE);
    expect(limits.requestsPerHour).toMatchObject({ unlimited: false, max: 20_000 });
    expect(limits.concurrentScans).toMatchObject({ unlimited: false, max: 10 });
    expect(limits.scansPerMonth).toMatchObject({ unlimited: true });
    expect(limits.minCidrPrefixLength).toBe(20);
    expect((await rpc.getPlan({ orgId })).plan!.limits!.requestsPerHour!.max).toBe(20_000);

    expect(await failure(rpc.setPlan({ orgId: "org_nope", tier: PlanTier.STARTUP }))).toMatchObject({ code: Code.NotFound });
    expect(await failure(rpc.setPlan({ orgId, tier: PlanTier.UNSPECIFIED }))).toMatchObject({ code: Code.InvalidArgument, field: "tier" });
    expect(await failure(rpc.setPlan({ orgId, tier: PlanTier.ENTERPRISE, customLimits: { minCidrPrefixLength: 2 } }))).toMatchObject({
      code: Code.InvalidArgument,
      field: "custom_limits.min_cidr_prefix_length",
    });
  });

  it("ListOrganizations pages oldest first", async () => {
    const first = await rpc.listOrganizations({ pagination: { page: 1, perPage: 2 } });
    expect(first.organizations).toHaveLength(2);
    expect(first.pageInfo).toMatchObject({ page: 1, perPage: 2 });
    expect(first.pageInfo!.total).toBeGreaterThanOrEqual(2);
    const ids = first.organizations.map((o) => o.id);
    expect([...ids].sort()).toEqual(ids);
    const defaults = await rpc.listOrganizations({});
    expect(defaults.pageInfo).toMatchObject({ page: 1, perPage: 20 });
  });

  it("CreateUser validates, normalises and keeps emails unique across organizations", async () => {
    const { organization: o1 } = await rpc.createOrganization({ name: "One", tier: PlanTier.STARTUP });
    const { organization: o2 } = await rpc.createOrganization({ name: "Two", tier: PlanTier.STARTUP });
    const email = `${unique("Mixed")}@Example.COM`;
    const { user } = await rpc.createUser({ orgId: o1!.id, email: ` ${email} `, password: PASSWORD });
    expect(user).toMatchObject({ orgId: o1!.id, email: email.toLowerCase(), mfaEnabled: false });
    expect(user!.id).toMatch(/^user_/);
    expect(user!.lastLoginAt).toBeUndefined();
    expect(await failure(rpc.createUser({ orgId: o2!.id, email: email.toUpperCase(), password: PASSWORD }))).toMatchObject({
      code: Code.AlreadyExists,
      errorCode: "VALIDATION_ERROR",
      field: "email",
    });
    expect(await failure(rpc.createUser({ orgId: o1!.id, email: "not-an-email", password: PASSWORD }))).toMatchObject({
      code: Code.InvalidArgument,
      field: "email",
    });
    expect(await failure(rpc.createUser({ orgId: o1!.id, email: `${unique("s")}@example.com`, password: "short" }))).toMatchObject({
      code: Code.InvalidArgument,
      field: "password",
    });
    expect(await failure(rpc.createUser({ orgId: "org_missing", email: `${unique("s")}@example.com`, password: PASSWORD }))).toMatchObject({
      code: Code.NotFound,
    });
    const stored = await database(auth.dbName)
      .collection(Collections.users)
      .findOne({ _id: user!.id as never });
    expect(stored!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(JSON.stringify(stored)).not.toContain(PASSWORD);
  });
});

describe("tokens", () => {
  it("IssueToken signs an ES256 JWT that verifies with GetJwks, with the documented header and claims", async () => {
    const { orgId, userId, email } = await orgWithUser();
    const t = await login(email.toUpperCase());
    expect(t).toMatchObject({ tokenType: "bearer", expiresIn: 3600, userId, orgId });
    expect(t.sessionId).toMatch(/^session_/);

    const jwks = await rpc.getJwks({});
    expect(jwks).toMatchObject({ issuer: "vulnscan-auth", audience: "vulnscan-api" });
    expect(jwks.cacheSeconds).toBeGreaterThan(0);
    const header = decodeProtectedHeader(t.accessToken);
    expect(header).toEqual({ alg: "ES256", kid: expect.any(String), typ: "JWT" });
    const jwk = jwks.keys.find((k) => k.kid === header.kid)!;
    expect(jwk).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig", n: "", e: "" });
    const key = await importJWK({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, "ES256");
    const { payload } = await jwtVerify(t.accessToken, key, { issuer: jwks.issuer, audience: jwks.audience, algorithms: ["ES256"] });
    expect(payload).toMatchObject({ sub: userId, org: orgId, sid: t.sessionId, email });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(typeof payload.jti).toBe("string");
    expect(Object.keys(payload).sort()).toEqual(["aud", "email", "exp", "iat", "iss", "jti", "org", "sid", "sub"]);
  });

  it("IssueToken: wrong password and unknown email are the same INVALID_CREDENTIALS", async () => {
    const { email } = await orgWithUser();
    const wrong = await failure(rpc.issueToken({ username: email, password: "wrong password!!", ...client }));
    const unknown = await failure(rpc.issueToken({ username: `${unique("ghost")}@example.com`, password: PASSWORD, ...client }));
    for (const f of [wrong, unknown]) {
      expect(f).toEqual({ code: Code.Unauthenticated, codeName: "Unauthenticated", errorCode: "INVALID_CREDENTIALS", message: "Incorrect email or password" });
    }
  });

  it("IssueToken: 5 failures in the window, then TOO_MANY_ATTEMPTS even with the right password", async () => {
    const { email } = await orgWithUser();
    for (let i = 0; i < 5; i++) {
      expect(await failure(rpc.issueToken({ username: email, password: "wrong password!!", ...client }))).toMatchObject({ errorCode: "INVALID_CREDENTIALS" });
    }
    const throttled = await failure(login(email));
    expect(throttled).toMatchObject({ code: Code.ResourceExhausted, errorCode: "TOO_MANY_ATTEMPTS" });
    // The retry hint is the rest of the 15-minute window.
    expect(throttled.retryAfterSeconds).toBeGreaterThan(0);
    expect(throttled.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
  });

  it("IssueToken: 30 parallel guesses admit exactly 5 password checks", async () => {
    const { email } = await orgWithUser();
    // From a source of their own: 30 failures throttle the source too (20 per 5 minutes), which must not reach the other tests.
    const guesser = { ...client, ip: "198.51.100.30" };
    const results = await Promise.all(Array.from({ length: 30 }, () => failure(rpc.issueToken({ username: email, password: "wrong password!!", ...guesser }))));
    expect(results.filter((r) => r.errorCode === "INVALID_CREDENTIALS")).toHaveLength(5);
    expect(results.filter((r) => r.errorCode === "TOO_MANY_ATTEMPTS")).toHaveLength(25);
  });

  it("RefreshToken: same session, new token; expired → TOKEN_EXPIRED; other org, revoked or forged → INVALID_TOKEN", async () => {
    const { orgId, userId, email } = await orgWithUser();
    const t = await login(email);
    const r = await rpc.refreshToken({ orgId, accessToken: t.accessToken, ...client });
    expect(r).toMatchObject({ tokenType: "bearer", sessionId: t.sessionId, userId, orgId });
    expect(r.expiresIn).toBeGreaterThan(3590);
    expect(decodeJwt(r.accessToken).jti).not.toBe(decodeJwt(t.accessToken).jti);

    const invalid = { code: Code.Unauthenticated, errorCode: "INVALID_TOKEN", message: "Could not validate credentials" };
    const other = await orgWithUser();
    expect(await failure(rpc.refreshToken({ orgId: other.orgId, accessToken: t.accessToken }))).toMatchObject(invalid);
    expect(await failure(rpc.refreshToken({ orgId, accessToken: "garbage" }))).toMatchObject(invalid);
    expect(await failure(rpc.refreshToken({ orgId, accessToken: `${t.accessToken.slice(0, -3)}abc` }))).toMatchObject(invalid);

    // A token signed with the service's own key but already past its exp.
    const keyDoc = await database(auth.dbName).collection(Collections.signingKeys).find().sort({ generation: -1 }).limit(1).next();
    const priv = await importJWK(keyDoc!.private_jwk, "ES256");
    const past = Math.floor(Date.now() / 1000) - 7200;
    const expired = await new SignJWT({ org: orgId, sid: t.sessionId, email })
      .setProtectedHeader({ alg: "ES256", kid: keyDoc!._id as unknown as string, typ: "JWT" })
      .setIssuer("vulnscan-auth")
      .setAudience("vulnscan-api")
      .setSubject(userId)
      .setIssuedAt(past)
      .setExpirationTime(past + 3600)
      .setJti("x")
      .sign(priv);
    expect(await failure(rpc.refreshToken({ orgId, accessToken: expired }))).toMatchObject({
      code: Code.Unauthenticated,
      errorCode: "TOKEN_EXPIRED",
      message: "Token has expired",
    });

    await rpc.revokeSession({ orgId, userId, sessionId: t.sessionId });
    expect(await failure(rpc.refreshToken({ orgId, accessToken: r.accessToken }))).toMatchObject(invalid);
  });
});

describe("sessions", () => {
  it("List (newest first, current flagged), Check, Revoke one, Revoke all", async () => {
    const { orgId, userId, email } = await orgWithUser();
    const t1 = await login(email);
    const t2 = await rpc.issueToken({ username: email, password: PASSWORD, ip: "198.51.100.4", userAgent: "curl/8" });
    const { sessions } = await rpc.listSessions({ orgId, userId, currentSessionId: t1.sessionId });
    expect(sessions.map((s) => [s.id, s.current, s.ip, s.userAgent])).toEqual([
      [t2.sessionId, false, "198.51.100.4", "curl/8"],
      [t1.sessionId, true, client.ip, client.userAgent],
    ]);
    const s = sessions[1]!;
    expect(s.userId).toBe(userId);
    const lifetime = timestampDate(s.expiresAt!).getTime() - timestampDate(s.createdAt!).getTime();
    expect(lifetime).toBe(7 * 24 * 3600 * 1000);
    expect(s.lastUsedAt).toBeDefined();

    const check = await rpc.checkSession({ orgId, sessionId: t1.sessionId });
    expect(check).toMatchObject({ active: true, userId });
    expect(check.expiresAt).toBeDefined();

    expect(await rpc.revokeSession({ orgId, userId, sessionId: t1.sessionId })).toMatchObject({ sessionId: t1.sessionId });
    expect((await rpc.checkSession({ orgId, sessionId: t1.sessionId })).active).toBe(false);
    expect((await rpc.listSessions({ orgId, userId })).sessions.map((x) => x.id)).toEqual([t2.sessionId]);

    const t3 = await login(email);
    expect((await rpc.revokeAllSessions({ orgId, userId })).revokedCount).toBe(2);
    for (const t of [t2, t3]) expect((await rpc.checkSession({ orgId, sessionId: t.sessionId })).active).toBe(false);
    expect((await rpc.listSessions({ orgId, userId })).sessions).toEqual([]);
    expect((await rpc.checkSession({ orgId, sessionId: "session_unknown" })).active).toBe(false);
  });

  it("another organization's or user's session is NOT_FOUND and stays active", async () => {
    const a = await orgWithUser();
    const b = await orgWithUser();
    const sameOrgUser = await rpc.createUser({ orgId: a.orgId, email: `${unique("colleague")}@example.com`, password: PASSWORD });
    const tb = await login(b.email);
    const ta = await login(a.email);

    expect(await failure(rpc.revokeSession({ orgId: a.orgId, userId: a.userId, sessionId: tb.sessionId }))).toMatchObject({
      code: Code.NotFound,
      errorCode: "NOT_FOUND",
    });
    expect(await failure(rpc.revokeSession({ orgId: a.orgId, userId: sameOrgUser.user!.id, sessionId: ta.sessionId }))).toMatchObject({
      code: Code.NotFound,
    });
    expect((await rpc.checkSession({ orgId: a.orgId, sessionId: tb.sessionId })).active).toBe(false); // wrong org: not active for it
    expect((await rpc.checkSession({ orgId: b.orgId, sessionId: tb.sessionId })).active).toBe(true);
    expect((await rpc.checkSession({ orgId: a.orgId, sessionId: ta.sessionId })).active).toBe(true);
    expect((await rpc.listSessions({ orgId: a.orgId, userId: b.userId })).sessions).toEqual([]);
    expect((await rpc.revokeAllSessions({ orgId: a.orgId, userId: b.userId })).revokedCount).toBe(0);
    expect((await rpc.checkSession({ orgId: b.orgId, sessionId: tb.sessionId })).active).toBe(true);
  });
});

describe("MFA", () => {
  it("setup → enable → login needs a code (no replay) → disable", async () => {
    const { orgId, userId, email } = await orgWithUser();
    await freshStep();
    const { secret, otpauthUri } = await rpc.setupMfa({ orgId, userId });
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/vulnscan:/);
    expect(otpauthUri).toContain(encodeURIComponent(email));
    const t0 = Date.now();
    const code = (offsetSteps: number) => totpCode(secret, new Date(t0 + offsetSteps * TOTP_PERIOD_SECONDS * 1000));

    expect(await failure(rpc.enableMfa({ orgId, userId, code: code(5) }))).toMatchObject({
      code: Code.InvalidArgument,
      errorCode: "VALIDATION_ERROR",
      field: "code",
    });
    expect(await rpc.enableMfa({ orgId, userId, code: code(-1) })).toMatchObject({ mfaEnabled: true });
    expect(await failure(rpc.setupMfa({ orgId, userId }))).toMatchObject({ code: Code.FailedPrecondition, errorCode: "INVALID_STATE" });

    expect(await failure(login(email))).toMatchObject({ code: Code.Unauthenticated, errorCode: "MFA_REQUIRED", message: "MFA code required" });
    expect(await failure(login(email, code(5)))).toMatchObject({ code: Code.Unauthenticated, errorCode: "INVALID_MFA_CODE" });
    expect(await failure(login(email, code(-1)))).toMatchObject({ errorCode: "INVALID_MFA_CODE" }); // used to enable
    await expect(login(email, code(0))).resolves.toMatchObject({ userId });
    expect(await failure(login(email, code(0)))).toMatchObject({ errorCode: "INVALID_MFA_CODE" }); // replay
    // The failure count was reset by the success, so these were not throttled.

    expect(await failure(rpc.disableMfa({ orgId, userId, code: code(0), ...client }))).toMatchObject({ code: Code.InvalidArgument, field: "code" });
    expect(await rpc.disableMfa({ orgId, userId, code: code(1), ...client })).toMatchObject({ mfaEnabled: false });
    expect(await failure(rpc.disableMfa({ orgId, userId, code: code(1), ...client }))).toMatchObject({
      code: Code.FailedPrecondition,
      errorCode: "INVALID_STATE",
    });
    await expect(login(email)).resolves.toMatchObject({ userId });
  });

  it("MFA of another organization's user is NOT_FOUND", async () => {
    const a = await orgWithUser();
    const b = await orgWithUser();
    expect(await failure(rpc.setupMfa({ orgId: a.orgId, userId: b.userId }))).toMatchObject({ code: Code.NotFound });
    expect(await failure(rpc.disableMfa({ orgId: a.orgId, userId: b.userId, code: "123456" }))).toMatchObject({ code: Code.NotFound });
  });
});

describe("API keys", () => {
  it("Startup cannot create keys: PERMISSION_DENIED / PLAN_UPGRADE_REQUIRED", async () => {
    const { orgId, userId } = await orgWithUser(PlanTier.STARTUP);
    expect(await failure(rpc.createApiKey({ orgId, userId, name: "ci", permissions: ["read:scans"] }))).toEqual({
      code: Code.PermissionDenied,
      codeName: "PermissionDenied",
      errorCode: "PLAN_UPGRADE_REQUIRED",
      message: "API keys require the Professional or Enterprise plan",
    });
  });

  it("create (value once, hash stored) → list (no value) → verify → revoke", async () => {
    const { orgId, userId } = await orgWithUser();
    const expiresAt = new Date(Date.now() + 30 * 24 * 3600 * 1000);
    const created = await rpc.createApiKey({ orgId, userId, name: "CI", permissions: ["write:scans", "read:scans"], expiresAt: timestampFromDate(expiresAt) });
    expect(created.key).toMatch(/^vsk_[A-Za-z0-9_-]{43}$/);
    expect(created.apiKey).toMatchObject({
      name: "CI",
      permissions: ["read:scans", "write:scans"],
      revoked: false,
      prefix: created.key.slice(0, 8),
      createdByUserId: userId,
    });
    expect(created.apiKey!.id).toMatch(/^apikey_/);
    expect(timestampDate(created.apiKey!.expiresAt!).getTime()).toBe(expiresAt.getTime());

    const doc = await database(auth.dbName)
      .collection(Collections.apiKeys)
      .findOne({ _id: created.apiKey!.id as never });
    expect(JSON.stringify(doc)).not.toContain(created.key);
    expect(doc!.key_hash).toMatch(/^[0-9a-f]{64}$/);

    const listed = await rpc.listApiKeys({ orgId });
    expect(listed.apiKeys.map((k) => k.id)).toEqual([created.apiKey!.id]);
    const wire = toJsonString(ListApiKeysResponseSchema, listed);
    expect(wire).not.toContain(created.key.slice(8));
    expect(wire).not.toContain(doc!.key_hash as string);

    const v = await rpc.verifyApiKey({ key: created.key });
    expect(v).toMatchObject({ orgId, apiKeyId: created.apiKey!.id, permissions: ["read:scans", "write:scans"], name: "CI" });
    expect((await rpc.listApiKeys({ orgId })).apiKeys[0]!.lastUsedAt).toBeDefined();

    const revoked = await rpc.revokeApiKey({ orgId, apiKeyId: created.apiKey!.id });
    expect(revoked.apiKey).toMatchObject({ id: created.apiKey!.id, revoked: true });
    expect(await failure(rpc.verifyApiKey({ key: created.key }))).toMatchObject({ code: Code.Unauthenticated, errorCode: "INVALID_TOKEN" });
    expect((await rpc.listApiKeys({ orgId })).apiKeys[0]!.revoked).toBe(true);
  });

  it("validation: name, permissions, expires_at", async () => {
    const { orgId, userId } = await orgWithUser(PlanTier.ENTERPRISE);
    const bad = (over: object) => failure(rpc.createApiKey({ orgId, userId, name: "k", permissions: ["read:grc"], ...over }));
    expect(await bad({ name: "" })).toMatchObject({ code: Code.InvalidArgument, errorCode: "VALIDATION_ERROR", field: "name" });
    expect(await bad({ name: "n".repeat(101) })).toMatchObject({ field: "name" });
    expect(await bad({ permissions: [] })).toMatchObject({ field: "permissions" });
    expect(await bad({ permissions: ["read:grc", "delete:everything"] })).toMatchObject({ field: "permissions" });
    expect(await bad({ expiresAt: timestampFromDate(new Date(Date.now() - 1000)) })).toMatchObject({ field: "expires_at" });
    expect(await bad({ expiresAt: timestampFromDate(new Date(Date.now() + 3 * 365 * 24 * 3600 * 1000)) })).toMatchObject({ field: "expires_at" });
    const ok = await rpc.createApiKey({ orgId, userId, name: "default expiry", permissions: ["read:grc"] });
    const days = (timestampDate(ok.apiKey!.expiresAt!).getTime() - Date.now()) / (24 * 3600 * 1000);
    expect(Math.round(days)).toBe(90);
  });

  it("another organization's key is NOT_FOUND and keeps working; a plan downgrade stops keys", async () => {
    const a = await orgWithUser();
    const b = await orgWithUser();
    const kb = await rpc.createApiKey({ orgId: b.orgId, userId: b.userId, name: "b", permissions: ["read:findings"] });
    expect(await failure(rpc.revokeApiKey({ orgId: a.orgId, apiKeyId: kb.apiKey!.id }))).toMatchObject({ code: Code.NotFound, errorCode: "NOT_FOUND" });
    expect((await rpc.listApiKeys({ orgId: a.orgId })).apiKeys).toEqual([]);
    await expect(rpc.verifyApiKey({ key: kb.key })).resolves.toMatchObject({ orgId: b.orgId });
    expect(await failure(rpc.createApiKey({ orgId: a.orgId, userId: b.userId, name: "x", permissions: ["read:scans"] }))).toMatchObject({
      code: Code.NotFound,
    });

    await rpc.setPlan({ orgId: b.orgId, tier: PlanTier.STARTUP });
    expect(await failure(rpc.verifyApiKey({ key: kb.key }))).toMatchObject({ code: Code.Unauthenticated, errorCode: "INVALID_TOKEN" });
    expect(await failure(rpc.verifyApiKey({ key: "vsk_unknown" }))).toMatchObject({ code: Code.Unauthenticated, errorCode: "INVALID_TOKEN" });
  });
});

describe("metrics", () => {
  it("counts logins by outcome on /metrics", async () => {
    const text = await (await fetch(`http://127.0.0.1:${auth.running.adminPort}/metrics`)).text();
    expect(text).toMatch(/auth_login_attempts_total\{[^}]*outcome="success"[^}]*\} [1-9]/);
    expect(text).toMatch(/auth_login_attempts_total\{[^}]*outcome="throttled"/);
    expect(text).toMatch(/auth_tokens_issued_total\{[^}]*kind="refresh"/);
    expect(text).toMatch(/auth_api_key_verifications_total\{[^}]*outcome="invalid"/);
  });
});
