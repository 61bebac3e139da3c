import { describe, expect, it } from "vitest";
import { client, testAuth } from "../testing.js";

const HOUR = 3600_000;

describe("what gateways must know (auth.* events and GetAuthState)", () => {
  it("a revoked session is announced with the instant its tokens end, and stays in the snapshot until then", async () => {
    const a = testAuth();
    const { org, user, password } = await a.orgWithUser();
    const t = await a.login.issueToken({ username: user.email, password, mfaCode: "", client });
    await a.sessions.revoke(org.id, user.id, t.sessionId);
    await a.sessions.revoke(org.id, user.id, t.sessionId); // idempotent: no second event
    const revoked = a.events.filter((e) => e.type === "auth.session_revoked");
    expect(revoked).toEqual([
      {
        type: "auth.session_revoked",
        orgId: org.id,
        userId: user.id,
        sessionId: t.sessionId,
        revokedAt: a.now(),
        tokensValidUntil: new Date(a.now().getTime() + HOUR + 5 * 60_000),
        reason: "revoked",
        occurredAt: a.now(),
      },
    ]);
    expect((await a.authState.read()).revokedSessions.map((s) => s.sessionId)).toEqual([t.sessionId]);
    a.advance(HOUR + 5 * 60_000 + 1);
    expect((await a.authState.read()).revokedSessions).toEqual([]);
  });

  it("logout-all revokes each session with an event of its own", async () => {
    const a = testAuth();
    const { org, user, password } = await a.orgWithUser();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await a.login.issueToken({ username: user.email, password, mfaCode: "", client })).sessionId);
    expect(await a.sessions.revokeAll(org.id, user.id)).toBe(3);
    const events = a.events.filter((e) => e.type === "auth.session_revoked");
    expect(events.map((e) => e.type === "auth.session_revoked" && [e.sessionId, e.reason]).sort()).toEqual(ids.map((id) => [id, "logout_all"]).sort());
  });

  it("a revoked API key is announced once with its expiry and listed until it expires", async () => {
    const a = testAuth();
    const { org, user } = await a.orgWithUser();
    const { apiKey } = await a.apiKeys.create({
      orgId: org.id,
      userId: user.id,
      name: "ci",
      permissions: ["read:scans"],
      expiresAt: new Date(a.now().getTime() + 2 * HOUR),
    });
    await a.apiKeys.revoke(org.id, apiKey.id);
    await a.apiKeys.revoke(org.id, apiKey.id);
    expect(a.events.filter((e) => e.type === "auth.api_key_revoked")).toEqual([
      { type: "auth.api_key_revoked", orgId: org.id, apiKeyId: apiKey.id, expiresAt: apiKey.expiresAt, occurredAt: a.now() },
    ]);
    expect((await a.authState.read()).revokedApiKeys).toEqual([{ apiKeyId: apiKey.id, orgId: org.id, expiresAt: apiKey.expiresAt }]);
    a.advance(2 * HOUR);
    expect((await a.authState.read()).revokedApiKeys).toEqual([]);
  });

  it("disabling a user refuses login, refresh and their keys, revokes every session, and is undone by enabling", async () => {
    const a = testAuth();
    const { org, user, password } = await a.orgWithUser();
    const t = await a.login.issueToken({ username: user.email, password, mfaCode: "", client });
    const { key } = await a.apiKeys.create({ orgId: org.id, userId: user.id, name: "ci", permissions: ["read:scans"] });

    expect(await a.accounts.setDisabled(org.id, user.id, true)).toEqual({ disabled: true, revokedSessions: 1 });
    expect(a.events.map((e) => e.type).filter((t) => t.startsWith("auth."))).toEqual(["auth.user_disabled", "auth.session_revoked"]);
    expect((await a.authState.read()).disabledUsers).toEqual([{ userId: user.id, orgId: org.id }]);
    await expect(a.login.issueToken({ username: user.email, password, mfaCode: "", client })).rejects.toMatchObject({ errorCode: "INVALID_CREDENTIALS" });
    await expect(a.login.refreshToken({ orgId: org.id, accessToken: t.accessToken, client })).rejects.toMatchObject({ errorCode: "INVALID_TOKEN" });
    await expect(a.apiKeys.verify(key)).rejects.toMatchObject({ errorCode: "INVALID_TOKEN" });
    // Idempotent: a second disable changes nothing and announces nothing new.
    expect(await a.accounts.setDisabled(org.id, user.id, true)).toEqual({ disabled: true, revokedSessions: 0 });
    expect(a.events.filter((e) => e.type === "auth.user_disabled")).toHaveLength(1);

    expect(await a.accounts.setDisabled(org.id, user.id, false)).toEqual({ disabled: false, revokedSessions: 0 });
    expect((await a.authState.read()).disabledUsers).toEqual([]);
    await expect(a.apiKeys.verify(key)).resolves.toMatchObject({ createdByUserId: user.id });
    await expect(a.login.issueToken({ username: user.email, password, mfaCode: "", client })).resolves.toMatchObject({ userId: user.id });

    const { org: other } = await a.orgWithUser();
    await expect(a.accounts.setDisabled(other.id, user.id, true)).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
  });

  it("plan changes carry the new effective plan; set-limits merges Enterprise overrides and refuses other tiers", async () => {
    const a = testAuth();
    const { org } = await a.orgWithUser("enterprise");
    await a.directory.setLimits(org.id, { requestsPerHour: { unlimited: false, max: 20_000 } });
    const v = await a.directory.setLimits(org.id, { scansPerMonth: { unlimited: false, max: 300 } });
    expect(v.plan.limits.requestsPerHour).toEqual({ unlimited: false, max: 20_000 });
    expect(v.plan.limits.scansPerMonth).toEqual({ unlimited: false, max: 300 });
    expect(v.plan.limits.requestsPerDay).toEqual({ unlimited: false, max: 100_000 });
    const changes = a.events.filter((e) => e.type === "auth.plan_changed");
    expect(changes).toHaveLength(2);
    expect(changes[1]).toMatchObject({
      orgId: org.id,
      plan: { tier: "enterprise", limits: { requestsPerHour: { max: 20_000 }, scansPerMonth: { max: 300 } } },
    });

    const { org: small } = await a.orgWithUser("professional");
    await expect(a.directory.setLimits(small.id, { requestsPerHour: { unlimited: false, max: 1 } })).rejects.toMatchObject({
      errorCode: "VALIDATION_ERROR",
      field: "plan",
    });
    await expect(a.directory.setLimits(org.id, {})).rejects.toMatchObject({ errorCode: "VALIDATION_ERROR" });
  });
});
