import { newId } from "@vulnscan/kit/core";
import { invalidCredentials, invalidMfaCode, invalidToken, mfaRequired, tooManyAttempts } from "./errors.js";
import { dummyHash, type PasswordHasher } from "./passwords.js";
import type { AttemptCounter, AuthObserver, Clock, OrganizationRepository, SessionRepository, UserRepository } from "./ports.js";
import type { AuthSettings } from "./settings.js";
import { accessClaims, type Keyring } from "./tokens.js";
import { totpStep } from "./totp.js";
import type { ClientInfo, IssuedToken, LoginFailureReason, Session, User } from "./types.js";
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

export const sessionActive = (s: Session, now: Date) => !s.revokedAt && s.expiresAt.getTime() > now.getTime();

/** Token issue and refresh: credentials in, a session and a signed access token out. */
export class Login {
  /**
   * Failure records being written. They are written off the response path: awaiting the write
   * (and its event) only for existing accounts made a wrong password answer ~15 ms slower than
   * an unknown email, which told an attacker which emails have accounts (issue 30).
   */
  private readonly recording = new Set<Promise<void>>();

  constructor(private readonly d: LoginDeps) {}

  /** Resolves once every failure record started so far is written or has failed (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.recording]);
  }

  /**
   * Every attempt on an account is counted in its window before anything is checked, so
   * parallel guesses cannot overrun the limit; a success resets the count. Unknown emails are
   * counted the same way, so throttling does not reveal which accounts exist either.
   */
  async issueToken(req: { username: string; password: string; mfaCode: string; client: ClientInfo }): Promise<IssuedToken> {
    const { settings, now: clock } = this.d;
    const now = clock();
    const email = normalizeEmail(req.username);
    const key = loginAttemptKey(email);
    const attempts = await this.d.attempts.hit(key, now, settings.attemptWindowMs);
    if (attempts.count > settings.maxFailedAttempts) {
      this.d.observer.login("throttled");
      throw tooManyAttempts((attempts.resetsAt.getTime() - now.getTime()) / 1000);
    }

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
      const step = user.mfa.secret ? totpStep(user.mfa.secret, req.mfaCode, now) : null;
      if (step === null || step <= user.mfa.lastUsedStep || !(await this.d.users.consumeMfaStep(user.id, step))) {
        return this.fail(user, req, "invalid_mfa_code");
      }
    }
    const org = await this.d.orgs.get(user.orgId);
    if (!org) return this.fail(user, req, "invalid_credentials");
    await this.d.attempts.reset(key);

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
    await this.d.sessions.insert(session);
    await this.d.users.recordLogin(user.id, now);
    this.d.observer.login("success");
    this.d.observer.tokenIssued("issue");
    return this.token(user, session, now);
  }

  /**
   * Answers a failure for an existing account at once, like an unknown email (whose path does
   * no write): the user.login_failed record is written after the answer has left.
   */
  private async fail(user: User, req: { username: string; client: ClientInfo }, reason: LoginFailureReason): Promise<never> {
    const write = this.d.users.recordEvent(user.id, {
      type: "user.login_failed",
      orgId: user.orgId,
      userId: user.id,
      email: req.username,
      ip: req.client.ip,
      userAgent: req.client.userAgent,
      reason,
      occurredAt: this.d.now(),
    });
    const tracked = write.catch((err: unknown) => this.d.onBackgroundError?.(err)).finally(() => this.recording.delete(tracked));
    this.recording.add(tracked);
    this.d.observer.login(reason);
    throw reason === "mfa_required" ? mfaRequired() : reason === "invalid_mfa_code" ? invalidMfaCode() : invalidCredentials();
  }

  private async token(user: User, session: Session, now: Date): Promise<IssuedToken> {
    const { settings } = this.d;
    const claims = accessClaims(
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
    const expiresAt = new Date(Math.min(now.getTime() + settings.sessionTtlMs, session.createdAt.getTime() + settings.sessionMaxLifetimeMs));
    // Conditional on the session still being active: a revocation that lands between the
    // read above and this write wins.
    if (!(await this.d.sessions.touch(session.id, now, expiresAt))) throw invalidToken();
    this.d.observer.tokenIssued("refresh");
    return this.token(user, { ...session, expiresAt }, now);
  }
}
