import { describe, expect, it } from "vitest";
import { identityOf, isExpired, MIN_REFRESH_DELAY_MS, refreshDelayMs, signOutReason, storedTokenOf } from "./session.js";

describe("token refresh timing", () => {
  const now = 1_700_000_000_000;
  it("refreshes a one-hour token five minutes before it expires", () => {
    const t = storedTokenOf({ access_token: "a", token_type: "bearer", expires_in: 3600 }, now);
    expect(t.expiresAt).toBe(now + 3_600_000);
    expect(refreshDelayMs(t, now)).toBe(55 * 60_000);
  });
  it("refreshes a short-lived token at four fifths of its lifetime", () => {
    const t = storedTokenOf({ access_token: "a", token_type: "bearer", expires_in: 600 }, now);
    expect(refreshDelayMs(t, now)).toBe(480_000);
  });
  it("refreshes a token restored late (tab asleep) right away, never in a tight loop", () => {
    const t = { token: "a", expiresAt: now + 60_000 };
    expect(refreshDelayMs(t, now, 3_600_000)).toBe(MIN_REFRESH_DELAY_MS);
    expect(isExpired(t, now)).toBe(false);
    expect(isExpired(t, now + 60_000)).toBe(true);
  });
  it("names why the session ended", () => {
    expect(signOutReason("INVALID_TOKEN")).toMatch(/session was revoked/);
    expect(signOutReason("TOKEN_EXPIRED")).toMatch(/expired/);
  });
});

describe("the signed-in identity", () => {
  const token = (claims: object) => `eyJhbGciOiJFUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.signature`;
  it("reads email and organization from the token's payload, non-ASCII included", () => {
    expect(identityOf(token({ sub: "user_1", org: "org_9", email: "zoë@example.test" }))).toEqual({ email: "zoë@example.test", orgId: "org_9" });
  });
  it("gives null for a token it cannot read", () => {
    expect(identityOf("not-a-jwt")).toBeNull();
    expect(identityOf(token({ sub: "user_1" }))).toBeNull();
  });
});
