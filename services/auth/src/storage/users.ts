import { insertOnce, withOutbox, type Outbox } from "@vulnscan/kit";
import type { Db } from "mongodb";
import { EmailTakenError, type UserRepository } from "../domain/ports.js";
import type { AuthEvent, User } from "../domain/types.js";
import { toPendingEvent } from "../events/auth-events.js";
import { Collections } from "./collections.js";
import { OutboxRepository, type OutboxFields } from "./repository.js";

export interface UserDoc extends OutboxFields {
  _id: string;
  org_id: string;
  email: string;
  password_hash: string;
  mfa_enabled: boolean;
  mfa_secret: string | null;
  mfa_pending_secret: string | null;
  /** Last TOTP time step accepted; 0 before any. */
  mfa_last_step: number;
  /** SHA-256 hashes of the unused recovery codes; absent on older documents. */
  mfa_recovery_codes?: string[];
  created_at: Date;
  last_login_at: Date | null;
  /** True while disabled (the indexed field GetAuthState reads); absent on older documents. */
  disabled?: boolean;
  disabled_at?: Date | null;
}

export const userFromDoc = (d: UserDoc): User => ({
  id: d._id,
  orgId: d.org_id,
  email: d.email,
  passwordHash: d.password_hash,
  mfa: {
    enabled: d.mfa_enabled,
    ...(d.mfa_secret ? { secret: d.mfa_secret } : {}),
    ...(d.mfa_pending_secret ? { pendingSecret: d.mfa_pending_secret } : {}),
    lastUsedStep: d.mfa_last_step ?? 0,
    ...(d.mfa_enabled && d.mfa_recovery_codes?.length ? { recoveryCodes: d.mfa_recovery_codes } : {}),
  },
  createdAt: d.created_at,
  ...(d.last_login_at ? { lastLoginAt: d.last_login_at } : {}),
  ...(d.disabled && d.disabled_at ? { disabledAt: d.disabled_at } : {}),
});

const toDoc = (user: User): UserDoc => ({
  _id: user.id,
  org_id: user.orgId,
  email: user.email,
  password_hash: user.passwordHash,
  mfa_enabled: user.mfa.enabled,
  mfa_secret: user.mfa.secret ?? null,
  mfa_pending_secret: user.mfa.pendingSecret ?? null,
  mfa_last_step: user.mfa.lastUsedStep,
  mfa_recovery_codes: user.mfa.recoveryCodes ?? [],
  created_at: user.createdAt,
  last_login_at: user.lastLoginAt ?? null,
  outbox: [],
  outbox_pending: false,
});

/** Users; an email names one user across all organizations. */
export class MongoUserRepository extends OutboxRepository<User, UserDoc> implements UserRepository {
  constructor(db: Db, outbox?: Outbox) {
    super(db, Collections.users, { toDoc: toDoc, fromDoc: userFromDoc }, outbox);
  }

  /** Throws EmailTakenError when the email belongs to a user already. */
  override async insert(user: User): Promise<void> {
    if (!(await insertOnce(this.coll, toDoc(user)))) throw new EmailTakenError(user.email);
  }

  async findByEmail(email: string): Promise<User | null> {
    return this.one({ email });
  }

  async get(orgId: string, userId: string): Promise<User | null> {
    return this.one({ _id: userId, org_id: orgId });
  }

  async recordEvent(userId: string, event: AuthEvent): Promise<void> {
    await this.coll.updateOne({ _id: userId }, withOutbox({}, [toPendingEvent(event)]));
    await this.flush(userId);
  }

  async recordLogin(userId: string, at: Date): Promise<void> {
    await this.coll.updateOne({ _id: userId }, { $set: { last_login_at: at } });
  }

  async setPassword(userId: string, passwordHash: string): Promise<void> {
    await this.coll.updateOne({ _id: userId }, { $set: { password_hash: passwordHash } });
  }

  async setPendingMfa(orgId: string, userId: string, secret: string): Promise<boolean> {
    const r = await this.coll.updateOne({ _id: userId, org_id: orgId, mfa_enabled: false }, { $set: { mfa_pending_secret: secret } });
    return r.matchedCount === 1;
  }

  async enableMfa(orgId: string, userId: string, secret: string, step: number, recoveryHashes: string[]): Promise<boolean> {
    const r = await this.coll.updateOne(
      { _id: userId, org_id: orgId, mfa_enabled: false, mfa_pending_secret: secret, mfa_last_step: { $lt: step } },
      { $set: { mfa_enabled: true, mfa_secret: secret, mfa_pending_secret: null, mfa_last_step: step, mfa_recovery_codes: recoveryHashes } },
    );
    return r.matchedCount === 1;
  }

  async consumeRecoveryCode(userId: string, hash: string): Promise<boolean> {
    // Conditional on the code being there: of two requests with the same code, one wins.
    const r = await this.coll.updateOne({ _id: userId, mfa_enabled: true, mfa_recovery_codes: hash }, { $pull: { mfa_recovery_codes: hash } });
    return r.modifiedCount === 1;
  }

  async replaceRecoveryCodes(orgId: string, userId: string, proof: { step: number } | { recoveryHash: string }, hashes: string[]): Promise<boolean> {
    const r = await this.coll.updateOne(
      {
        _id: userId,
        org_id: orgId,
        mfa_enabled: true,
        ...("step" in proof ? { mfa_last_step: { $lt: proof.step } } : { mfa_recovery_codes: proof.recoveryHash }),
      },
      { $set: { mfa_recovery_codes: hashes, ...("step" in proof ? { mfa_last_step: proof.step } : {}) } },
    );
    return r.matchedCount === 1;
  }

  async consumeMfaStep(userId: string, step: number): Promise<boolean> {
    // Conditional on the stored step being older: of two requests with the same code, one wins.
    const r = await this.coll.updateOne({ _id: userId, mfa_last_step: { $lt: step } }, { $set: { mfa_last_step: step } });
    return r.matchedCount === 1;
  }

  async setDisabled(orgId: string, userId: string, disabledAt: Date | null, event: AuthEvent): Promise<"changed" | "unchanged" | "not_found"> {
    const disabled = disabledAt !== null;
    const r = await this.coll.updateOne(
      { _id: userId, org_id: orgId, disabled: disabled ? { $ne: true } : true },
      withOutbox({ $set: { disabled, disabled_at: disabledAt } }, [toPendingEvent(event)]),
    );
    if (r.matchedCount === 1) {
      await this.flush(userId);
      return "changed";
    }
    return (await this.coll.countDocuments({ _id: userId, org_id: orgId }, { limit: 1 })) > 0 ? "unchanged" : "not_found";
  }

  async listDisabled(): Promise<{ userId: string; orgId: string }[]> {
    const docs = await this.coll.find({ disabled: true }, { projection: { _id: 1, org_id: 1 } }).toArray();
    return docs.map((d) => ({ userId: d._id, orgId: d.org_id }));
  }

  async disableMfa(orgId: string, userId: string, step: number | null, event: AuthEvent, recoveryHash?: string): Promise<boolean> {
    const r = await this.coll.updateOne(
      {
        _id: userId,
        org_id: orgId,
        mfa_enabled: true,
        ...(step === null ? {} : { mfa_last_step: { $lt: step } }),
        ...(recoveryHash ? { mfa_recovery_codes: recoveryHash } : {}),
      },
      withOutbox(
        {
          $set: {
            mfa_enabled: false,
            mfa_secret: null,
            mfa_pending_secret: null,
            mfa_recovery_codes: [],
            ...(step === null ? {} : { mfa_last_step: step }),
          },
        },
        [toPendingEvent(event)],
      ),
    );
    if (r.matchedCount !== 1) return false;
    await this.flush(userId);
    return true;
  }
}
