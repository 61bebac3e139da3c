import { TOKEN_TTL_SECONDS } from "./tokens.js";

/** Tunables of identity, parsed from the environment by config.ts. */
export interface AuthSettings {
  issuer: string;
  audience: string;
  tokenTtlSeconds: number;
  /** A session ends this long after its last token issue or refresh... */
  sessionTtlMs: number;
  /** ...but never later than this after the login. */
  sessionMaxLifetimeMs: number;
  /**
   * Failed attempts allowed in one window per account and source address (or per user for MFA
   * changes): someone guessing from elsewhere does not lock the user out.
   */
  maxFailedAttempts: number;
  attemptWindowMs: number;
  /** Failed logins allowed per account from all sources together in one attemptWindowMs (distributed guessing). */
  accountMaxFailedAttempts: number;
  /** Failed logins allowed per source address (an IPv6 /64) in one sourceWindowMs, whatever the accounts (spraying). */
  sourceMaxFailedAttempts: number;
  sourceWindowMs: number;
  /**
   * A refresh with the token the previous refresh replaced, this soon after it, is refused but
   * not taken for theft: two workers sharing a token refreshed together (see Login.refreshToken).
   */
  refreshRaceGraceMs: number;
  /** last_used_at of sessions and API keys is written at most this often. */
  touchIntervalMs: number;
  apiKeyDefaultTtlMs: number;
  apiKeyMaxTtlMs: number;
  maxActiveApiKeys: number;
}

const DAY = 24 * 3600 * 1000;

export const defaultSettings: AuthSettings = {
  issuer: "vulnscan-auth",
  audience: "vulnscan-api",
  tokenTtlSeconds: TOKEN_TTL_SECONDS,
  sessionTtlMs: 7 * DAY,
  sessionMaxLifetimeMs: 30 * DAY,
  maxFailedAttempts: 5,
  attemptWindowMs: 15 * 60_000,
  accountMaxFailedAttempts: 50,
  sourceMaxFailedAttempts: 20,
  sourceWindowMs: 5 * 60_000,
  refreshRaceGraceMs: 10_000,
  touchIntervalMs: 60_000,
  apiKeyDefaultTtlMs: 90 * DAY,
  apiKeyMaxTtlMs: 2 * 365 * DAY,
  maxActiveApiKeys: 100,
};

/**
 * Clock skew between replicas: a token signed by a replica whose clock is behind can carry an
 * `iat` up to this much earlier or later than another replica's view of the same instant.
 */
export const CLOCK_SKEW_MARGIN_MS = 5 * 60_000;

/**
 * After a session is revoked at `revokedAt`, no token of it is valid past this instant: tokens
 * are signed no later than the revocation (refresh is conditional on the session being
 * active) and live `tokenTtlSeconds`; the margin covers skew.
 */
export const tokensValidUntil = (s: Pick<AuthSettings, "tokenTtlSeconds">, revokedAt: Date): Date =>
  new Date(revokedAt.getTime() + s.tokenTtlSeconds * 1000 + CLOCK_SKEW_MARGIN_MS);
