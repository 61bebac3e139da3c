// Pure session logic, unit-tested without a browser (web/src/api/session.test.ts).

/** What the token endpoint answers. */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
}

export interface StoredToken {
  token: string;
  /** Epoch ms at which the server stops accepting the token. */
  expiresAt: number;
}

/** Refresh this long before expiry, so a slow network or a sleeping tab still beats the deadline. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** Never refresh more often than this, even for a short-lived token. */
export const MIN_REFRESH_DELAY_MS = 5_000;

export function storedTokenOf(res: TokenResponse, now: number): StoredToken {
  return { token: res.access_token, expiresAt: now + res.expires_in * 1000 };
}

/**
 * How long to wait before refreshing: five minutes before expiry, or at four fifths of the
 * lifetime when the token lives less than 25 minutes; immediately (after the floor) when late.
 */
export function refreshDelayMs(t: StoredToken, now: number, lifetimeMs = t.expiresAt - now): number {
  const margin = Math.min(REFRESH_MARGIN_MS, lifetimeMs / 5);
  return Math.max(MIN_REFRESH_DELAY_MS, t.expiresAt - margin - now);
}

export function isExpired(t: StoredToken, now: number): boolean {
  return t.expiresAt <= now;
}

/** Why the console signed the user out, from the error code of the 401 that ended the session. */
export function signOutReason(errorCode: string | undefined): string {
  if (errorCode === "TOKEN_EXPIRED") return "You were signed out because your session expired.";
  return "You were signed out because your session was revoked.";
}

/** Who the token says is signed in: its `email` and `org` claims (read for display only; the server checks the signature). */
export interface Identity {
  email: string;
  orgId: string;
}

/** The identity in an access token's payload, or null when it cannot be read. */
export function identityOf(token: string): Identity | null {
  try {
    const part = token.split(".")[1] ?? "";
    const json = atob(
      part
        .replace(/-/g, "+")
        .replace(/_/g, "/")
        .padEnd(Math.ceil(part.length / 4) * 4, "="),
    );
    const claims = JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)))) as { email?: unknown; org?: unknown };
    return typeof claims.email === "string" && typeof claims.org === "string" ? { email: claims.email, orgId: claims.org } : null;
  } catch {
    return null;
  }
}
