import { upsertOrUpdate } from "@vulnscan/kit";
import type { Collection, Db } from "mongodb";
import type { AttemptCounter, AttemptCount } from "../domain/ports.js";
import { Collections } from "./collections.js";

interface AttemptDoc {
  /** `<key>@<window start>`: one counter per key and fixed window. */
  _id: string;
  key: string;
  n: number;
  /** The window's end, for the housekeeping purge. */
  expires_at: Date;
}

/**
 * Attempt counters in fixed windows aligned to the window length: one `$inc` upsert per attempt,
 * which returns the count including it, so parallel guesses each see a different count and
 * cannot slip past the limit together.
 */
export class MongoAttemptCounter implements AttemptCounter {
  private readonly coll: Collection<AttemptDoc>;
  constructor(db: Db) {
    this.coll = db.collection<AttemptDoc>(Collections.loginAttempts);
  }

  async hit(key: string, now: Date, windowMs: number): Promise<AttemptCount> {
    const start = Math.floor(now.getTime() / windowMs) * windowMs;
    const resetsAt = new Date(start + windowMs);
    // Two first writers of a window may race to insert its counter: the second updates the first's.
    const doc = await upsertOrUpdate((upsert) =>
      this.coll.findOneAndUpdate(
        { _id: `${key}@${start}` },
        { $inc: { n: 1 }, $setOnInsert: { key, expires_at: resetsAt } },
        { upsert, returnDocument: "after" },
      ),
    );
    return { count: doc!.n, resetsAt }; // the document exists once either write returns
  }

  async unhit(key: string, now: Date, windowMs: number): Promise<void> {
    const start = Math.floor(now.getTime() / windowMs) * windowMs;
    // By `_id` alone, like hit (one query shape); only ever after a hit of the same window, so n stays >= 0.
    await this.coll.findOneAndUpdate({ _id: `${key}@${start}` }, { $inc: { n: -1 } });
  }

  async reset(key: string): Promise<void> {
    await this.coll.deleteMany({ key });
  }

  async resetPrefix(prefix: string): Promise<void> {
    // A range on the key index: every key that starts with the prefix, nothing else.
    await this.coll.deleteMany({ key: { $gte: prefix, $lt: `${prefix}\uffff` } });
  }

  /** Deletes the counters of windows that are over (there is no TTL index to do it). */
  async purgeExpired(now = new Date()): Promise<number> {
    return (await this.coll.deleteMany({ expires_at: { $lt: now } })).deletedCount;
  }
}
