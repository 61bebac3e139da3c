import { isDuplicateKey } from "@vulnscan/kit";
import type { Collection, Db } from "mongodb";
import { PROCESSED_DETECTIONS } from "./indexes.js";

/**
 * Detection ids already applied. The kit's ProcessedEvents does the same job, but it looks ids
 * up with countDocuments, which FerretDB v1 runs as a collection scan; this looks them up by
 * `_id` alone (pushed down to SQLite), which matters with one marker per detection.
 */
export class ProcessedDetections {
  private readonly coll: Collection<{ _id: string; processed_at: Date }>;

  constructor(db: Db) {
    this.coll = db.collection(PROCESSED_DETECTIONS);
  }

  async seen(id: string): Promise<boolean> {
    return (await this.coll.findOne({ _id: id }, { projection: { _id: 1 } })) !== null;
  }

  async record(id: string): Promise<void> {
    try {
      await this.coll.insertOne({ _id: id, processed_at: new Date() });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }

  /** Marks many (one unordered bulk insert; ids already marked are fine). */
  async recordMany(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      await this.coll.insertMany(
        ids.map((id) => ({ _id: id, processed_at: new Date() })),
        { ordered: false },
      );
    } catch (err) {
      const list = [(err as { writeErrors?: unknown }).writeErrors ?? []].flat() as { code?: number }[];
      if (list.length === 0 || list.some((w) => w.code !== 11000)) throw err;
    }
  }

  async prune(olderThan: Date): Promise<number> {
    return (await this.coll.deleteMany({ processed_at: { $lt: olderThan } })).deletedCount;
  }
}
