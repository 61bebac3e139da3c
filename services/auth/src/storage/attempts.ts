import { isDuplicateKey } from "@vulnscan/kit";
import type { Collection, Db } from "mongodb";
import type { AttemptCounter } from "../domain/ports.js";
import { Collections } from "./collections.js";

interface AttemptDoc {
  _id: string;
  count: number;
  window_started_at: Date;
}

/**
 * Fixed-window attempt counters, one document per key. Both steps are single-document
 * atomic writes (no transactions, no update pipelines: FerretDB v1 has neither): increment
 * inside a live window, else start a new window; a lost race shows up as a duplicate key
 * and is simply retried.
 */
export class MongoAttemptCounter implements AttemptCounter {
  private readonly coll: Collection<AttemptDoc>;
  constructor(db: Db) {
    this.coll = db.collection<AttemptDoc>(Collections.loginAttempts);
  }

  async hit(key: string, now: Date, windowMs: number): Promise<number> {
    const cutoff = new Date(now.getTime() - windowMs);
    for (let attempt = 0; attempt < 5; attempt++) {
      const live = await this.coll.findOneAndUpdate(
        { _id: key, window_started_at: { $gt: cutoff } },
        { $inc: { count: 1 } },
        { returnDocument: "after" },
      );
      if (live) return live.count;
      try {
        const fresh = await this.coll.findOneAndUpdate(
          { _id: key, window_started_at: { $lte: cutoff } },
          { $set: { count: 1, window_started_at: now } },
          { upsert: true, returnDocument: "after" },
        );
        if (fresh) return fresh.count;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    }
    throw new Error(`attempt counter ${key}: too much contention`);
  }

  async reset(key: string): Promise<void> {
    await this.coll.deleteOne({ _id: key });
  }

  /** Deletes counters whose window is over (there is no TTL index to do it). */
  async purgeEndedBefore(cutoff: Date): Promise<number> {
    const r = await this.coll.deleteMany({ window_started_at: { $lt: cutoff } });
    return r.deletedCount;
  }
}
