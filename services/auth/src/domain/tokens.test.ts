import { decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { MemorySigningKeys } from "../testing/memory.js";
import { accessClaims, Keyring } from "./tokens.js";

const DAY = 24 * 3600 * 1000;
const expected = { issuer: "vulnscan-auth", audience: "vulnscan-api" };

function clock(start = new Date("2026-03-01T00:00:00Z")) {
  let t = start.getTime();
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

const claimsAt = (now: Date) =>
  accessClaims(
    { issuer: expected.issuer, audience: expected.audience, userId: "user_1", orgId: "org_1", sessionId: "session_1", email: "a@b.co" },
    now,
    new Date(now.getTime() + DAY),
  );

describe("access claims", () => {
  it("are iss, aud, sub, org, sid, email, iat, exp = iat + 3600 and a unique jti", () => {
    const now = new Date("2026-03-01T00:00:00.700Z");
    const c = claimsAt(now);
    expect(c).toMatchObject({ iss: "vulnscan-auth", aud: "vulnscan-api", sub: "user_1", org: "org_1", sid: "session_1", email: "a@b.co" });
    expect(c.iat).toBe(Math.floor(now.getTime() / 1000));
    expect(c.exp).toBe(c.iat + 3600);
    expect(c.jti).not.toBe(claimsAt(now).jti);
  });

  it("never run past the given end", () => {
    const now = new Date("2026-03-01T00:00:00Z");
    const c = accessClaims({ issuer: "i", audience: "a", userId: "u", orgId: "o", sessionId: "s", email: "" }, now, new Date(now.getTime() + 600_000));
    expect(c.exp - c.iat).toBe(600);
  });
});

describe("Keyring", () => {
  it("two replicas creating the first key at once end up with one key, and both sign with it", async () => {
    const repo = new MemorySigningKeys();
    const c = clock();
    const a = new Keyring(repo, { rotationMs: 30 * DAY, now: c.now });
    const b = new Keyring(repo, { rotationMs: 30 * DAY, now: c.now });
    const [ka, kb] = await Promise.all([a.ensureCurrent(), b.ensureCurrent()]);
    expect(repo.rows).toHaveLength(1);
    expect(ka.kid).toBe(kb.kid);
    const token = await b.sign(claimsAt(c.now()));
    expect(decodeProtectedHeader(token).kid).toBe(ka.kid);
    await expect(a.verify(token, expected)).resolves.toMatchObject({ sub: "user_1" });
  });

  it("rotates after the period; the retired key stays published until its tokens have expired", async () => {
    const repo = new MemorySigningKeys();
    const c = clock();
    const ring = new Keyring(repo, { rotationMs: DAY, now: c.now, cacheMs: 0 });
    const first = await ring.ensureCurrent();
    c.advance(DAY - 1000);
    const oldToken = await ring.sign(claimsAt(c.now())); // the first key's last token
    c.advance(1000);
    const newToken = await ring.sign(claimsAt(c.now())); // signing rotates when due
    const second = await repo.latest();
    expect(second!.generation).toBe(2);
    expect(decodeProtectedHeader(oldToken).kid).toBe(first.kid);
    expect(decodeProtectedHeader(newToken).kid).toBe(second!.kid);
    expect((await ring.published()).map((k) => k.kid)).toEqual([second!.kid, first.kid]);
    c.advance(3000 * 1000);
    await expect(ring.verify(oldToken, expected)).resolves.toMatchObject({ sub: "user_1" });
    c.advance(-3000 * 1000);
    c.advance(ring.retentionMs - 1);
    expect((await ring.published()).map((k) => k.kid)).toContain(first.kid);
    c.advance(2);
    expect((await ring.published()).map((k) => k.kid)).toEqual([second!.kid]);
    await ring.maintain();
    expect(repo.rows.map((k) => k.generation)).toEqual([2]);
  });

  it("refuses a token whose key is no longer published", async () => {
    const repo = new MemorySigningKeys();
    const c = clock();
    const ring = new Keyring(repo, { rotationMs: DAY, now: c.now, cacheMs: 0 });
    const token = await ring.sign(claimsAt(c.now()));
    await expect(ring.verify(token, expected)).resolves.toBeDefined();
    const other = new Keyring(new MemorySigningKeys(), { rotationMs: DAY, now: c.now });
    await expect(other.verify(token, expected)).rejects.toMatchObject({ errorCode: "INVALID_TOKEN" });
  });
});
