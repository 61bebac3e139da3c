import { type Collection, type Db, type Filter, MongoNetworkTimeoutError } from "mongodb";
import { pageOf } from "@vulnscan/kit/mongo";
import { WriteBatch } from "@vulnscan/kit/write-batch";
import type { DeliveryFilter, DeliveryStore, Page } from "../domain/ports.js";
import type { Delivery, DeliveryStatus } from "../domain/types.js";
import { Collections } from "./collections.js";

/** What an attempt changes. */
interface AttemptState {
  status: DeliveryStatus;
  attempts: number;
  response_code: number;
  response_time_ms: number;
  error: string | null;
  delivered_at: Date | null;
  /** Due time of the next attempt (the retry pass's index); null once final. */
  next_attempt_at: Date | null;
  /** The lease of the attempt in flight; null when none is. */
  lease_until: Date | null;
  deferred_until: Date | null;
  budgeted: boolean;
}

interface DeliveryDoc extends AttemptState {
  _id: string;
  org_id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  body: string;
  created_at: Date;
}

const stateOf = (d: Delivery): AttemptState => ({
  status: d.status,
  attempts: d.attempts,
  response_code: d.responseCode,
  response_time_ms: d.responseTimeMs,
  error: d.error ?? null,
  delivered_at: d.deliveredAt ?? null,
  next_attempt_at: d.nextAttemptAt ?? null,
  lease_until: d.leaseUntil ?? null,
  deferred_until: d.deferredUntil ?? null,
  budgeted: d.budgeted,
});

const toDoc = (d: Delivery): DeliveryDoc => ({
  _id: d.id,
  org_id: d.orgId,
  webhook_id: d.webhookId,
  event_id: d.eventId,
  event: d.event,
  body: d.body,
  created_at: d.createdAt,
  ...stateOf(d),
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
  ...(d.next_attempt_at ? { nextAttemptAt: d.next_attempt_at } : {}),
  ...(d.lease_until ? { leaseUntil: d.lease_until } : {}),
  ...(d.deferred_until ? { deferredUntil: d.deferred_until } : {}),
  budgeted: d.budgeted,
});

/**
 * How long a write or the fan-out's read may go unanswered before it is reported failed. The
 * driver (6.22) can leave a command unanswered for good: one whose bytes the socket buffered
 * (a bulk insert of many deliveries) waits for the socket's "drain", and a connection closed
 * meanwhile (the database stopped) never emits it, so the promise never settles and the
 * connection stays checked out. Found by the fault run: a first attempt's insert sent as
 * FerretDB stopped never settled, and the event's consumer waited on it for good (docs/decisions.md,
 * "Webhooks"). Without a server, the driver itself fails within two server selections (5 s each,
 * a retryable write is retried once), so an answer this late is not coming.
 */
export const ANSWER_DEADLINE_MS = 10_000;

/** `p`, or a transient failure (the kit's consumers retry it) once `ms` have passed without an answer. */
function answered<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new MongoNetworkTimeoutError(`${what}: no answer from the database within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** A due time every scheduled attempt is after: bounds the index walk of the queue's size (final deliveries hold null). */
const SCHEDULED: Filter<DeliveryDoc> = { next_attempt_at: { $gte: new Date(0) } };

export class MongoDeliveries implements DeliveryStore {
  private readonly coll: Collection<DeliveryDoc>;
  /** A burst's inserts and results go out as one bulk write per turn (the dispatcher's hot path). */
  private readonly batch: WriteBatch<DeliveryDoc>;
  /** The `stored` questions of one turn, answered by one read (every event of a Kafka batch asks at once). */
  private asked: { ids: readonly string[]; resolve: (found: Set<string>) => void; reject: (err: unknown) => void }[] = [];

  /** @param answerDeadlineMs how long a write or the `stored` read may go unanswered (ANSWER_DEADLINE_MS; tests shorten it). */
  constructor(
    db: Db,
    private readonly answerDeadlineMs = ANSWER_DEADLINE_MS,
  ) {
    this.coll = db.collection<DeliveryDoc>(Collections.deliveries);
    this.batch = new WriteBatch(this.coll);
  }

  add(d: Delivery): Promise<boolean> {
    return answered(this.batch.insertOnce(toDoc(d)), this.answerDeadlineMs, "delivery insert");
  }

  async get(id: string): Promise<Delivery | undefined> {
    const d = await this.coll.findOne({ _id: id });
    return d ? fromDoc(d) : undefined;
  }

  stored(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return Promise.resolve(new Set());
    return new Promise((resolve, reject) => {
      if (this.asked.push({ ids, resolve, reject }) === 1) setImmediate(() => void this.readStored());
    });
  }

  private async readStored(): Promise<void> {
    const asked = this.asked.splice(0);
    try {
      const ids = [...new Set(asked.flatMap((a) => a.ids))];
      const read = this.coll.find({ _id: { $in: ids } }, { projection: { _id: 1 } }).toArray();
      const found = new Set((await answered(read, this.answerDeadlineMs, "read of recorded deliveries")).map((d) => d._id));
      for (const a of asked) a.resolve(new Set(a.ids.filter((id) => found.has(id))));
    } catch (err) {
      for (const a of asked) a.reject(err);
    }
  }

  async due(now: Date, limit: number): Promise<string[]> {
    const docs = await this.coll
      .find({ next_attempt_at: { $lte: now } }, { projection: { _id: 1 } })
      .sort({ next_attempt_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => d._id);
  }

  async take(id: string, now: Date, leaseUntil: Date, manual: boolean): Promise<Delivery | undefined> {
    // A live lease keeps the delivery due at its end, so "due" also means "nobody holds it".
    const free: Filter<DeliveryDoc> = manual ? { $or: [{ lease_until: null }, { lease_until: { $lt: now } }] } : { next_attempt_at: { $lte: now } };
    const taken = await this.coll.findOneAndUpdate(
      { _id: id, ...free },
      { $set: { lease_until: leaseUntil, next_attempt_at: leaseUntil } },
      { returnDocument: "after" },
    );
    return taken ? fromDoc(taken) : undefined;
  }

  settle(d: Delivery, lease: Date): Promise<void> {
    return answered(this.batch.updateOne({ _id: d.id, lease_until: lease }, { $set: stateOf(d) }), this.answerDeadlineMs, "delivery result");
  }

  async list(orgId: string, webhookId: string, filter: DeliveryFilter, skip: number, limit: number): Promise<Page<Delivery>> {
    const q: Filter<DeliveryDoc> = { org_id: orgId, webhook_id: webhookId };
    if (filter.status) q.status = filter.status;
    if (filter.event) q.event = filter.event;
    const { items, total } = await pageOf(this.coll, q, { _id: -1 }, skip, limit);
    return { items: items.map(fromDoc), total };
  }

  async replayFailed(orgId: string, webhookId: string, from: Date, to: Date, now: Date, limit: number): Promise<number> {
    const final = { status: "failed", next_attempt_at: null } as const;
    const ids = await this.coll
      .find({ org_id: orgId, webhook_id: webhookId, ...final, created_at: { $gte: from, $lt: to } }, { projection: { _id: 1 } })
      .sort({ created_at: 1 })
      .limit(limit)
      .toArray();
    if (ids.length === 0) return 0;
    const { modifiedCount } = await this.coll.updateMany({ _id: { $in: ids.map((d) => d._id) }, ...final }, { $set: { next_attempt_at: now } });
    return modifiedCount;
  }

  async stats() {
    const [depth, earliest] = await Promise.all([
      this.coll.countDocuments(SCHEDULED),
      this.coll.findOne(SCHEDULED, { sort: { next_attempt_at: 1 }, projection: { next_attempt_at: 1 } }),
    ]);
    return { depth, ...(earliest?.next_attempt_at ? { oldestDueAt: earliest.next_attempt_at } : {}) };
  }
}
