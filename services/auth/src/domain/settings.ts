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
  /** Failed attempts allowed per account (or per user for MFA changes) in one window. */
  maxFailedAttempts: number;
  attemptWindowMs: number;
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
  touchIntervalMs: 60_000,
  apiKeyDefaultTtlMs: 90 * DAY,
  apiKeyMaxTtlMs: 2 * 365 * DAY,
  maxActiveApiKeys: 100,
};
