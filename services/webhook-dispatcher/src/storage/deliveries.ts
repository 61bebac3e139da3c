import type { Collection, Db, Filter } from "mongodb";
import { WriteBatch } from "@vulnscan/kit";
import type { DeliveryFilter, DeliveryRepo, Page } from "../domain/ports.js";
import type { Delivery, DeliveryStatus } from "../domain/types.js";
import { Collections } from "./collections.js";

interface DeliveryDoc {
  _id: string;
  org_id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  response_code: number;
  response_time_ms: number;
  error: string | null;
  created_at: Date;
  delivered_at: Date | null;
  next_retry: Date | null;
  deferred_until: Date | null;
  budgeted: boolean;
}

const toDoc = (d: Delivery): DeliveryDoc => ({
  _id: d.id,
  org_id: d.orgId,
  webhook_id: d.webhookId,
  event_id: d.eventId,
  event: d.event,
  body: d.body,
  status: d.status,
  attempts: d.attempts,
  response_code: d.responseCode,
  response_time_ms: d.responseTimeMs,
  error: d.error ?? null,
  created_at: d.createdAt,
  delivered_at: d.deliveredAt ?? null,
  next_retry: d.nextRetry ?? null,
  deferred_until: d.deferredUntil ?? null,
  budgeted: d.budgeted,
});

const fromDoc = (d: DeliveryDoc): Delivery => ({
  id: d._id,
  orgId: d.org_id,
  webhookId: d.webhook_id,
  eventId: d.event_id,
  event: d.event,
  body: d.body,
  status: d.status,
  attempts: d.attempts,
  responseCode: d.response_code,
  responseTimeMs: d.response_time_ms,
  ...(d.error ? { error: d.error } : {}),
  createdAt: d.created_at,
  ...(d.delivered_at ? { deliveredAt: d.delivered_at } : {}),
  ...(d.next_retry ? { nextRetry: d.next_retry } : {}),
  ...(d.deferred_until ? { deferredUntil: d.deferred_until } : {}),
  budgeted: d.budgeted,
});

export class MongoDeliveries implements DeliveryRepo {
  private readonly coll: Collection<DeliveryDoc>;
  /** Inserts and attempt results are written many at a time (the hot path's cost is per command). */
  private readonly writes: WriteBatch<DeliveryDoc>;

  constructor(db: Db) {
    this.coll = db.collection<DeliveryDoc>(Collections.deliveries);
    this.writes = new WriteBatch(this.coll);
  }

  insertOnce(d: Delivery): Promise<boolean> {
    return this.writes.insertOnce(toDoc(d));
  }

  async get(id: string): Promise<Delivery | undefined> {
    const d = await this.coll.findOne({ _id: id });
    return d ? fromDoc(d) : undefined;
  }

  async save(d: Delivery): Promise<void> {
    const { _id, ...rest } = toDoc(d);
    await this.writes.set(_id, rest, { attempts: { $lte: d.attempts } });
  }

  async list(orgId: string, webhookId: string, filter: DeliveryFilter, skip: number, limit: number): Promise<Page<Delivery>> {
    const q: Filter<DeliveryDoc> = { org_id: orgId, webhook_id: webhookId };
    if (filter.status) q.status = filter.status;
    if (filter.event) q.event = filter.event;
    const [docs, total] = await Promise.all([this.coll.find(q).sort({ _id: -1 }).skip(skip).limit(limit).toArray(), this.coll.countDocuments(q)]);
    return { items: docs.map(fromDoc), total };
  }

  async failedBetween(orgId: string, webhookId: string, from: Date, to: Date, limit: number): Promise<Delivery[]> {
    const docs = await this.coll
      .find({ org_id: orgId, webhook_id: webhookId, status: "failed", next_retry: null, created_at: { $gte: from, $lt: to } })
      .sort({ created_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map(fromDoc);
  }
}
