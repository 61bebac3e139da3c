import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { client, testAuth } from "../testing.js";
import { Login, loginSource } from "./login.js";
import { plainHasher } from "../testing.js";
import { totpCode } from "./totp.js";

const HOUR = 3600 * 1000;

async function rejectionOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    return err as { kind: string; errorCode: string; message: string; field?: string };
  }
  throw new Error("expected a rejection");
}

describe("IssueToken", () => {
  it("signs an ES256 JWT with kid and the documented claims, and opens a session", async () => {
    const a = testAuth();
    const { org, user, password } = await a.orgWithUser("professional", "Alice@Example.com");
    const t = await a.login.issueToken({ username: "  ALICE@example.com ", password, mfaCode: "", client });
    expect(t).toMatchObject({ tokenType: "bearer", expiresIn: 3600, userId: user.id, orgId: org.id });
    expect(t.sessionId).toMatch(/^session_[0-9a-f]{28}$/);

    const header = decodeProtectedHeader(t.accessToken);
    const key = await a.repos.signingKeys.latest();
    expect(header).toEqual({ alg: "ES256", kid: key!.kid, typ: "JWT" });
    const claims = decodeJwt(t.accessToken);
    expect(Object.keys(claims).sort()).toEqual(["aud", "email", "exp", "iat", "iss", "jti", "org", "sid", "sub"]);
    expect(claims).toMatchObject({
      iss: "vulnscan-auth",
      aud: "vulnscan-api",
      sub: user.id,
      org: org.id,
      sid: t.sessionId,
      email: "alice@example.com",
      iat: a.now().getTime() / 1000,
      exp: a.now().getTime() / 1000 + 3600,
    });

    const session = a.repos.sessions.rows.get(t.sessionId)!;
    expect(session).toMatchObject({ orgId: org.id, userId: user.id, ip: client.ip, userAgent: client.userAgent });
    expect(session.expiresAt.getTime() - a.now().getTime()).toBe(7 * 24 * HOUR);
    expect(a.repos.users.rows.get(user.id)!.lastLoginAt).toEqual(a.now());
    expect(a.observed).toEqual(["login:success", "token:issue"]);
  });

  it("answers an unknown email and a wrong password identically; only the existing user gets an event", async () => {
    const a = testAuth();
    const { org, user } = await a.orgWithUser("startup", "bob@example.com");
    const wrong = await rejectionOf(a.login.issueToken({ username: "bob@example.com", password: "nope nope nope", mfaCode: "", client }));
    const unknown = await rejectionOf(a.login.issueToken({ username: "nobody@example.com", password: "x", mfaCode: "", client }));
    for (const e of [wrong, unknown]) {
      expect(e).toMatchObject({ kind: "unauthenticated", errorCode: "INVALID_CREDENTIALS", message: "Incorrect email or password" });
    }
    expect(a.repos.users.events).toEqual([
      {
        type: "user.login_failed",
        orgId: org.id,
        userId: user.id,
        email: "bob@example.com",
        ip: client.ip,
        userAgent: client.userAgent,
        reason: "invalid_credentials",
        occurredAt: a.now(),
      },
    ]);
  });

  it("throttles an account after 5 failures in 15 minutes, even with the right password, until the window passes", async () => {
    const a = testAuth();
    const { password } = await a.orgWithUser("startup", "carol@example.com");
    for (let i = 0; i < 5; i++) {
      expect(await rejectionOf(a.login.issueToken({ username: "carol@example.com", password: "wrong wrong wrong", mfaCode: "", client }))).toMatchObject({
        errorCode: "INVALID_CREDENTIALS",
      });
    }
    const throttled = await rejectionOf(a.login.issueToken({ username: "carol@example.com", password, mfaCode: "", client }));
    expect(throttled).toMatchObject({ kind: "quota", errorCode: "TOO_MANY_ATTEMPTS" });
    expect(a.repos.users.events).toHaveLength(5); // throttled attempts add no events
    a.advance(15 * 60 * 1000 + 1);
    await expect(a.login.issueToken({ username: "carol@example.com", password, mfaCode: "", client })).resolves.toBeDefined();
  });

  it("throttles unknown emails the same way, so throttling does not reveal accounts", async () => {
    const a = testAuth();
    for (let i = 0; i < 5; i++) await rejectionOf(a.login.issueToken({ username: "ghost@example.com", password: "x", mfaCode: "", client }));
    expect(await rejectionOf(a.login.issueToken({ username: "ghost@example.com", password: "x", mfaCode: "", client }))).toMatchObject({
      errorCode: "TOO_MANY_ATTEMPTS",
    });
  });

  it("a success resets the failure count", async () => {
    const a = testAuth();
    const { password } = await a.orgWithUser("startup", "dan@example.com");
    const bad = () => rejectionOf(a.login.issueToken({ username: "dan@example.com", password: "wrong wrong wrong", mfaCode: "", client }));
    for (let i = 0; i < 4; i++) await bad();
    await a.login.issueToken({ username: "dan@example.com", password, mfaCode: "", client });
    for (let i = 0; i < 5; i++) expect(await bad()).toMatchObject({ errorCode: "INVALID_CREDENTIALS" });
    expect(await bad()).toMatchObject({ errorCode: "TOO_MANY_ATTEMPTS" });
  });

  it("with MFA on: no code is MFA_REQUIRED, a wrong code INVALID_MFA_CODE, a used code cannot be replayed", async () => {
    const a = testAuth();
    const { org, user, password } = await a.orgWithUser("professional", "erin@example.com");
    const { secret } = await a.mfa.setup(org.id, user.id);
    await a.mfa.enable(org.id, user.id, totpCode(secret, a.now()));
    a.advance(30_000);

    const login = (mfaCode: string) => a.login.issueToken({ username: "erin@example.com", password, mfaCode, client });
    expect(await rejectionOf(login(""))).toMatchObject({ kind: "unauthenticated", errorCode: "MFA_REQUIRED", message: "MFA code required" });
    expect(await rejectionOf(login("000000"))).toMatchObject({ kind: "unauthenticated", errorCode: "INVALID_MFA_CODE" });
    const code = totpCode(secret, a.now());
    await expect(login(code)).resolves.toMatchObject({ userId: user.id });
    expect(await rejectionOf(login(code))).toMatchObject({ errorCode: "INVALID_MFA_CODE" }); // replay
    // A wrong password never reveals that MFA is on.
    expect(await rejectionOf(a.login.issueToken({ username: "erin@example.com", password: "wrong wrong wrong", mfaCode: "", client }))).toMatchObject({
      errorCode: "INVALID_CREDENTIALS",
    });
    expect(a.repos.users.events.map((e) => (e.type === "user.login_failed" ? e.reason : e.type))).toEqual([
      "mfa_required",
      "invalid_mfa_code",
      "invalid_mfa_code",
      "invalid_credentials",
    ]);
    // The code of the next time step works.
    a.advance(30_000);
    await expect(login(totpCode(secret, a.now()))).resolves.toBeDefined();
  });
});

describe("RefreshToken", () => {
  async function loggedIn(opts: Parameters<typeof testAuth>[0] = {}) {
    const a = testAuth(opts);
    const { org, user, password } = await a.orgWithUser();
    const t = await a.login.issueToken({ username: user.email, password, mfaCode: "", client });
    return { a, org, user, t };
  }

  it("signs a new token for the same session and slides the session's end", async () => {
    const { a, org, t } = await loggedIn();
    a.advance(HOUR / 2);
    const r = await a.login.refreshToken({ orgId: org.id, accessToken: t.accessToken, client });
    expect(r.sessionId).toBe(t.sessionId);
    expect(r.expiresIn).toBe(3600);
    const c = decodeJwt(r.accessToken);
    expect(c.sid).toBe(t.sessionId);
    expect(c.jti).not.toBe(decodeJwt(t.accessToken).jti);
    expect(a.repos.sessions.rows.get(t.sessionId)!.expiresAt.getTime()).toBe(a.now().getTime() + 7 * 24 * HOUR);
  });

  it("never signs past the session's maximum lifetime, and needs a token that is still valid", async () => {
    const { a, org, t } = await loggedIn({ settings: { sessionTtlMs: 2 * HOUR, sessionMaxLifetimeMs: 2 * HOUR } });
    const start = a.now().getTime() / 1000;
    a.advance(50 * 60 * 1000);
    const r1 = await a.login.refreshToken({ orgId: org.id, accessToken: t.accessToken, client });
    expect(decodeJwt(r1.accessToken).exp).toBe(start + 110 * 60); // a full hour: the session lasts longer
    a.advance(50 * 60 * 1000); // 100 min after login
    const r2 = await a.login.refreshToken({ orgId: org.id, accessToken: r1.accessToken, client });
    expect(decodeJwt(r2.accessToken).exp).toBe(start + 120 * 60); // capped at the session's end
    expect(r2.expiresIn).toBe(20 * 60);
    // The first token expired at 60 min.
    const expired = await a.login.refreshToken({ orgId: org.id, accessToken: t.accessToken, client }).catch((e) => e);
    expect(expired).toMatchObject({ kind: "unauthenticated", errorCode: "TOKEN_EXPIRED", message: "Token has expired" });
    a.advance(20 * 60 * 1000); // the session is over
    const over = await a.login.refreshToken({ orgId: org.id, accessToken: r2.accessToken, client }).catch((e) => e);
    expect(over).toMatchObject({ errorCode: "TOKEN_EXPIRED" });
  });

  it("refuses a revoked session, another organization, and anything that does not verify", async () => {
    const { a, org, user, t } = await loggedIn();
    const refresh = (accessToken: string, orgId = org.id) => a.login.refreshToken({ orgId, accessToken, client }).catch((e) => e);
    expect(await refresh(t.accessToken, "org_other")).toMatchObject({ errorCode: "INVALID_TOKEN", message: "Could not validate credentials" });
    const [h, p, s] = t.accessToken.split(".");
    expect(await refresh(`${h}.${p}.${s!.slice(0, -4)}AAAA`)).toMatchObject({ errorCode: "INVALID_TOKEN" });
    expect(await refresh("not.a.jwt")).toMatchObject({ errorCode: "INVALID_TOKEN" });
    const noneAlg = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${p}.`;
    expect(await refresh(noneAlg)).toMatchObject({ errorCode: "INVALID_TOKEN" });
    await a.sessions.revoke(org.id, user.id, t.sessionId);
    expect(await refresh(t.accessToken)).toMatchObject({ errorCode: "INVALID_TOKEN" });
  });

  it("refuses a token of another issuer or audience", async () => {
    const { a, org, t } = await loggedIn();
    const r = await a.keyring.verify(t.accessToken, { issuer: "vulnscan-auth", audience: "someone-else" }).catch((e) => e);
    expect(r).toMatchObject({ errorCode: "INVALID_TOKEN" });
    const r2 = await a.keyring.verify(t.accessToken, { issuer: "evil", audience: "vulnscan-api" }).catch((e) => e);
    expect(r2).toMatchObject({ errorCode: "INVALID_TOKEN" });
    await expect(a.login.refreshToken({ orgId: org.id, accessToken: t.accessToken, client })).resolves.toBeDefined();
  });
});

describe("login timing: known and unknown accounts cost the same (security probe, issue 30)", () => {
  const median = (xs: number[]) => {
    const s = [...xs].sort((x, y) => x - y);
    return s[Math.floor(s.length / 2)]!;
  };

  it("answers a wrong password without waiting for the failure record, which is still written", async () => {
    const a = testAuth({ settings: { maxFailedAttempts: 1000, sourceMaxFailedAttempts: 1000 } });
    const { user } = await a.orgWithUser("startup", "held@example.com");
    // The failure record's write hangs until released: the answer must not wait for it.
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const write = a.repos.users.recordEvent.bind(a.repos.users);
    a.repos.users.recordEvent = async (id, event) => {
      await held;
      return write(id, event);
    };
    const answer = await Promise.race([
      rejectionOf(a.login.issueToken({ username: "held@example.com", password: "wrong wrong wrong", mfaCode: "", client })),
      new Promise((r) => setTimeout(() => r("waited for the write"), 1000)),
    ]);
    expect(answer).toMatchObject({ errorCode: "INVALID_CREDENTIALS" });
    expect(a.repos.users.events).toEqual([]);
    release();
    await a.login.settled();
    expect(a.repos.users.events).toMatchObject([{ type: "user.login_failed", userId: user.id, reason: "invalid_credentials" }]);
  });

  it("reports a failure record that cannot be written, and still answers INVALID_CREDENTIALS", async () => {
    const reported: unknown[] = [];
    const a = testAuth();
    const login = new Login({
      ...a.repos,
      keyring: a.keyring,
      hasher: plainHasher,
      settings: a.settings,
      observer: { login: () => undefined, tokenIssued: () => undefined, apiKeyVerified: () => undefined },
      now: a.now,
      onBackgroundError: (err) => reported.push(err),
    });
    await a.orgWithUser("startup", "broken@example.com");
    a.repos.users.recordEvent = async () => {
      throw new Error("database down");
    };
    expect(await rejectionOf(login.issueToken({ username: "broken@example.com", password: "nope nope nope", mfaCode: "", client }))).toMatchObject({
      errorCode: "INVALID_CREDENTIALS",
    });
    await login.settled();
    expect(reported).toMatchObject([{ message: "database down" }]);
  });

  it("medians of wrong-password and unknown-email answers stay within 15 ms when the failure record costs 40 ms", async () => {
    // The record's write is made slow on purpose (40 ms, as a loaded database might be): if the
    // answer waited for it, known accounts would answer >= 40 ms slower. n = 15 each, interleaved.
    const a = testAuth({ settings: { maxFailedAttempts: 1000, sourceMaxFailedAttempts: 1000 } });
    await a.orgWithUser("startup", "known@example.com");
    const write = a.repos.users.recordEvent.bind(a.repos.users);
    a.repos.users.recordEvent = async (id, event) => {
      await new Promise((r) => setTimeout(r, 40));
      return write(id, event);
    };
    const time = async (username: string) => {
      const t0 = performance.now();
      await rejectionOf(a.login.issueToken({ username, password: "wrong wrong wrong", mfaCode: "", client }));
      return performance.now() - t0;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 15; i++) {
      known.push(await time("known@example.com"));
      unknown.push(await time(`nobody${i}@example.com`));
    }
    await a.login.settled();
    expect(a.repos.users.events).toHaveLength(15);
    console.log(`[login-timing unit] median wrong password ${median(known).toFixed(2)} ms, unknown email ${median(unknown).toFixed(2)} ms`);
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(15);
  });
});

describe("login throttling per source and per account (security probe, issue 30)", () => {
  const attempt = (a: ReturnType<typeof testAuth>, username: string, password: string, ip: string) =>
    a.login.issueToken({ username, password, mfaCode: "", client: { ip, userAgent: "vitest" } }).then(
      () => "ok",
      (e: { errorCode: string; retryAfterSeconds?: number }) => e,
    );

  it("throttles password spraying: the 21st failure from one source in 5 minutes is 429 with Retry-After, whatever the emails", async () => {
    const a = testAuth();
    const { password } = await a.orgWithUser("startup", "sprayed@example.com");
    for (let i = 0; i < 20; i++) {
      expect(await attempt(a, `victim${i}@example.com`, "Summer2026!", "198.51.100.9")).toMatchObject({ errorCode: "INVALID_CREDENTIALS" });
    }
    const throttled = await attempt(a, "victim20@example.com", "Summer2026!", "198.51.100.9");
    expect(throttled).toMatchObject({ errorCode: "TOO_MANY_ATTEMPTS", retryAfterSeconds: expect.any(Number) });
    expect((throttled as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    expect((throttled as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(300);
    // Even the right password waits, from that source; another source is not affected.
    expect(await attempt(a, "sprayed@example.com", password, "198.51.100.9")).toMatchObject({ errorCode: "TOO_MANY_ATTEMPTS" });
    expect(await attempt(a, "sprayed@example.com", password, "203.0.113.50")).toBe("ok");
    expect(a.observed.filter((o) => o === "login:throttled")).toHaveLength(2);
    a.advance(5 * 60_000);
    expect(await attempt(a, "sprayed@example.com", password, "198.51.100.9")).toBe("ok");
  });

  it("counts an IPv6 source by its /64, so rotating addresses inside it does not escape", async () => {
    expect(loginSource("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(loginSource("2001:DB8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(loginSource("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(loginSource("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(loginSource("192.0.2.1")).toBe("192.0.2.1");
    const a = testAuth();
    for (let i = 0; i < 20; i++) await attempt(a, `v${i}@example.com`, "x", `2001:db8:1:2::${(i + 1).toString(16)}`);
    expect(await attempt(a, "v@example.com", "x", "2001:db8:1:2:ffff::1")).toMatchObject({ errorCode: "TOO_MANY_ATTEMPTS" });
  });

  it("a guesser from another source cannot lock the user out: the user's own source still logs in", async () => {
    const a = testAuth();
    const { password } = await a.orgWithUser("startup", "alice@example.com");
    for (let i = 0; i < 5; i++) {
      expect(await attempt(a, "alice@example.com", "guess", "198.51.100.9")).toMatchObject({ errorCode: "INVALID_CREDENTIALS" });
    }
    expect(await attempt(a, "alice@example.com", "guess", "198.51.100.9")).toMatchObject({ errorCode: "TOO_MANY_ATTEMPTS" });
    expect(await attempt(a, "alice@example.com", password, client.ip)).toBe("ok");
  });

  it("one source adds at most 5 to the account's count; locking the account for everyone takes 50 failures from ten sources", async () => {
    const a = testAuth();
    const { password } = await a.orgWithUser("startup", "carol@example.com");
    // One source keeps trying: throttled after 5, and its throttled attempts do not count on.
    for (let i = 0; i < 30; i++) await attempt(a, "carol@example.com", "guess", "198.51.100.9");
    const accountCount = () => [...a.repos.attempts.rows].find(([k]) => k === "login:carol@example.com")?.[1].count;
    expect(accountCount()).toBe(5);
    expect(await attempt(a, "carol@example.com", password, client.ip)).toBe("ok");
    // Ten sources, five failures each: the account is then throttled for every source.
    for (let s = 1; s <= 10; s++) for (let i = 0; i < 5; i++) await attempt(a, "carol@example.com", "guess", `198.51.101.${s}`);
    expect(await attempt(a, "carol@example.com", password, client.ip)).toMatchObject({ errorCode: "TOO_MANY_ATTEMPTS" });
    a.advance(15 * 60_000);
    expect(await attempt(a, "carol@example.com", password, client.ip)).toBe("ok");
  });

  it("successes do not count against their source: a whole office behind one address logs in", async () => {
    const a = testAuth();
    const users = [];
    for (let i = 0; i < 30; i++) users.push(await a.orgWithUser("startup", `staff${i}@example.com`));
    for (const u of users) expect(await attempt(a, u.user.email, u.password, "192.0.2.80")).toBe("ok");
    for (let i = 0; i < 20; i++) await attempt(a, `typo${i}@example.com`, "x", "192.0.2.80");
    expect(await attempt(a, users[0]!.user.email, users[0]!.password, "192.0.2.80")).toMatchObject({ errorCode: "TOO_MANY_ATTEMPTS" });
  });
});

describe("refresh rotation with reuse detection (security probe, issue 30)", () => {
  async function loggedIn() {
    const a = testAuth();
    const { org, user, password } = await a.orgWithUser();
    const t = await a.login.issueToken({ username: user.email, password, mfaCode: "", client });
    const refresh = (accessToken: string) => a.login.refreshToken({ orgId: org.id, accessToken, client });
    return { a, org, user, t, refresh };
  }

  it("the replaced token keeps working for ordinary calls but cannot refresh; refreshing with it revokes the session", async () => {
    const { a, org, user, t, refresh } = await loggedIn();
    a.advance(60_000);
    const t2 = await refresh(t.accessToken);
    expect(t2.sessionId).toBe(t.sessionId);
    // Ordinary calls with the replaced token: the session is active (the gateway checks the session, the signature and exp).
    expect(await a.sessions.check(org.id, t.sessionId)).toMatchObject({ active: true });
    await expect(a.keyring.verify(t.accessToken, { issuer: "vulnscan-auth", audience: "vulnscan-api" })).resolves.toMatchObject({ sid: t.sessionId });
    // A second refresh with it, past the race grace: theft assumed, the session is revoked for both holders.
    a.advance(a.settings.refreshRaceGraceMs);
    expect(await rejectionOf(refresh(t.accessToken))).toMatchObject({ errorCode: "INVALID_TOKEN", message: "Could not validate credentials" });
    expect(await a.sessions.check(org.id, t.sessionId)).toMatchObject({ active: false });
    expect(await rejectionOf(refresh(t2.accessToken))).toMatchObject({ errorCode: "INVALID_TOKEN" });
    expect(a.events.filter((e) => e.type === "auth.session_revoked")).toMatchObject([
      { type: "auth.session_revoked", orgId: org.id, userId: user.id, sessionId: t.sessionId, reason: "refresh_reuse" },
    ]);
    expect(a.observed).toContain("token:refresh_reuse");
  });

  it("the newest token refreshes again and again, each one replacing the one before", async () => {
    const { a, org, t, refresh } = await loggedIn();
    let current = t;
    const seen = new Set([t.accessToken]);
    for (let i = 0; i < 4; i++) {
      a.advance(60_000);
      current = await refresh(current.accessToken);
      expect(seen.has(current.accessToken)).toBe(false);
      seen.add(current.accessToken);
    }
    expect(await a.sessions.check(org.id, t.sessionId)).toMatchObject({ active: true });
    expect(a.events.filter((e) => e.type === "auth.session_revoked")).toEqual([]);
  });

  it("two refreshes racing with the same newest token: one wins, the other is refused, nothing is revoked", async () => {
    const { a, org, t, refresh } = await loggedIn();
    const results = await Promise.allSettled([refresh(t.accessToken), refresh(t.accessToken)]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ errorCode: "INVALID_TOKEN" });
    expect(await a.sessions.check(org.id, t.sessionId)).toMatchObject({ active: true });
    // Still within the grace: refused again, not revoked; one millisecond past it, revoked.
    a.advance(a.settings.refreshRaceGraceMs - 1);
    expect(await rejectionOf(refresh(t.accessToken))).toMatchObject({ errorCode: "INVALID_TOKEN" });
    expect(await a.sessions.check(org.id, t.sessionId)).toMatchObject({ active: true });
    const winner = (results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<{ accessToken: string }>).value;
    const next = await refresh(winner.accessToken);
    // The grace covers only the token the last refresh replaced, not older ones.
    expect(await rejectionOf(refresh(t.accessToken))).toMatchObject({ errorCode: "INVALID_TOKEN" });
    expect(await a.sessions.check(org.id, t.sessionId)).toMatchObject({ active: false });
    expect(await rejectionOf(refresh(next.accessToken))).toMatchObject({ errorCode: "INVALID_TOKEN" });
  });

  it("a session from before rotation (no token id) refreshes once, and rotates from then on", async () => {
    const { a, t, refresh } = await loggedIn();
    delete a.repos.sessions.rows.get(t.sessionId)!.tokenId;
    const t2 = await refresh(t.accessToken);
    expect(a.repos.sessions.rows.get(t.sessionId)!.tokenId).toBeDefined();
    a.advance(a.settings.refreshRaceGraceMs);
    expect(await rejectionOf(refresh(t.accessToken))).toMatchObject({ errorCode: "INVALID_TOKEN" });
    expect(await rejectionOf(refresh(t2.accessToken))).toMatchObject({ errorCode: "INVALID_TOKEN" }); // revoked
  });
});

describe("failure records off the response path keep each user's order (issue 30)", () => {
  it("writes one user's failure records one at a time, in the order of the answers", async () => {
    const a = testAuth({ settings: { maxFailedAttempts: 1000, sourceMaxFailedAttempts: 1000 } });
    await a.orgWithUser("startup", "order@example.com");
    const write = a.repos.users.recordEvent.bind(a.repos.users);
    let inFlight = 0;
    let most = 0;
    const reasons: string[] = [];
    a.repos.users.recordEvent = async (id, event) => {
      most = Math.max(most, ++inFlight);
      // The first write is the slowest: without the chain, the later ones would overtake it.
      await new Promise((r) => setTimeout(r, reasons.length === 0 ? 30 : 1));
      reasons.push(event.type === "user.login_failed" ? event.email : "");
      inFlight--;
      return write(id, event);
    };
    for (let i = 0; i < 4; i++)
      await rejectionOf(a.login.issueToken({ username: `order@example.com${" ".repeat(i)}`, password: "wrong wrong wrong", mfaCode: "", client }));
    await a.login.settled();
    expect(most).toBe(1);
    expect(reasons).toEqual(["order@example.com", "order@example.com ", "order@example.com  ", "order@example.com   "]);
  });
});
