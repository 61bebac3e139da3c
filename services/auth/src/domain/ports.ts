import type { ApiKey, AuthEvent, CustomLimits, Organization, PlanTier, Session, SigningKey, User } from "./types.js";

/*
 * What the use cases need from storage. Every query that reads tenant data takes the
 * organization id, so a lookup that forgets the tenant cannot be written by accident.
 * Writes that carry events store them with the state change (one single-document update).
 */

export interface OrganizationRepository {
  insert(org: Organization): Promise<void>;
  get(orgId: string): Promise<Organization | null>;
  findByName(name: string): Promise<Organization[]>;
  /**
   * Replaces tier and overrides, storing `event` (auth.plan_changed) in the same write; null
   * when the organization does not exist.
   */
  setPlan(orgId: string, tier: PlanTier, customLimits: CustomLimits | undefined, event: AuthEvent): Promise<Organization | null>;
  /** Oldest first. */
  list(page: number, perPage: number): Promise<{ items: Organization[]; total: number }>;
}

/** Thrown by UserRepository.insert when the email is taken. */
export class EmailTakenError extends Error {
  override name = "EmailTakenError";
}

export interface UserRepository {
  /** Throws EmailTakenError when the email exists. */
  insert(user: User): Promise<void>;
  findByEmail(email: string): Promise<User | null>;
  get(orgId: string, userId: string): Promise<User | null>;
  /** Stores an event about the user (e.g. user.login_failed) and publishes it soon after. */
  recordEvent(userId: string, event: AuthEvent): Promise<void>;
  recordLogin(userId: string, at: Date): Promise<void>;
  setPassword(userId: string, passwordHash: string): Promise<void>;
  /** Sets the pending secret unless MFA is already enabled; false when it is. */
  setPendingMfa(orgId: string, userId: string, secret: string): Promise<boolean>;
  /**
   * Turns MFA on with the pending secret, if it is still `secret`, MFA is off, and the
   * step is newer than the last one used. False otherwise.
   */
  enableMfa(orgId: string, userId: string, secret: string, step: number, recoveryHashes: string[]): Promise<boolean>;
  /** Records a used TOTP step if it is newer than the last one; false on replay. */
  consumeMfaStep(userId: string, step: number): Promise<boolean>;
  /** Removes one unused recovery code (by hash) while MFA is on; false when it is not there (wrong or used). */
  consumeRecoveryCode(userId: string, hash: string): Promise<boolean>;
  /**
   * Replaces the recovery codes while MFA is on, proven by a TOTP step newer than the last used
   * one (recorded) or by an unused recovery code (consumed with the rest). False otherwise.
   */
  replaceRecoveryCodes(orgId: string, userId: string, proof: { step: number } | { recoveryHash: string }, hashes: string[]): Promise<boolean>;
  /**
   * Turns MFA off if it is on and `step` is newer than the last used one (null: no code,
   * operator reset), storing the event with the change. False otherwise.
   */
  disableMfa(orgId: string, userId: string, step: number | null, event: AuthEvent, recoveryHash?: string): Promise<boolean>;
  /**
   * Sets or clears disabled_at, with `event` in the same write, if the user is not already in
   * that state. "not_found" for a user of another organization.
   */
  setDisabled(orgId: string, userId: string, disabledAt: Date | null, event: AuthEvent): Promise<"changed" | "unchanged" | "not_found">;
  /** Every disabled user (few; served by an index on `disabled`). */
  listDisabled(): Promise<{ userId: string; orgId: string }[]>;
}

export interface SessionRepository {
  insert(session: Session): Promise<void>;
  get(orgId: string, sessionId: string): Promise<Session | null>;
  /** Not revoked and not expired at `now`, newest first. */
  listActive(orgId: string, userId: string, now: Date): Promise<Session[]>;
  /**
   * Sets revoked_at, with `event` (auth.session_revoked) in the same write, if the session is
   * the user's and not yet revoked; false when not the user's or already revoked.
   */
  revoke(orgId: string, userId: string, sessionId: string, at: Date, event: AuthEvent): Promise<boolean>;
  /** Sessions revoked after `since` (their tokens may still be unexpired), from an index on revoked_at. */
  revokedSince(since: Date): Promise<Session[]>;
  /**
   * Sets last_used_at (and expires_at when given) if the session is still active; with `rotate`,
   * only if the session's token id is still `rotate.from` (none: no token id yet), setting it to
   * `rotate.to` (and the previous token id to `rotate.from`, rotated_at to `at`) — one refresh wins
   * a race between two with the same token.
   */
  touch(sessionId: string, at: Date, expiresAt?: Date, rotate?: { from: string | undefined; to: string }): Promise<boolean>;
}

export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  findByHash(keyHash: string): Promise<ApiKey | null>;
  get(orgId: string, keyId: string): Promise<ApiKey | null>;
  /** Newest first, revoked and expired included. */
  list(orgId: string): Promise<ApiKey[]>;
  /** Keys neither revoked nor expired at `now`. */
  countActive(orgId: string, now: Date): Promise<number>;
  /**
   * Sets revoked_at, with `event` (auth.api_key_revoked) in the same write, unless already
   * set; false when not the organization's key or already revoked.
   */
  revoke(orgId: string, keyId: string, at: Date, event: AuthEvent): Promise<boolean>;
  /** Revoked keys that have not expired at `now`, from an index on revoked_at. */
  revokedUnexpired(now: Date): Promise<ApiKey[]>;
  touch(keyId: string, at: Date): Promise<void>;
}

export interface SigningKeyRepository {
  /** The key of the highest generation, or null when there is none yet. */
  latest(): Promise<SigningKey | null>;
  /**
   * Inserts a key of a new generation. False when that generation already exists (another
   * replica won the race); the unique index on the generation guarantees one winner.
   */
  insert(key: SigningKey): Promise<boolean>;
  /** Every stored key, newest generation first (old ones are deleted by maintenance). */
  all(): Promise<SigningKey[]>;
  get(kid: string): Promise<SigningKey | null>;
  /** Deletes keys of generations below `generation` (they verify nothing any more). */
  deleteOlderThan(generation: number): Promise<void>;
}

/**
 * Counts attempts per key (an email, or `mfa:<user id>`) in a fixed window, atomically, so
 * parallel attempts cannot slip past the limit.
 */
export interface AttemptCount {
  /** Attempts in the current window, this one included. */
  count: number;
  /** When the current window ends. */
  resetsAt: Date;
}

export interface AttemptCounter {
  /** Counts one attempt in the current window. */
  hit(key: string, now: Date, windowMs: number): Promise<AttemptCount>;
  /** Takes back one attempt counted by `hit` at `now` (an attempt that turned out not to be a failure). */
  unhit(key: string, now: Date, windowMs: number): Promise<void>;
  /** Forgets the key (a success). */
  reset(key: string): Promise<void>;
  /** Forgets every key that starts with `prefix` (an operator's reset of an account: all its sources). */
  resetPrefix(prefix: string): Promise<void>;
}

/** Observations for metrics; the domain never depends on a metrics library. */
export interface AuthObserver {
  login(outcome: "success" | "invalid_credentials" | "mfa_required" | "invalid_mfa_code" | "throttled"): void;
  /** refresh_reuse: a replaced token was presented to refresh, and its session revoked (no token issued). */
  tokenIssued(kind: "issue" | "refresh" | "refresh_reuse"): void;
  apiKeyVerified(outcome: "valid" | "invalid"): void;
}

export const noopObserver: AuthObserver = { login: () => {}, tokenIssued: () => {}, apiKeyVerified: () => {} };

export type Clock = () => Date;
