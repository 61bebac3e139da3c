import { withOutbox, type Outbox } from "@vulnscan/kit";
import type { Db } from "mongodb";
import type { SessionRepository } from "../domain/ports.js";
import type { AuthEvent, Session } from "../domain/types.js";
import { toPendingEvent } from "../events/auth-events.js";
import { Collections } from "./collections.js";
import { NO_OUTBOX, OutboxRepository, type OutboxFields } from "./repository.js";

export interface SessionDoc extends OutboxFields {
  _id: string;
  org_id: string;
  user_id: string;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
  ip: string;
  user_agent: string;
  revoked_at: Date | null;
  /** The jti of the session's newest token (the one that may refresh); absent on older sessions. */
  token_id?: string | null;
  previous_token_id?: string | null;
  rotated_at?: Date | null;
}

const fromDoc = (d: SessionDoc): Session => ({
  id: d._id,
  orgId: d.org_id,
  userId: d.user_id,
  createdAt: d.created_at,
  lastUsedAt: d.last_used_at,
  expiresAt: d.expires_at,
  ip: d.ip,
  userAgent: d.user_agent,
  ...(d.revoked_at ? { revokedAt: d.revoked_at } : {}),
  ...(d.token_id ? { tokenId: d.token_id } : {}),
  ...(d.previous_token_id ? { previousTokenId: d.previous_token_id } : {}),
  ...(d.rotated_at ? { rotatedAt: d.rotated_at } : {}),
});

const toDoc = (s: Session): SessionDoc => ({
  _id: s.id,
  org_id: s.orgId,
  user_id: s.userId,
  created_at: s.createdAt,
  last_used_at: s.lastUsedAt,
  expires_at: s.expiresAt,
  ip: s.ip,
  user_agent: s.userAgent,
  revoked_at: s.revokedAt ?? null,
  token_id: s.tokenId ?? null,
  previous_token_id: s.previousTokenId ?? null,
  rotated_at: s.rotatedAt ?? null,
});

/** No TTL index (FerretDB v1 has none): expired sessions are deleted by the housekeeping pass. */
export class MongoSessionRepository extends OutboxRepository<Session, SessionDoc> implements SessionRepository {
  constructor(db: Db, outbox?: Outbox) {
    super(db, Collections.sessions, { toDoc, fromDoc }, outbox);
  }

  async get(orgId: string, sessionId: string): Promise<Session | null> {
    return this.one({ _id: sessionId, org_id: orgId });
  }

  async listActive(orgId: string, userId: string, now: Date): Promise<Session[]> {
    const docs = await this.coll
      .find({ org_id: orgId, user_id: userId, revoked_at: null, expires_at: { $gt: now } }, NO_OUTBOX)
      .sort({ _id: -1 })
      .limit(1000)
      .toArray();
    return docs.map(fromDoc);
  }

  /** The revocation and its event in one write, published right after (the relay covers a crash). */
  async revoke(orgId: string, userId: string, sessionId: string, at: Date, event: AuthEvent): Promise<boolean> {
    const r = await this.coll.updateOne(
      { _id: sessionId, org_id: orgId, user_id: userId, revoked_at: null },
      withOutbox({ $set: { revoked_at: at } }, [toPendingEvent(event)]),
    );
    if (r.matchedCount !== 1) return false;
    await this.flush(sessionId);
    return true;
  }

  async revokedSince(since: Date): Promise<Session[]> {
    const docs = await this.coll.find({ revoked_at: { $gt: since } }, NO_OUTBOX).toArray();
    return docs.map(fromDoc);
  }

  async touch(sessionId: string, at: Date, expiresAt?: Date, rotate?: { from: string | undefined; to: string }): Promise<boolean> {
    const r = await this.coll.updateOne(
      { _id: sessionId, revoked_at: null, expires_at: { $gt: at }, ...(rotate ? { token_id: rotate.from ?? null } : {}) },
      {
        $set: {
          last_used_at: at,
          ...(expiresAt ? { expires_at: expiresAt } : {}),
          ...(rotate ? { token_id: rotate.to, previous_token_id: rotate.from ?? null, rotated_at: at } : {}),
        },
      },
    );
    return r.matchedCount === 1;
  }

  /** Deletes sessions that ended before `before` (kept a while after expiry for support questions). */
  async purgeEndedBefore(before: Date): Promise<number> {
    const r = await this.coll.deleteMany({ expires_at: { $lt: before } });
    return r.deletedCount;
  }
}
