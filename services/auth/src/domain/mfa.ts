import { invalidState, notFound, validationError } from "@vulnscan/kit/core";
import { tooManyAttempts } from "./errors.js";
import type { AttemptCounter, Clock, UserRepository } from "./ports.js";
import type { AuthSettings } from "./settings.js";
import { mfaProofOf, newRecoveryCodes, recoveryCodeHash, canonicalRecoveryCode } from "./recovery-codes.js";
import { newTotpSecret, otpauthUri, totpStep } from "./totp.js";
import type { ClientInfo, User } from "./types.js";

export const mfaAttemptKey = (userId: string) => `mfa:${userId}`;

const invalidCode = () => validationError("code", "Invalid or already used MFA code");

/**
 * TOTP enrolment. A secret is pending until a code from it is confirmed, so a user who
 * never finished scanning the QR code is not locked out. Enabling and disabling take a
 * current code that has not been used before, and wrong codes are throttled like logins,
 * so a stolen access token is not enough to guess its way to turning MFA off. Turning MFA on
 * makes recovery codes (recovery-codes.ts): each stands in for a TOTP code once, at sign-in or
 * here, for whoever lost their authenticator.
 */
export class Mfa {
  constructor(private readonly d: { users: UserRepository; attempts: AttemptCounter; settings: AuthSettings; now: Clock }) {}

  private async user(orgId: string, userId: string): Promise<User> {
    const user = orgId && userId ? await this.d.users.get(orgId, userId) : null;
    if (!user) throw notFound("User");
    return user;
  }

  async setup(orgId: string, userId: string): Promise<{ secret: string; otpauthUri: string }> {
    const user = await this.user(orgId, userId);
    if (user.mfa.enabled) throw invalidState("MFA is already enabled");
    const secret = newTotpSecret();
    if (!(await this.d.users.setPendingMfa(orgId, userId, secret))) throw invalidState("MFA is already enabled");
    return { secret, otpauthUri: otpauthUri(secret, user.email) };
  }

  private async takeAttempt(userId: string, now: Date): Promise<void> {
    const { count, resetsAt } = await this.d.attempts.hit(mfaAttemptKey(userId), now, this.d.settings.attemptWindowMs);
    if (count > this.d.settings.maxFailedAttempts) throw tooManyAttempts((resetsAt.getTime() - now.getTime()) / 1000);
  }

  /** Turns MFA on; answers the new recovery codes (shown once: only their hashes are stored). */
  async enable(orgId: string, userId: string, code: string): Promise<{ recoveryCodes: string[] }> {
    if (!code.trim()) throw validationError("code", "MFA code is required");
    const user = await this.user(orgId, userId);
    if (user.mfa.enabled) throw invalidState("MFA is already enabled");
    const pending = user.mfa.pendingSecret;
    if (!pending) throw invalidState("Start MFA setup first");
    const now = this.d.now();
    await this.takeAttempt(userId, now);
    const step = totpStep(pending, code, now);
    if (step === null || step <= user.mfa.lastUsedStep) throw invalidCode();
    const recoveryCodes = newRecoveryCodes();
    const hashes = recoveryCodes.map((c) => recoveryCodeHash(canonicalRecoveryCode(c)!));
    if (!(await this.d.users.enableMfa(orgId, userId, pending, step, hashes))) {
      const again = await this.user(orgId, userId);
      if (again.mfa.enabled) throw invalidState("MFA is already enabled");
      throw invalidCode(); // a newer setup replaced the secret, or the code was used meanwhile
    }
    await this.d.attempts.reset(mfaAttemptKey(userId));
    return { recoveryCodes };
  }

  /**
   * What a code proves for a user with MFA on: a TOTP step newer than the last used one, or an
   * unused recovery code (by hash; whether it is unused the conditional write decides).
   */
  private proof(user: User, code: string, now: Date): { step: number } | { recoveryHash: string } {
    const proof = mfaProofOf(code);
    if (proof.kind === "recovery") return { recoveryHash: proof.hash };
    const step = proof.kind === "totp" && user.mfa.secret ? totpStep(user.mfa.secret, proof.code, now) : null;
    if (step === null || step <= user.mfa.lastUsedStep) throw invalidCode();
    return { step };
  }

  /** New recovery codes for a user with MFA on, after a current TOTP code or an unused recovery code; the old ones stop working. */
  async regenerateRecoveryCodes(orgId: string, userId: string, code: string): Promise<string[]> {
    if (!code.trim()) throw validationError("code", "MFA code is required");
    const user = await this.user(orgId, userId);
    if (!user.mfa.enabled) throw invalidState("MFA is not enabled");
    const now = this.d.now();
    await this.takeAttempt(userId, now);
    const proof = this.proof(user, code, now);
    const recoveryCodes = newRecoveryCodes();
    const hashes = recoveryCodes.map((c) => recoveryCodeHash(canonicalRecoveryCode(c)!));
    if (!(await this.d.users.replaceRecoveryCodes(orgId, userId, proof, hashes))) {
      const again = await this.user(orgId, userId);
      if (!again.mfa.enabled) throw invalidState("MFA is not enabled");
      throw invalidCode();
    }
    await this.d.attempts.reset(mfaAttemptKey(userId));
    return recoveryCodes;
  }

  async disable(orgId: string, userId: string, code: string, client: ClientInfo): Promise<boolean> {
    if (!code.trim()) throw validationError("code", "MFA code is required");
    const user = await this.user(orgId, userId);
    if (!user.mfa.enabled || !user.mfa.secret) throw invalidState("MFA is not enabled");
    const now = this.d.now();
    await this.takeAttempt(userId, now);
    const proof = this.proof(user, code, now);
    const step = "step" in proof ? proof.step : null;
    const done = await this.d.users.disableMfa(
      orgId,
      userId,
      step,
      {
        type: "user.mfa_disabled",
        orgId,
        userId,
        email: user.email,
        ip: client.ip,
        userAgent: client.userAgent,
        occurredAt: now,
      },
      "recoveryHash" in proof ? proof.recoveryHash : undefined,
    );
    if (!done) {
      const again = await this.user(orgId, userId);
      if (!again.mfa.enabled) throw invalidState("MFA is not enabled");
      throw invalidCode();
    }
    await this.d.attempts.reset(mfaAttemptKey(userId));
    return false;
  }
}
