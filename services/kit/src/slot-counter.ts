import type { Collection, Db } from "mongodb";
import { isDuplicateKey, type IndexSpec } from "./mongo.js";

/*
 * Exact counting without atomic read-modify-write. FerretDB v1 (SQLite) applies `$inc` and
 * conditional updates outside a transaction, so concurrent increments are lost (measured:
 * 100 parallel `$inc` left a count of 12). Inserting a document whose `_id` already exists,
 * however, fails atomically on every MongoDB-protocol server. So a count is a run of slot
 * documents `<key>#1 … <key>#n`: a caller owns position p when its insert of `<key>#p`
 * succeeds. Callers insert only at the first free position, so the taken slots always form
 * the contiguous run 1..n, and at most `limit` callers ever succeed.
 */

interface SlotDoc {
  _id: string;
  key: string;
  n?: number;
  expires_at: Date;
}

export const slotIndexes = (collection: string): IndexSpec[] => [
  { collection, key: { expires_at: 1 } },
  { collection, key: { key: 1 } },
];

export class SlotCounter {
  private readonly slots: Collection<SlotDoc>;

  constructor(db: Db, collection: string) {
    this.slots = db.collection<SlotDoc>(collection);
  }

  private exists(key: string, n: number): Promise<boolean> {
    return this.slots.countDocuments({ _id: `${key}#${n}` }, { limit: 1 }).then((c) => c > 0);
  }

  /** A lower bound of the taken count (a hint: lost updates only make it lower). */
  private async hint(key: string): Promise<number> {
    const doc = await this.slots.findOne({ _id: `${key}#hint` });
    return doc?.n ?? 0;
  }

  private async raiseHint(key: string, n: number, expiresAt: Date): Promise<void> {
    try {
      await this.slots.updateOne({ _id: `${key}#hint` }, { $max: { n }, $setOnInsert: { key, expires_at: expiresAt } }, { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // a concurrent first upsert; the hint is best-effort
    }
  }

  /** First free position above `lo` (known taken), by galloping then bisecting over existence. */
  private async firstFree(key: string, lo: number, limit: number): Promise<number> {
    let step = 1;
    let hi = limit + 1;
    while (lo + step <= limit) {
      if (await this.exists(key, lo + step)) {
        lo += step;
        step *= 2;
      } else {
        hi = lo + step;
        break;
      }
    }
    if (hi === limit + 1 && lo < limit && (await this.exists(key, limit))) return limit + 1;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await this.exists(key, mid)) lo = mid;
      else hi = mid;
    }
    return lo + 1;
  }

  /**
   * Takes the next position of `key` if fewer than `limit` are taken: returns it (1-based),
   * or undefined when all `limit` positions are taken.
   */
  async take(key: string, limit: number, expiresAt: Date): Promise<number | undefined> {
    let candidate = (await this.hint(key)) + 1;
    for (;;) {
      if (candidate > limit) return undefined;
      try {
        await this.slots.insertOne({ _id: `${key}#${candidate}`, key, expires_at: expiresAt });
        await this.raiseHint(key, candidate, expiresAt);
        return candidate;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        candidate = await this.firstFree(key, candidate, limit);
      }
    }
  }

  /** How many positions of `key` are taken (exact). */
  async count(key: string, limit: number): Promise<number> {
    const lo = await this.hint(key);
    if (lo >= limit) return limit;
    if (!(await this.exists(key, lo + 1))) return lo;
    return (await this.firstFree(key, lo + 1, limit)) - 1;
  }

  /** Slots are pruned by hand: FerretDB v1 has no TTL indexes. */
  async prune(now = new Date()): Promise<number> {
    return (await this.slots.deleteMany({ expires_at: { $lt: now } })).deletedCount;
  }
}
