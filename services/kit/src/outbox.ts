import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { Binary, type Db, type Document } from "mongodb";
import { randomUUID } from "node:crypto";
import type { KafkaBus } from "./kafka.js";
import type { Logger } from "./logger.js";
import type { IndexSpec } from "./mongo.js";

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

/** Type, organization and payload of an event; the outbox assigns id and time. */
export interface EnvelopeInit {
  type: string;
  orgId: string;
  payload: MessageInitShape<typeof EventEnvelopeSchema>["payload"];
}

/** Builds the pending event for `$push: { outbox: ... }` (see `outboxPush`). */
export function pendingEvent(topic: string, key: string, init: EnvelopeInit, occurredAt = new Date()): PendingEvent {
  const id = `evt_${randomUUID()}`;
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

/** Adds events to an update of the document whose state they describe (merging $set and $push). */
export function withOutbox(update: Document, events: PendingEvent[]): Document {
  return {
    ...update,
    $set: { ...(update.$set ?? {}), outbox_pending: true },
    $push: { ...(update.$push ?? {}), outbox: { $each: events } },
  };
}

/** Fields for a new document created together with its events. */
export function outboxFields(events: PendingEvent[]): { outbox: PendingEvent[]; outbox_pending: boolean } {
  return { outbox: events, outbox_pending: events.length > 0 };
}

export const outboxIndexes = (collection: string): IndexSpec[] => [
  { collection, key: { outbox_pending: 1 }, options: { name: "outbox_pending" } },
];

export class Outbox {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly kafka: KafkaBus,
    private readonly logger: Logger,
    private readonly collections: string[],
    private readonly intervalMs = 2000,
    /** The relay leaves younger events to the writer's own fast-path flush, so both do not publish them. */
    private readonly minAgeMs = 2000,
  ) {}

  /** Publishes a document's pending events now (the fast path right after a write). */
  async flush(collection: string, docId: unknown, olderThan?: Date): Promise<void> {
    const coll = this.db.collection(collection);
    const doc = await coll.findOne({ _id: docId } as Document, { projection: { outbox: 1 } });
    const all = (doc?.outbox ?? []) as PendingEvent[];
    const events = olderThan ? all.filter((ev) => ev.created_at < olderThan) : all;
    if (events.length === 0) return;
    for (const ev of events) {
      await this.kafka.publishRaw(ev.topic, ev.key, Buffer.from(ev.envelope.buffer), EventEnvelopeSchema.typeName);
      // $pull the element exactly as read: FerretDB v1 matches $pull by whole-value equality
      // only (a sub-query like { id: ... } or $in matches nothing there).
      await coll.updateOne({ _id: docId } as Document, { $pull: { outbox: ev } } as Document);
    }
    await coll.updateOne({ _id: docId, outbox: { $size: 0 } } as Document, { $set: { outbox_pending: false } });
  }

  /** Flush without failing the caller: the state is stored, the relay will retry. */
  async flushSoon(collection: string, docId: unknown): Promise<void> {
    await this.flush(collection, docId).catch((err) =>
      this.logger.warn({ err: (err as Error).message, collection }, "outbox flush failed; relay will retry"),
    );
  }

  /** One pass over every document with pending events at least `minAgeMs` old. */
  async relayOnce(minAgeMs = this.minAgeMs): Promise<number> {
    const olderThan = new Date(Date.now() - minAgeMs + 1);
    let n = 0;
    for (const collection of this.collections) {
      const pending = this.db.collection(collection).find({ outbox_pending: true }, { projection: { _id: 1 } }).limit(500);
      for await (const doc of pending) {
        await this.flush(collection, doc._id, olderThan);
        n++;
      }
    }
    return n;
  }

  start(): void {
    const tick = () => {
      this.running = this.relayOnce()
        .then(() => undefined)
        .catch((err) => this.logger.warn({ err: (err as Error).message }, "outbox relay pass failed"))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    this.timer = setTimeout(tick, this.intervalMs);
  }

  async stop(): Promise<void> {
    const t = this.timer;
    this.timer = undefined;
    if (t) clearTimeout(t);
    await this.running;
  }
}
