import { Secret, TOTP } from "otpauth";

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = "vulnscan";

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, label = ""): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

export function otpauthUri(secret: string, email: string): string {
  return totp(secret, email).toString();
}

/**
 * The time step a code belongs to, or null when it is not valid now. One step either side
 * is accepted for clock drift; the caller refuses a step at or before the last one used,
 * which makes every code single-use.
 */
export function totpStep(secret: string, code: string, now: Date): number | null {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const timestamp = now.getTime();
  const delta = totp(secret).validate({ token, timestamp, window: 1 });
  if (delta === null) return null;
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp }) + delta;
}

/** The current code (tests and tools). */
export function totpCode(secret: string, at: Date): string {
  return totp(secret).generate({ timestamp: at.getTime() });
}
