/** Domain types of identity: no transport or storage shapes here. */

export const PLAN_TIERS = ["startup", "professional", "enterprise"] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

/** One quota or rate limit. `unlimited` is explicit: 0 is a real limit ("none allowed"). */
export interface Limit {
  unlimited: boolean;
  max: number;
}

export interface PlanLimits {
  requestsPerHour: Limit;
  requestsPerDay: Limit;
  concurrentScans: Limit;
  scansPerMonth: Limit;
  webhooks: Limit;
  webhookEventsPerHour: Limit;
  aiCreditsPerMonth: Limit;
  /** Smallest IPv4 prefix length a scan target may have (the largest range allowed). */
  minCidrPrefixLength: number;
}

/** Operator overrides of a tier's defaults; an absent field keeps the tier's value. */
export type CustomLimits = Partial<PlanLimits>;

export interface Plan {
  tier: PlanTier;
  limits: PlanLimits;
  apiKeysEnabled: boolean;
  schedulesEnabled: boolean;
  webhooksEnabled: boolean;
}

export interface Organization {
  id: string;
  name: string;
  tier: PlanTier;
  customLimits?: CustomLimits;
  createdAt: Date;
}

export interface UserMfa {
  enabled: boolean;
  /** Base32 secret of the active TOTP, when enabled. */
  secret?: string;
  /** Base32 secret waiting for EnableMfa to confirm a code. */
  pendingSecret?: string;
  /** Last TOTP time step accepted (codes of this step or earlier are refused: no replay). */
  lastUsedStep: number;
  /** SHA-256 hashes of the unused recovery codes (domain/recovery-codes.ts); none while MFA is off. */
  recoveryCodes?: string[];
}

export interface User {
  id: string;
  orgId: string;
  /** Normalised (trimmed, lowercase); unique across organizations. */
  email: string;
  passwordHash: string;
  mfa: UserMfa;
  createdAt: Date;
  lastLoginAt?: Date;
  /** Set while an operator has disabled the user: no login, tokens and their API keys refused. */
  disabledAt?: Date;
}

export interface Session {
  id: string;
  orgId: string;
  userId: string;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
  ip: string;
  userAgent: string;
  revokedAt?: Date;
  /**
   * The id (jti) of the session's newest token, the only one that may refresh it; older tokens
   * keep working for ordinary calls until they expire. Absent on sessions from before rotation.
   */
  tokenId?: string;
  /** The token the last refresh replaced, and when: a refresh racing that one is not theft. */
  previousTokenId?: string;
  rotatedAt?: Date;
}

export const PERMISSIONS = ["read:scans", "write:scans", "read:findings", "write:findings", "read:grc", "write:grc"] as const;
export type Permission = (typeof PERMISSIONS)[number];

export interface ApiKey {
  id: string;
  orgId: string;
  name: string;
  permissions: Permission[];
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt?: Date;
  revokedAt?: Date;
  /** First characters of the value, for display only. */
  prefix: string;
  /** SHA-256 (hex) of the value; the value itself is never stored. */
  keyHash: string;
  createdByUserId: string;
}

/** An ES256 signing key. Generations only grow; the highest one signs. */
export interface SigningKey {
  kid: string;
  generation: number;
  alg: "ES256";
  publicJwk: PublicJwk;
  privateJwk: PrivateJwk;
  createdAt: Date;
}

export interface PublicJwk {
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
}
export interface PrivateJwk extends PublicJwk {
  d?: string;
}

/** Claims of an access token (JWT). */
export interface AccessClaims {
  iss: string;
  aud: string;
  /** User id. */
  sub: string;
  /** Organization id. */
  org: string;
  /** Session id. */
  sid: string;
  email: string;
  iat: number;
  exp: number;
  jti: string;
}

export interface IssuedToken {
  accessToken: string;
  tokenType: "bearer";
  expiresIn: number;
  sessionId: string;
  userId: string;
  orgId: string;
}

/** Client facts the gateway saw, recorded on sessions and in events. */
export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export type LoginFailureReason = "invalid_credentials" | "mfa_required" | "invalid_mfa_code";

export type SessionRevokeReason = "revoked" | "logout_all" | "user_disabled" | "refresh_reuse";

/**
 * Domain events; storage turns them into envelopes in the outbox of the document whose state
 * they describe. `user.*` are the spec's kinds; `auth.*` are internal facts the gateways follow
 * (never webhook kinds).
 */
export type AuthEvent =
  | {
      type: "auth.session_revoked";
      orgId: string;
      userId: string;
      sessionId: string;
      revokedAt: Date;
      tokensValidUntil: Date;
      reason: SessionRevokeReason;
      occurredAt: Date;
    }
  | { type: "auth.api_key_revoked"; orgId: string; apiKeyId: string; expiresAt: Date; occurredAt: Date }
  | { type: "auth.user_disabled" | "auth.user_enabled"; orgId: string; userId: string; occurredAt: Date }
  | { type: "auth.plan_changed"; orgId: string; plan: Plan; occurredAt: Date }
  | {
      type: "user.login_failed";
      orgId: string;
      userId: string;
      email: string;
      ip: string;
      userAgent: string;
      reason: LoginFailureReason;
      occurredAt: Date;
    }
  | {
      type: "user.mfa_disabled";
      orgId: string;
      userId: string;
      email: string;
      ip: string;
      userAgent: string;
      occurredAt: Date;
    };

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
  pages: number;
}

/** What a gateway must know that can still matter (AuthService.GetAuthState). */
export interface AuthState {
  asOf: Date;
  revokedSessions: { sessionId: string; userId: string; orgId: string; tokensValidUntil: Date }[];
  revokedApiKeys: { apiKeyId: string; orgId: string; expiresAt: Date }[];
  disabledUsers: { userId: string; orgId: string }[];
}
