import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { Binary, type Db, type Document } from "mongodb";
import { randomUUID } from "node:crypto";
import type { KafkaBus } from "./kafka.js";
import type { Logger } from "./logger.js";
import type { FieldTypes } from "./field-types.js";
import type { IndexSpec } from "./index-spec.js";
import { startPeriodic, type PeriodicJob } from "./periodic.js";

/**
 * Transactional outbox without transactions. An event is written into the same document as
 * the state change it describes (`outbox` array, one atomic single-document update), then
 * published and removed. If the process dies in between, the relay publishes it later;
 * consumers deduplicate by envelope id, so publishing twice is harmless.
 */
export interface PendingEvent {
  id: string;
  topic: string;
  key: string;
  type: string;
  envelope: Binary;
  created_at: Date;
}

/**
 * A record that is not an EventEnvelope (a command for a worker, say), kept in an outbox of
 * its own (`field`) and published the same way: `value` under the `message_type` header.
 */
export interface PendingMessage {
  id: string;
  topic: string;
  key: string;
  message_type: string;
  value: Binary;
  created_at: Date;
}

type Pending = PendingEvent | PendingMessage;

const bytesOf = (p: Pending) => Buffer.from(("envelope" in p ? p.envelope : p.value).buffer);
const messageTypeOf = (p: Pending) => ("envelope" in p ? EventEnvelopeSchema.typeName : p.message_type);

/** Type, organization and payload of an event; the outbox assigns id and time. */
export interface EnvelopeInit {
  type: string;
  orgId: string;
  payload: MessageInitShape<typeof EventEnvelopeSchema>["payload"];
}

/**
 * Builds the pending event for `withOutbox`; `id` is given where an event announced again must
 * repeat its id (consumers de-duplicate by it), else new.
 */
export function pendingEvent(topic: string, key: string, init: EnvelopeInit, occurredAt = new Date(), id = `evt_${randomUUID()}`): PendingEvent {
  const envelope = create(EventEnvelopeSchema, {
    id,
    type: init.type,
    orgId: init.orgId,
    payload: init.payload,
    occurredAt: timestampFromDate(occurredAt),
  });
  return {
    id,
    topic,
    key,
    type: envelope.type,
    envelope: new Binary(toBinary(EventEnvelopeSchema, envelope)),
    created_at: occurredAt,
  };
}

/**
 * Adds events (or, with `field`, other records) to an update of the document whose state they
 * describe, merging $set and $push; the update as it was when there are none.
 */
export function withOutbox(update: Document, records: Pending[], field = "outbox"): Document {
  if (records.length === 0) return update;
  return {
    ...update,
    $set: { ...(update.$set ?? {}), [`${field}_pending`]: true },
    $push: { ...(update.$push ?? {}), [field]: { $each: records } },
  };
}

/** Fields for a new document created together with its events (or, with `field`, other records). */
export function outboxFields(events: PendingEvent[]): { outbox: PendingEvent[]; outbox_pending: boolean };
export function outboxFields(records: Pending[], field: string): Record<string, Pending[] | boolean>;
export function outboxFields(records: Pending[], field = "outbox"): Record<string, Pending[] | boolean> {
  return { [field]: records, [`${field}_pending`]: records.length > 0 };
}

export const outboxIndexes = (collection: string, field = "outbox"): IndexSpec[] => [
  { collection, key: { [`${field}_pending`]: 1 }, options: { name: `${field}_pending` } },
];

/** The relay's flag (`<field>_pending`, always a boolean: withOutbox, outboxFields, flush). */
export const outboxFieldTypes = (collection: string, field = "outbox"): FieldTypes => ({ [collection]: { [`${field}_pending`]: "bool" } });

export interface OutboxOptions {
  /** Relay period. */
  intervalMs?: number;
  /** The relay leaves younger records to the writer's own fast-path flush, so both do not publish them. */
  minAgeMs?: number;
  /** The array the records live in (`<field>_pending` flags a document that has some). */
  field?: string;
}

export class Outbox {
  private relay?: PeriodicJob;

  private readonly intervalMs: number;
  private readonly minAgeMs: number;
  private readonly field: string;

  constructor(
    private readonly db: Db,
    private readonly kafka: KafkaBus,
    private readonly logger: Logger,
    private readonly collections: string[],
    opts: OutboxOptions = {},
  ) {
    this.intervalMs = opts.intervalMs ?? 2000;
    this.minAgeMs = opts.minAgeMs ?? 2000;
    this.field = opts.field ?? "outbox";
  }

  /** Publishes a document's pending records now (the fast path right after a write). */
  async flush(collection: string, docId: unknown, olderThan?: Date): Promise<void> {
    const { field } = this;
    const coll = this.db.collection(collection);
    const doc = await coll.findOne({ _id: docId } as Document, { projection: { [field]: 1 } });
    const all = (doc?.[field] ?? []) as Pending[];
    const records = olderThan ? all.filter((r) => r.created_at < olderThan) : all;
    if (records.length === 0) return;
    for (const r of records) {
      await this.kafka.publishRaw(r.topic, r.key, bytesOf(r), messageTypeOf(r));
      // $pull the element exactly as read: FerretDB v1 matches $pull by whole-value equality
      // only (a sub-query like { id: ... } or $in matches nothing there).
      await coll.updateOne({ _id: docId } as Document, { $pull: { [field]: r } } as Document);
    }
    await coll.updateOne({ _id: docId, [field]: { $size: 0 } } as Document, { $set: { [`${field}_pending`]: false } });
  }

  /** Flush without failing the caller: the state is stored, the relay will retry. */
  async flushSoon(collection: string, docId: unknown): Promise<void> {
    await this.flush(collection, docId).catch((err) =>
      this.logger.warn({ err: (err as Error).message, collection, outbox: this.field }, "outbox flush failed; relay will retry"),
    );
  }

  /** One pass over every document with pending events at least `minAgeMs` old. */
  async relayOnce(minAgeMs = this.minAgeMs): Promise<number> {
    const olderThan = new Date(Date.now() - minAgeMs + 1);
    let n = 0;
    for (const collection of this.collections) {
      const pending = this.db
        .collection(collection)
        .find({ [`${this.field}_pending`]: true }, { projection: { _id: 1 } })
        .limit(500);
      for await (const doc of pending) {
        await this.flush(collection, doc._id, olderThan);
        n++;
      }
    }
    return n;
  }

  start(): void {
    this.relay ??= startPeriodic({ name: `outbox relay pass (${this.field})`, intervalMs: this.intervalMs, run: () => this.relayOnce(), logger: this.logger });
  }

  async stop(): Promise<void> {
    const relay = this.relay;
    this.relay = undefined;
    await relay?.stop();
  }
}
