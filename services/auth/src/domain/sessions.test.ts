import { describe, expect, it } from "vitest";
import { client, testAuth } from "../testing.js";

describe("sessions", () => {
  async function twoLogins() {
    const a = testAuth();
    const { org, user, password } = await a.orgWithUser();
    const t1 = await a.login.issueToken({ username: user.email, password, mfaCode: "", client });
    a.advance(1000);
    const t2 = await a.login.issueToken({ username: user.email, password, mfaCode: "", client: { ip: "198.51.100.1", userAgent: "curl" } });
    return { a, org, user, t1, t2 };
  }

  it("lists the user's active sessions newest first, flagging the current one", async () => {
    const { a, org, user, t1, t2 } = await twoLogins();
    const list = await a.sessions.list(org.id, user.id, t1.sessionId);
    expect(list.map((s) => [s.id, s.current, s.ip])).toEqual([
      [t2.sessionId, false, "198.51.100.1"],
      [t1.sessionId, true, client.ip],
    ]);
  });

  it("revokes one session of the user; another user's or organization's session is NOT_FOUND and untouched", async () => {
    const { a, org, user, t1, t2 } = await twoLogins();
    const { org: org2, user: user2, password } = await a.orgWithUser();
    const foreign = await a.login.issueToken({ username: user2.email, password, mfaCode: "", client });

    await expect(a.sessions.revoke(org.id, user.id, foreign.sessionId)).rejects.toMatchObject({ kind: "not_found", errorCode: "NOT_FOUND" });
    await expect(a.sessions.revoke(org2.id, user.id, t1.sessionId)).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
    await expect(a.sessions.revoke(org.id, user.id, "session_nope")).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
    expect((await a.sessions.check(org2.id, foreign.sessionId)).active).toBe(true);

    await expect(a.sessions.revoke(org.id, user.id, t1.sessionId)).resolves.toBe(t1.sessionId);
    await expect(a.sessions.revoke(org.id, user.id, t1.sessionId)).resolves.toBe(t1.sessionId); // a retry succeeds
    expect((await a.sessions.check(org.id, t1.sessionId)).active).toBe(false);
    expect((await a.sessions.list(org.id, user.id, "")).map((s) => s.id)).toEqual([t2.sessionId]);
  });

  it("revokes all of the user's sessions and counts them", async () => {
    const { a, org, user, t1, t2 } = await twoLogins();
    expect(await a.sessions.revokeAll(org.id, user.id)).toBe(2);
    expect(await a.sessions.revokeAll(org.id, user.id)).toBe(0);
    for (const t of [t1, t2]) expect((await a.sessions.check(org.id, t.sessionId)).active).toBe(false);
  });

  it("checks: same organization, not revoked, not expired; last_used_at written at most once a minute", async () => {
    const { a, org, user, t1 } = await twoLogins();
    const created = a.repos.sessions.rows.get(t1.sessionId)!.lastUsedAt.getTime();
    expect(await a.sessions.check(org.id, t1.sessionId)).toMatchObject({ active: true, userId: user.id });
    expect(await a.sessions.check("org_other", t1.sessionId)).toEqual({ active: false, userId: "" });
    a.advance(30_000);
    await a.sessions.check(org.id, t1.sessionId);
    expect(a.repos.sessions.rows.get(t1.sessionId)!.lastUsedAt.getTime()).toBe(created);
    a.advance(31_000);
    await a.sessions.check(org.id, t1.sessionId);
    expect(a.repos.sessions.rows.get(t1.sessionId)!.lastUsedAt.getTime()).toBe(a.now().getTime());
    a.advance(7 * 24 * 3600 * 1000);
    expect((await a.sessions.check(org.id, t1.sessionId)).active).toBe(false);
  });
});
