import type { Collection, Db } from "mongodb";
import type { FieldTypes } from "./field-types.js";
import { isDuplicateKey, type IndexSpec } from "./mongo.js";

/*
 * Exact counting without atomic read-modify-write. FerretDB v1 (SQLite) applies `$inc` and
 * conditional updates outside a transaction, so concurrent increments are lost (measured:
 * 100 parallel `$inc` left a count of 12). Inserting a document whose `_id` already exists,
 * however, fails atomically on every MongoDB-protocol server.
 *
 * So a count is a run of block documents `<key>#1 … <key>#j`; block i holds the positions
 * [start_i, start_i + size_i - 1] and starts right after block i-1. A caller owns a block when
 * its insert succeeds. Blocks are only inserted right after the last existing one, so they stay
 * contiguous, positions are never handed out twice, and no position beyond `limit` exists.
 * Callers wanting one position at a time (quotas) take blocks of size 1; a busy caller (the
 * rate limiter) takes bigger blocks and hands positions out from memory.
 */

interface BlockDoc {
  _id: string;
  key: string;
  start?: number;
  size?: number;
  /** On the hint document only: a block index known to exist (a lower bound of the last one). */
  n?: number;
  expires_at: Date;
}

export interface Block {
  /** First position of the block, 1-based. */
  start: number;
  /** Last position of the block (inclusive). */
  end: number;
}

export const slotIndexes = (collection: string): IndexSpec[] => [
  { collection, key: { expires_at: 1 } },
  { collection, key: { key: 1 } },
];

/** The fields SlotCounter queries: block and hint documents alike (BlockDoc). */
export const slotFieldTypes = (collection: string): FieldTypes => ({ [collection]: { _id: "string", key: "string", expires_at: "date" } });

export class SlotCounter {
  private readonly blocks: Collection<BlockDoc>;

  constructor(db: Db, collection: string) {
    this.blocks = db.collection<BlockDoc>(collection);
  }

  private exists(key: string, j: number): Promise<boolean> {
    return this.blocks.countDocuments({ _id: `${key}#${j}` }, { limit: 1 }).then((c) => c > 0);
  }

  /** End position of block j (0 for the empty run before block 1). */
  private async endOf(key: string, j: number): Promise<number> {
    if (j === 0) return 0;
    const doc = await this.blocks.findOne({ _id: `${key}#${j}` });
    if (!doc) throw new Error(`block ${key}#${j} vanished`); // only pruning deletes blocks, after their window
    return (doc.start ?? j) + (doc.size ?? 1) - 1;
  }

  /** A block index known to exist (0 when none): lost hint updates only make it lower. */
  private async hint(key: string): Promise<number> {
    return (await this.blocks.findOne({ _id: `${key}#hint` }))?.n ?? 0;
  }

  private async raiseHint(key: string, j: number, expiresAt: Date): Promise<void> {
    try {
      await this.blocks.updateOne({ _id: `${key}#hint` }, { $max: { n: j }, $setOnInsert: { key, expires_at: expiresAt } }, { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // a concurrent first upsert; the hint is best-effort
    }
  }

  /** Index of the last existing block, at or above `lo` (known to exist, or 0). */
  private async last(key: string, lo: number): Promise<number> {
    let step = 1;
    let hi: number;
    for (;;) {
      if (await this.exists(key, lo + step)) {
        lo += step;
        step *= 2;
      } else {
        hi = lo + step;
        break;
      }
    }
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await this.exists(key, mid)) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Takes the next `size` positions of `key` (fewer if only fewer remain below `limit`);
   * undefined when all `limit` positions are taken.
   */
  async takeBlock(key: string, limit: number, size: number, expiresAt: Date): Promise<Block | undefined> {
    let j = await this.last(key, await this.hint(key));
    for (;;) {
      const prevEnd = await this.endOf(key, j);
      if (prevEnd >= limit) return undefined;
      const start = prevEnd + 1;
      const take = Math.max(1, Math.min(size, limit - prevEnd));
      try {
        await this.blocks.insertOne({ _id: `${key}#${j + 1}`, key, start, size: take, expires_at: expiresAt });
        await this.raiseHint(key, j + 1, expiresAt);
        return { start, end: start + take - 1 };
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        j = await this.last(key, j + 1);
      }
    }
  }

  /** Takes the next position (1-based) if fewer than `limit` are taken; undefined otherwise. */
  async take(key: string, limit: number, expiresAt: Date): Promise<number | undefined> {
    return (await this.takeBlock(key, limit, 1, expiresAt))?.start;
  }

  /** How many positions of `key` are taken (exact, capped at `limit`). */
  async count(key: string, limit: number): Promise<number> {
    const end = await this.endOf(key, await this.last(key, await this.hint(key)));
    return Math.min(end, limit);
  }

  /** Deletes every count whose key starts with `prefix` (a reset: its positions start over). */
  async forget(prefix: string): Promise<number> {
    const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return (await this.blocks.deleteMany({ key: { $regex: `^${escaped}` } })).deletedCount;
  }

  /** Blocks are pruned by hand: FerretDB v1 has no TTL indexes. */
  async prune(now = new Date()): Promise<number> {
    return (await this.blocks.deleteMany({ expires_at: { $lt: now } })).deletedCount;
  }
}
