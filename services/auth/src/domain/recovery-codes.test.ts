import { describe, expect, it } from "vitest";
import { client, testAuth } from "../testing.js";
import { canonicalRecoveryCode, mfaProofOf, newRecoveryCodes, RECOVERY_CODE_COUNT, recoveryCodeHash } from "./recovery-codes.js";
import { totpCode } from "./totp.js";

async function withMfa() {
  const a = testAuth();
  const { org, user, password } = await a.orgWithUser("professional", "rc@example.com");
  const { secret } = await a.mfa.setup(org.id, user.id);
  const { recoveryCodes } = await a.mfa.enable(org.id, user.id, totpCode(secret, a.now()));
  a.advance(30_000);
  const signIn = (mfaCode: string) => a.login.issueToken({ username: "rc@example.com", password, mfaCode, client });
  return { a, org, user, secret, recoveryCodes, signIn };
}

describe("recovery codes", () => {
  it("are 10 distinct codes of 80 random bits, typed in any case, with or without dashes", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    const c = codes[0]!;
    expect(canonicalRecoveryCode(c.toUpperCase().replaceAll("-", " "))).toBe(c.replaceAll("-", ""));
    expect(mfaProofOf(` ${c.toUpperCase()} `)).toEqual({ kind: "recovery", hash: recoveryCodeHash(c.replaceAll("-", "")) });
    expect(mfaProofOf("123 456")).toEqual({ kind: "totp", code: "123456" });
    expect(mfaProofOf("12345")).toEqual({ kind: "invalid" });
  });

  it("are made when MFA is turned on, stored only as hashes", async () => {
    const { a, user, recoveryCodes } = await withMfa();
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    const stored = a.repos.users.rows.get(user.id)!.mfa.recoveryCodes!;
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    for (const c of recoveryCodes) expect(stored.join()).not.toContain(c.replaceAll("-", ""));
  });

  it("sign in instead of a TOTP code, each once", async () => {
    const { a, user, recoveryCodes, signIn } = await withMfa();
    await expect(signIn(recoveryCodes[0]!)).resolves.toMatchObject({ accessToken: expect.any(String) });
    await expect(signIn(recoveryCodes[0]!)).rejects.toMatchObject({ errorCode: "INVALID_MFA_CODE" });
    await expect(signIn("aaaa-bbbb-cccc-dddd")).rejects.toMatchObject({ errorCode: "INVALID_MFA_CODE" });
    expect(a.repos.users.rows.get(user.id)!.mfa.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT - 1);
  });

  it("are replaced on request after a TOTP or recovery code; the old ones stop working", async () => {
    const { a, org, user, secret, recoveryCodes, signIn } = await withMfa();
    const fresh = await a.mfa.regenerateRecoveryCodes(org.id, user.id, totpCode(secret, a.now()));
    expect(fresh).toHaveLength(RECOVERY_CODE_COUNT);
    await expect(signIn(recoveryCodes[1]!)).rejects.toMatchObject({ errorCode: "INVALID_MFA_CODE" });
    const again = await a.mfa.regenerateRecoveryCodes(org.id, user.id, fresh[0]!);
    await expect(a.mfa.regenerateRecoveryCodes(org.id, user.id, fresh[1]!)).rejects.toMatchObject({ errorCode: "VALIDATION_ERROR", field: "code" });
    await expect(signIn(again[0]!)).resolves.toMatchObject({ accessToken: expect.any(String) });
    // The TOTP step used above cannot be replayed.
    await expect(a.mfa.regenerateRecoveryCodes(org.id, user.id, totpCode(secret, a.now()))).rejects.toMatchObject({ field: "code" });
  });

  it("turn MFA off for someone who lost the authenticator, and are deleted with it", async () => {
    const { a, org, user, recoveryCodes } = await withMfa();
    await expect(a.mfa.disable(org.id, user.id, recoveryCodes[2]!, client)).resolves.toBe(false);
    expect(a.repos.users.rows.get(user.id)!.mfa).toMatchObject({ enabled: false });
    expect(a.repos.users.rows.get(user.id)!.mfa.recoveryCodes ?? []).toEqual([]);
    await expect(a.mfa.regenerateRecoveryCodes(org.id, user.id, recoveryCodes[3]!)).rejects.toMatchObject({ errorCode: "INVALID_STATE" });
  });

  it("the account shows MFA on and the codes left, scoped to the organization", async () => {
    const { a, org, user, recoveryCodes, signIn } = await withMfa();
    await signIn(recoveryCodes[4]!);
    const me = await a.directory.account(org.id, user.id);
    expect(me.user.mfa.enabled).toBe(true);
    expect(me.user.mfa.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT - 1);
    expect(me.organization.organization.id).toBe(org.id);
    const other = await a.orgWithUser("startup");
    await expect(a.directory.account(other.org.id, user.id)).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
  });
});
