import { createHash, randomInt } from "node:crypto";

/*
 * MFA recovery codes: made when MFA is turned on (and on request), shown once, kept only as
 * SHA-256 hashes, each good for one sign-in (or one MFA change) instead of a TOTP code. A code
 * is 16 characters of lowercase base32, 80 random bits: far beyond guessing, and beyond an
 * offline search of a leaked hash, so a plain hash (no slow KDF) is enough — the API-key rule.
 */

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const LENGTH = 16;

/** `xxxx-xxxx-xxxx-xxxx`. */
export function newRecoveryCode(): string {
  let s = "";
  for (let i = 0; i < LENGTH; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s.match(/.{4}/g)!.join("-");
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
}

/** A code as typed (any case, dashes or spaces) in its one canonical form; null when it cannot be a recovery code. */
export function canonicalRecoveryCode(code: string): string | null {
  const s = code.toLowerCase().replace(/[\s-]/g, "");
  return s.length === LENGTH && [...s].every((c) => ALPHABET.includes(c)) ? s : null;
}

export function recoveryCodeHash(canonical: string): string {
  return createHash("sha256").update(`vulnscan-recovery:${canonical}`).digest("hex");
}

/** What a typed MFA code is: a 6-digit TOTP code, a recovery code (its hash), or neither. */
export type MfaProof = { kind: "totp"; code: string } | { kind: "recovery"; hash: string } | { kind: "invalid" };

export function mfaProofOf(code: string): MfaProof {
  // Authenticator apps show "123 456": spaces are not part of the code.
  const digits = code.replace(/\s+/g, "");
  if (/^\d{6}$/.test(digits)) return { kind: "totp", code: digits };
  const canonical = canonicalRecoveryCode(code);
  return canonical ? { kind: "recovery", hash: recoveryCodeHash(canonical) } : { kind: "invalid" };
}
