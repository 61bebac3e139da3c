import { newId } from "@vulnscan/kit/core";
import { invalidCredentials, invalidMfaCode, invalidToken, mfaRequired, tooManyAttempts } from "./errors.js";
import { dummyHash, type PasswordHasher } from "./passwords.js";
import type { AttemptCounter, AuthObserver, Clock, OrganizationRepository, SessionRepository, UserRepository } from "./ports.js";
import { type AuthSettings, tokensValidUntil } from "./settings.js";
import { accessClaims, type Keyring } from "./tokens.js";
import { mfaProofOf } from "./recovery-codes.js";
import { totpStep } from "./totp.js";
import type { AccessClaims, ClientInfo, IssuedToken, LoginFailureReason, Session, User } from "./types.js";
import { normalizeEmail } from "./validation.js";

export interface LoginDeps {
  orgs: OrganizationRepository;
  users: UserRepository;
  sessions: SessionRepository;
  attempts: AttemptCounter;
  keyring: Keyring;
  hasher: PasswordHasher;
  settings: AuthSettings;
  observer: AuthObserver;
  now: Clock;
  /** A failure record that could not be written (it is written off the response path). */
  onBackgroundError?: (err: unknown) => void;
}

export const loginAttemptKey = (email: string) => `login:${email.slice(0, 320)}`;
/** The counter of one account's failures from one source. */
export const loginSourceAttemptKey = (email: string, source: string) => `${loginAttemptKey(email)}|from:${source}`;
/** The counter of one source's failures, whatever the accounts. */
export const sourceAttemptKey = (source: string) => `login-source:${source}`;

/**
 * The source an attempt is counted against: the IPv4 address, or the /64 of an IPv6 address (one
 * subscriber commonly holds a whole /64, so counting single IPv6 addresses would count nothing).
 */
export function loginSource(ip: string): string {
  const v = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v);
  if (mapped) return mapped[1]!;
  if (!v.includes(":")) return v || "unknown";
  const [head = "", tail] = v.split("::", 2);
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(":")}::/64`;
}

export const sessionActive = (s: Session, now: Date) => !s.revokedAt && s.expiresAt.getTime() > now.getTime();

/** Token issue and refresh: credentials in, a session and a signed access token out. */
export class Login {
  /**
   * Failure records being written, by user id the last write of that user's chain. They are
   * written off the response path: awaiting the write (and its event) only for existing accounts
   * made a wrong password answer ~15 ms slower than an unknown email, which told an attacker
   * which emails have accounts (issue 30).
   */
  private readonly recording = new Map<string, Promise<void>>();

  constructor(private readonly d: LoginDeps) {}

  /** Resolves once every failure record started so far is written or has failed (tests, shutdown). */
  async settled(): Promise<void> {
    // Each user's chain ends in its last write; a write added meanwhile is awaited by the next call.
    await Promise.allSettled([...this.recording.values()]);
  }

  /**
   * Three counters, each hit before anything is checked so that parallel guesses cannot overrun
   * them, and all three the same for unknown emails (throttling reveals no account):
   * - the source's failures, whatever the accounts (password spraying): 20 in 5 minutes;
   * - the account's failures from this source: 5 in 15 minutes, so someone guessing from
   *   elsewhere does not lock the user out;
   * - the account's failures from every source: 50 in 15 minutes (guessing spread over sources).
   * A throttled attempt does not reach the counters after the one that throttled it, so locking
   * someone else's account needs ten sources, each of them slowed. A success takes its attempt back from the source's
   * count and resets the account's counters.
   */
  async issueToken(req: { username: string; password: string; mfaCode: string; client: ClientInfo }): Promise<IssuedToken> {
    const { settings, now: clock, attempts } = this.d;
    const now = clock();
    const email = normalizeEmail(req.username);
    const source = loginSource(req.client.ip);
    const bySource = await attempts.hit(sourceAttemptKey(source), now, settings.sourceWindowMs);
    if (bySource.count > settings.sourceMaxFailedAttempts) this.throttled(bySource.resetsAt, now);
    const byAccountHere = await attempts.hit(loginSourceAttemptKey(email, source), now, settings.attemptWindowMs);
    if (byAccountHere.count > settings.maxFailedAttempts) this.throttled(byAccountHere.resetsAt, now);
    // Only attempts not throttled above reach the account's own count, one source adds at most 5.
    const byAccount = await attempts.hit(loginAttemptKey(email), now, settings.attemptWindowMs);
    if (byAccount.count > settings.accountMaxFailedAttempts) this.throttled(byAccount.resetsAt, now);

    const user = email ? await this.d.users.findByEmail(email) : null;
    if (!user) {
      await this.d.hasher.verify(await dummyHash(this.d.hasher), req.password);
      this.d.observer.login("invalid_credentials");
      throw invalidCredentials();
    }
    if (!(await this.d.hasher.verify(user.passwordHash, req.password))) {
      return this.fail(user, req, "invalid_credentials");
    }
    // A disabled account answers like a wrong password: nothing to learn about its state.
    if (user.disabledAt) return this.fail(user, req, "invalid_credentials");
    if (user.mfa.enabled) {
      if (!req.mfaCode.trim()) return this.fail(user, req, "mfa_required");
      // The authenticator's code, or one of the recovery codes (used up here: removed by the write).
      const proof = mfaProofOf(req.mfaCode);
      if (proof.kind === "recovery") {
        if (!(await this.d.users.consumeRecoveryCode(user.id, proof.hash))) return this.fail(user, req, "invalid_mfa_code");
      } else {
        const step = proof.kind === "totp" && user.mfa.secret ? totpStep(user.mfa.secret, proof.code, now) : null;
        if (step === null || step <= user.mfa.lastUsedStep || !(await this.d.users.consumeMfaStep(user.id, step))) {
          return this.fail(user, req, "invalid_mfa_code");
        }
      }
    }
    const org = await this.d.orgs.get(user.orgId);
    if (!org) return this.fail(user, req, "invalid_credentials");
    await Promise.all([
      attempts.unhit(sourceAttemptKey(source), now, settings.sourceWindowMs),
      attempts.reset(loginSourceAttemptKey(email, source)),
      attempts.reset(loginAttemptKey(email)),
    ]);

    const session: Session = {
      id: newId("session", now.getTime()),
      orgId: user.orgId,
      userId: user.id,
      createdAt: now,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + Math.min(settings.sessionTtlMs, settings.sessionMaxLifetimeMs)),
      ip: req.client.ip,
      userAgent: req.client.userAgent,
    };
    const claims = this.claims(user, session, now);
    await this.d.sessions.insert({ ...session, tokenId: claims.jti });
    await this.d.users.recordLogin(user.id, now);
    this.d.observer.login("success");
    this.d.observer.tokenIssued("issue");
    return this.token(user, session, claims);
  }

  private throttled(resetsAt: Date, now: Date): never {
    this.d.observer.login("throttled");
    throw tooManyAttempts((resetsAt.getTime() - now.getTime()) / 1000);
  }

  /**
   * Answers a failure for an existing account at once, like an unknown email (whose path does
   * no write): the user.login_failed record is written after the answer has left.
   */
  private async fail(user: User, req: { username: string; client: ClientInfo }, reason: LoginFailureReason): Promise<never> {
    const event = {
      type: "user.login_failed" as const,
      orgId: user.orgId,
      userId: user.id,
      email: req.username,
      ip: req.client.ip,
      userAgent: req.client.userAgent,
      reason,
      occurredAt: this.d.now(),
    };
    // One write at a time per user, in the order of the answers: a user's events stay in order,
    // and two flushes of one user's outbox never race (they could publish an event twice).
    const tail = (this.recording.get(user.id) ?? Promise.resolve())
      .then(() => this.d.users.recordEvent(user.id, event))
      .catch((err: unknown) => this.d.onBackgroundError?.(err));
    this.recording.set(user.id, tail);
    void tail.finally(() => {
      if (this.recording.get(user.id) === tail) this.recording.delete(user.id);
    });
    this.d.observer.login(reason);
    throw reason === "mfa_required" ? mfaRequired() : reason === "invalid_mfa_code" ? invalidMfaCode() : invalidCredentials();
  }

  private claims(user: User, session: Session, now: Date): AccessClaims {
    const { settings } = this.d;
    return accessClaims(
      {
        issuer: settings.issuer,
        audience: settings.audience,
        userId: user.id,
        orgId: user.orgId,
        sessionId: session.id,
        email: user.email,
      },
      now,
      session.expiresAt,
      settings.tokenTtlSeconds,
    );
  }

  private async token(user: User, session: Session, claims: AccessClaims): Promise<IssuedToken> {
    const accessToken = await this.d.keyring.sign(claims);
    return {
      accessToken,
      tokenType: "bearer",
      expiresIn: claims.exp - claims.iat,
      sessionId: session.id,
      userId: user.id,
      orgId: user.orgId,
    };
  }

  /**
   * A new token for the same session. The session's end moves to one session lifetime from
   * now, capped at the maximum lifetime after login; the token never outlives the session.
   *
   * Rotation with reuse detection, in the spec's one-token model (the access token is also what
   * refreshes): only the session's newest token may refresh. The token it replaces keeps working
   * for ordinary calls until it expires (requests in flight, parallel workers), but presenting it
   * to refresh again means two parties hold the session — the owner and a thief, and we cannot
   * tell which is which — so the session is revoked (RFC 6819 5.2.2.3, OAuth 2.1 4.3.1). Two
   * refreshes racing with the same newest token: one wins; the other, arriving within
   * refreshRaceGraceMs of the rotation with exactly the token it replaced, is refused and nothing
   * is revoked (a thief gains nothing there either: no token is issued).
   */
  async refreshToken(req: { orgId: string; accessToken: string; client: ClientInfo }): Promise<IssuedToken> {
    const { settings } = this.d;
    const now = this.d.now();
    const claims = await this.d.keyring.verify(req.accessToken, { issuer: settings.issuer, audience: settings.audience });
    if (!req.orgId || claims.org !== req.orgId) throw invalidToken();
    const session = await this.d.sessions.get(req.orgId, claims.sid);
    if (!session || session.userId !== claims.sub || !sessionActive(session, now)) throw invalidToken();
    const user = await this.d.users.get(req.orgId, claims.sub);
    if (!user || user.disabledAt) throw invalidToken();
    if (session.tokenId !== undefined && session.tokenId !== claims.jti) {
      const racing =
        claims.jti === session.previousTokenId && session.rotatedAt !== undefined && now.getTime() - session.rotatedAt.getTime() < settings.refreshRaceGraceMs;
      if (racing) throw invalidToken();
      await this.d.sessions.revoke(session.orgId, session.userId, session.id, now, {
        type: "auth.session_revoked",
        orgId: session.orgId,
        userId: session.userId,
        sessionId: session.id,
        revokedAt: now,
        tokensValidUntil: tokensValidUntil(settings, now),
        reason: "refresh_reuse",
        occurredAt: now,
      });
      this.d.observer.tokenIssued("refresh_reuse");
      throw invalidToken();
    }
    const expiresAt = new Date(Math.min(now.getTime() + settings.sessionTtlMs, session.createdAt.getTime() + settings.sessionMaxLifetimeMs));
    const next = this.claims(user, { ...session, expiresAt }, now);
    // Conditional on the session still being active and this token still being its newest: a
    // revocation, or another refresh with the same token, that lands after the read above wins.
    if (!(await this.d.sessions.touch(session.id, now, expiresAt, { from: session.tokenId, to: next.jti }))) throw invalidToken();
    this.d.observer.tokenIssued("refresh");
    return this.token(user, { ...session, expiresAt }, next);
  }
}
