import { withOutbox, type Outbox, type PendingEvent } from "@vulnscan/kit";
import type { Collection, Db } from "mongodb";
import type { ApiKeyRepository } from "../domain/ports.js";
import type { ApiKey, AuthEvent, Permission } from "../domain/types.js";
import { toPendingEvent } from "../events/auth-events.js";
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
  outbox?: PendingEvent[];
  outbox_pending?: boolean;
}

const NO_OUTBOX = { projection: { outbox: 0 } } as const;

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
  constructor(
    db: Db,
    private readonly outbox?: Outbox,
  ) {
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
    const d = await this.coll.findOne({ key_hash: keyHash }, NO_OUTBOX);
    return d ? fromDoc(d) : null;
  }

  async get(orgId: string, keyId: string): Promise<ApiKey | null> {
    const d = await this.coll.findOne({ _id: keyId, org_id: orgId }, NO_OUTBOX);
    return d ? fromDoc(d) : null;
  }

  async list(orgId: string): Promise<ApiKey[]> {
    return (await this.coll.find({ org_id: orgId }, NO_OUTBOX).sort({ _id: -1 }).limit(1000).toArray()).map(fromDoc);
  }

  async countActive(orgId: string, now: Date): Promise<number> {
    return this.coll.countDocuments({ org_id: orgId, revoked_at: null, expires_at: { $gt: now } });
  }

  async revoke(orgId: string, keyId: string, at: Date, event: AuthEvent): Promise<boolean> {
    const r = await this.coll.updateOne({ _id: keyId, org_id: orgId, revoked_at: null }, withOutbox({ $set: { revoked_at: at } }, [toPendingEvent(event)]));
    if (r.matchedCount !== 1) return false;
    await this.outbox?.flushSoon(Collections.apiKeys, keyId);
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
