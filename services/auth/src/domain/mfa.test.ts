import { describe, expect, it } from "vitest";
import { client, testAuth } from "../testing.js";
import { otpauthUri, totpCode, totpStep } from "./totp.js";

describe("TOTP", () => {
  it("follows RFC 6238 (SHA-1, 6 digits, 30 s): the RFC's test vector", () => {
    // RFC 6238 appendix B, SHA-1 secret "12345678901234567890", T = 59 s → 94287082 (8 digits) → 287082.
    const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
    expect(totpCode(secret, new Date(59_000))).toBe("287082");
    expect(totpStep(secret, "287082", new Date(59_000))).toBe(1);
  });

  it("accepts one step of drift either side, nothing more, and only six digits", () => {
    const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
    const t = new Date(1_000_000 * 30_000 + 5000);
    const code = totpCode(secret, t);
    expect(totpStep(secret, code, t)).toBe(1_000_000);
    expect(totpStep(secret, code, new Date(t.getTime() + 30_000))).toBe(1_000_000);
    expect(totpStep(secret, code, new Date(t.getTime() + 60_000))).toBeNull();
    expect(totpStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, t)).toBe(1_000_000);
    expect(totpStep(secret, "12345", t)).toBeNull();
    expect(totpStep(secret, "abcdef", t)).toBeNull();
  });

  it("builds an otpauth URI with issuer vulnscan and the email as label", () => {
    const uri = otpauthUri("JBSWY3DPEHPK3PXP", "alice@example.com");
    expect(uri).toMatch(/^otpauth:\/\/totp\/vulnscan:alice%40example\.com\?/);
    const q = new URL(uri).searchParams;
    expect(Object.fromEntries(q)).toMatchObject({ issuer: "vulnscan", secret: "JBSWY3DPEHPK3PXP", algorithm: "SHA1", digits: "6", period: "30" });
  });
});

describe("MFA enrolment", () => {
  it("setup → enable with a current code → disable with a newer code, emitting user.mfa_disabled", async () => {
    const a = testAuth();
    const { org, user } = await a.orgWithUser("startup", "mfa@example.com");
    const { secret, otpauthUri: uri } = await a.mfa.setup(org.id, user.id);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toContain(`secret=${secret}`);
    expect(a.repos.users.rows.get(user.id)!.mfa).toMatchObject({ enabled: false, pendingSecret: secret });

    const code = totpCode(secret, a.now());
    await expect(a.mfa.enable(org.id, user.id, code)).resolves.toMatchObject({ recoveryCodes: expect.any(Array) });
    expect(a.repos.users.rows.get(user.id)!.mfa).toMatchObject({ enabled: true, secret });
    await expect(a.mfa.setup(org.id, user.id)).rejects.toMatchObject({ kind: "invalid_state", errorCode: "INVALID_STATE" });
    await expect(a.mfa.enable(org.id, user.id, code)).rejects.toMatchObject({ errorCode: "INVALID_STATE" });

    // The code that enabled MFA cannot be replayed to turn it off.
    await expect(a.mfa.disable(org.id, user.id, code, client)).rejects.toMatchObject({ errorCode: "VALIDATION_ERROR", field: "code" });
    a.advance(30_000);
    await expect(a.mfa.disable(org.id, user.id, totpCode(secret, a.now()), client)).resolves.toBe(false);
    expect(a.repos.users.rows.get(user.id)!.mfa.enabled).toBe(false);
    expect(a.repos.users.events).toEqual([
      {
        type: "user.mfa_disabled",
        orgId: org.id,
        userId: user.id,
        email: "mfa@example.com",
        ip: client.ip,
        userAgent: client.userAgent,
        occurredAt: a.now(),
      },
    ]);
    await expect(a.mfa.disable(org.id, user.id, "123456", client)).rejects.toMatchObject({ errorCode: "INVALID_STATE" });
  });

  it("refuses a wrong code with VALIDATION_ERROR on `code`, a missing setup with INVALID_STATE, and throttles guessing", async () => {
    const a = testAuth();
    const { org, user } = await a.orgWithUser();
    await expect(a.mfa.enable(org.id, user.id, "123456")).rejects.toMatchObject({ errorCode: "INVALID_STATE" });
    const { secret } = await a.mfa.setup(org.id, user.id);
    await expect(a.mfa.enable(org.id, user.id, "")).rejects.toMatchObject({ errorCode: "VALIDATION_ERROR", field: "code" });
    const right = totpCode(secret, a.now());
    const wrong = right === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      await expect(a.mfa.enable(org.id, user.id, wrong)).rejects.toMatchObject({ errorCode: "VALIDATION_ERROR", field: "code" });
    }
    await expect(a.mfa.enable(org.id, user.id, right)).rejects.toMatchObject({ kind: "quota", errorCode: "TOO_MANY_ATTEMPTS" });
    a.advance(15 * 60_000 + 1);
    await expect(a.mfa.enable(org.id, user.id, totpCode(secret, a.now()))).resolves.toMatchObject({ recoveryCodes: expect.any(Array) });
  });

  it("a second setup replaces the pending secret; codes of the old one no longer enable", async () => {
    const a = testAuth();
    const { org, user } = await a.orgWithUser();
    const first = await a.mfa.setup(org.id, user.id);
    const second = await a.mfa.setup(org.id, user.id);
    expect(second.secret).not.toBe(first.secret);
    const oldCode = totpCode(first.secret, a.now());
    if (oldCode !== totpCode(second.secret, a.now())) {
      await expect(a.mfa.enable(org.id, user.id, oldCode)).rejects.toMatchObject({ field: "code" });
    }
    await expect(a.mfa.enable(org.id, user.id, totpCode(second.secret, a.now()))).resolves.toMatchObject({ recoveryCodes: expect.any(Array) });
  });

  it("is scoped to the user's organization", async () => {
    const a = testAuth();
    const { user } = await a.orgWithUser();
    const { org: other } = await a.orgWithUser();
    await expect(a.mfa.setup(other.id, user.id)).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
  });
});
