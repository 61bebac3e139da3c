import type { Collection, Db } from "mongodb";
import type { ApiKeyRepository } from "../domain/ports.js";
import type { ApiKey, Permission } from "../domain/types.js";
import { Collections } from "./collections.js";

export interface ApiKeyDoc {
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

export class MongoApiKeyRepository implements ApiKeyRepository {
  private readonly coll: Collection<ApiKeyDoc>;
  constructor(db: Db) {
    this.coll = db.collection<ApiKeyDoc>(Collections.apiKeys);
  }

  async insert(k: ApiKey): Promise<void> {
    await this.coll.insertOne({
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
  }

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const d = await this.coll.findOne({ key_hash: keyHash });
    return d ? fromDoc(d) : null;
  }

  async get(orgId: string, keyId: string): Promise<ApiKey | null> {
    const d = await this.coll.findOne({ _id: keyId, org_id: orgId });
    return d ? fromDoc(d) : null;
  }

  async list(orgId: string): Promise<ApiKey[]> {
    return (await this.coll.find({ org_id: orgId }).sort({ _id: -1 }).limit(1000).toArray()).map(fromDoc);
  }

  async countActive(orgId: string, now: Date): Promise<number> {
    return this.coll.countDocuments({ org_id: orgId, revoked_at: null, expires_at: { $gt: now } });
  }

  async revoke(orgId: string, keyId: string, at: Date): Promise<ApiKey | null> {
    await this.coll.updateOne({ _id: keyId, org_id: orgId, revoked_at: null }, { $set: { revoked_at: at } });
    return this.get(orgId, keyId);
  }

  async touch(keyId: string, at: Date): Promise<void> {
    await this.coll.updateOne({ _id: keyId }, { $set: { last_used_at: at } });
  }
}
