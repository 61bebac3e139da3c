import { loadConfig, serviceEnvSchema } from "@vulnscan/kit";
import { z } from "zod";
import { defaultSettings, type AuthSettings } from "./domain/settings.js";
import { TOKEN_TTL_SECONDS } from "./domain/tokens.js";

const seconds = (def: number, min = 1) => z.coerce.number().int().min(min).default(def);

/** The kit's shared settings plus identity's own. The token lifetime is not here: the spec fixes it (3600 s). */
export const configSchema = serviceEnvSchema({ rpcPort: 50051, adminPort: 9461, database: "auth" })
  .extend({
    AUTH_ISSUER: z.string().min(1).default("vulnscan-auth"),
    AUTH_AUDIENCE: z.string().min(1).default("vulnscan-api"),
    /** A session ends this long after its last token issue or refresh (7 days)... */
    AUTH_SESSION_TTL_SECONDS: seconds(7 * 24 * 3600, 60),
    /** ...and never later than this after login (30 days). */
    AUTH_SESSION_MAX_LIFETIME_SECONDS: seconds(30 * 24 * 3600, 60),
    /** A signing key signs for this long before the next one takes over (30 days). */
    AUTH_KEY_ROTATION_SECONDS: seconds(30 * 24 * 3600, 10),
    /** How long callers may cache GetJwks (they refetch on an unknown kid anyway). */
    AUTH_JWKS_CACHE_SECONDS: seconds(300),
    /** Failed attempts per account and source address in one window before TOO_MANY_ATTEMPTS (5 in 15 minutes). */
    AUTH_LOGIN_MAX_FAILURES: seconds(5),
    AUTH_LOGIN_WINDOW_SECONDS: seconds(15 * 60),
    /** Failed attempts per account from every source together in that window (50). */
    AUTH_LOGIN_ACCOUNT_MAX_FAILURES: seconds(50),
    /** Failed logins per source address (IPv6: per /64), whatever the accounts, in their own window (20 in 5 minutes). */
    AUTH_LOGIN_SOURCE_MAX_FAILURES: seconds(20),
    AUTH_LOGIN_SOURCE_WINDOW_SECONDS: seconds(5 * 60),
    /** A refresh racing the one that replaced its token this recently is refused without revoking the session (10 s). */
    AUTH_REFRESH_RACE_GRACE_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
    /** Expiry of an API key created without one (90 days). */
    AUTH_API_KEY_DEFAULT_TTL_DAYS: seconds(90),
    /**
     * auth.heartbeat to every partition of vulnscan.auth.events this often, so gateways can
     * show their view is current (their staleness bound, AUTH_VIEW_MAX_STALENESS_MS, must be
     * several of these).
     */
    AUTH_HEARTBEAT_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  })
  .refine((c) => c.AUTH_SESSION_MAX_LIFETIME_SECONDS >= c.AUTH_SESSION_TTL_SECONDS, {
    message: "AUTH_SESSION_MAX_LIFETIME_SECONDS must be at least AUTH_SESSION_TTL_SECONDS",
    path: ["AUTH_SESSION_MAX_LIFETIME_SECONDS"],
  });

export type Config = z.infer<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config => loadConfig(configSchema, env);

export function authSettings(c: Config): AuthSettings {
  return {
    ...defaultSettings,
    issuer: c.AUTH_ISSUER,
    audience: c.AUTH_AUDIENCE,
    tokenTtlSeconds: TOKEN_TTL_SECONDS,
    sessionTtlMs: c.AUTH_SESSION_TTL_SECONDS * 1000,
    sessionMaxLifetimeMs: c.AUTH_SESSION_MAX_LIFETIME_SECONDS * 1000,
    maxFailedAttempts: c.AUTH_LOGIN_MAX_FAILURES,
    attemptWindowMs: c.AUTH_LOGIN_WINDOW_SECONDS * 1000,
    accountMaxFailedAttempts: c.AUTH_LOGIN_ACCOUNT_MAX_FAILURES,
    sourceMaxFailedAttempts: c.AUTH_LOGIN_SOURCE_MAX_FAILURES,
    sourceWindowMs: c.AUTH_LOGIN_SOURCE_WINDOW_SECONDS * 1000,
    refreshRaceGraceMs: c.AUTH_REFRESH_RACE_GRACE_MS,
    apiKeyDefaultTtlMs: c.AUTH_API_KEY_DEFAULT_TTL_DAYS * 24 * 3600 * 1000,
  };
}
