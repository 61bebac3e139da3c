import type { Db } from "mongodb";
import type { FieldTypes } from "./field-types.js";
import { insertOnce, type IndexSpec } from "./mongo.js";

const COLLECTION = "processed_events";

export const processedEventsIndexes: IndexSpec[] = [
  // No TTL index (FerretDB v1 lacks them): old markers are pruned by prune().
  { collection: COLLECTION, key: { processed_at: 1 } },
];

/** Keys are `<consumer>:<event id>`; markers are stamped with a Date. */
export const processedEventsFieldTypes: FieldTypes = { [COLLECTION]: { _id: "string", processed_at: "date" } };

/**
 * Kafka delivers at least once. A consumer records each event id it has applied and
 * skips ids it has seen, so a redelivered event changes nothing. The marker is written
 * after the handler succeeds: a crash in between reapplies the event, which handlers
 * make harmless with upserts keyed by natural keys.
 */
export class ProcessedEvents {
  constructor(
    private readonly db: Db,
    private readonly consumer: string,
  ) {}

  private key(eventId: string) {
    return `${this.consumer}:${eventId}`;
  }

  async seen(eventId: string): Promise<boolean> {
    return (await this.db.collection<{ _id: string }>(COLLECTION).countDocuments({ _id: this.key(eventId) }, { limit: 1 })) > 0;
  }

  async record(eventId: string): Promise<void> {
    await insertOnce(this.db.collection<{ _id: string; processed_at: Date }>(COLLECTION), { _id: this.key(eventId), processed_at: new Date() });
  }

  async prune(olderThan: Date): Promise<number> {
    const res = await this.db.collection(COLLECTION).deleteMany({ processed_at: { $lt: olderThan } });
    return res.deletedCount;
  }
}
