import { withOutbox, type Outbox } from "@vulnscan/kit";
import type { Db } from "mongodb";
import type { ApiKeyRepository } from "../domain/ports.js";
import type { ApiKey, AuthEvent, Permission } from "../domain/types.js";
import { toPendingEvent } from "../events/auth-events.js";
import { Collections } from "./collections.js";
import { NO_OUTBOX, OutboxRepository, type OutboxFields } from "./repository.js";

export interface ApiKeyDoc extends OutboxFields {
  _id: string;
  org_id: string;
  name: string;
  permissions: Permission[];
  created_at: Date;
  expires_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  prefix: string;
  /** SHA-256 (hex) of the value; the value is never stored. */
  key_hash: string;
  created_by_user_id: string;
}

const fromDoc = (d: ApiKeyDoc): ApiKey => ({
  id: d._id,
  orgId: d.org_id,
  name: d.name,
  permissions: d.permissions,
  createdAt: d.created_at,
  expiresAt: d.expires_at,
  ...(d.last_used_at ? { lastUsedAt: d.last_used_at } : {}),
  ...(d.revoked_at ? { revokedAt: d.revoked_at } : {}),
  prefix: d.prefix,
  keyHash: d.key_hash,
  createdByUserId: d.created_by_user_id,
});

const toDoc = (k: ApiKey): ApiKeyDoc => ({
  _id: k.id,
  org_id: k.orgId,
  name: k.name,
  permissions: k.permissions,
  created_at: k.createdAt,
  expires_at: k.expiresAt,
  last_used_at: k.lastUsedAt ?? null,
  revoked_at: k.revokedAt ?? null,
  prefix: k.prefix,
  key_hash: k.keyHash,
  created_by_user_id: k.createdByUserId,
});

export class MongoApiKeyRepository extends OutboxRepository<ApiKey, ApiKeyDoc> implements ApiKeyRepository {
  constructor(db: Db, outbox?: Outbox) {
    super(db, Collections.apiKeys, { toDoc, fromDoc }, outbox);
  }

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    return this.one({ key_hash: keyHash });
  }

  async get(orgId: string, keyId: string): Promise<ApiKey | null> {
    return this.one({ _id: keyId, org_id: orgId });
  }

  async list(orgId: string): Promise<ApiKey[]> {
    return this.many({ org_id: orgId }, { _id: -1 }, 1000);
  }

  async countActive(orgId: string, now: Date): Promise<number> {
    return this.coll.countDocuments({ org_id: orgId, revoked_at: null, expires_at: { $gt: now } });
  }

  async revoke(orgId: string, keyId: string, at: Date, event: AuthEvent): Promise<boolean> {
    const r = await this.coll.updateOne({ _id: keyId, org_id: orgId, revoked_at: null }, withOutbox({ $set: { revoked_at: at } }, [toPendingEvent(event)]));
    if (r.matchedCount !== 1) return false;
    await this.flush(keyId);
    return true;
  }

  async revokedUnexpired(now: Date): Promise<ApiKey[]> {
    // revoked_at is null until revoked: a range above the epoch selects revoked keys on the index.
    const docs = await this.coll.find({ revoked_at: { $gt: new Date(0) }, expires_at: { $gt: now } }, NO_OUTBOX).toArray();
    return docs.map(fromDoc);
  }

  async touch(keyId: string, at: Date): Promise<void> {
    await this.coll.updateOne({ _id: keyId }, { $set: { last_used_at: at } });
  }
}
