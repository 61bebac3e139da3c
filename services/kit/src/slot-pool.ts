import type { Collection, Db } from "mongodb";
import type { FieldTypes } from "./field-types.js";
import { isDuplicateKey, type IndexSpec } from "./mongo.js";

/*
 * An exact pool of at most `limit` concurrent holders (e.g. running scans per organization),
 * for servers without atomic read-modify-write. FerretDB v1 loses concurrent `$inc` and lets
 * several compare-and-set writers win (see slot-counter.ts); a duplicate `_id` insert, though,
 * fails atomically everywhere. So the pool of `key` is the slot documents `<key>#1 … <key>#limit`:
 * a holder owns slot p when its insert of `<key>#p` succeeds, and gives it back by deleting it.
 * Whatever the interleaving, no two holders own one slot, so at most `limit` hold at once.
 *
 * Unlike SlotCounter, slots come back, so the held ones need not be contiguous.
 */

interface PoolSlotDoc {
  _id: string;
  key: string;
  slot: number;
  holder: string;
  acquired_at: Date;
}

export interface PoolSlot {
  key: string;
  slot: number;
  holder: string;
  acquiredAt: Date;
}

/** Reads before giving up under extreme contention (each round, someone else won a slot). */
const MAX_ROUNDS = 5;

export const slotPoolIndexes = (collection: string): IndexSpec[] => [
  { collection, key: { key: 1, holder: 1 } },
  { collection, key: { acquired_at: 1 } },
];

/** The fields SlotPool queries (PoolSlotDoc). */
export const slotPoolFieldTypes = (collection: string): FieldTypes => ({
  [collection]: { _id: "string", key: "string", holder: "string", acquired_at: "date" },
});

export class SlotPool {
  private readonly slots: Collection<PoolSlotDoc>;

  constructor(db: Db, collection: string) {
    this.slots = db.collection<PoolSlotDoc>(collection);
  }

  /**
   * Takes a free slot of `key` for `holder`: returns its number (1..limit), or undefined when
   * all `limit` slots are held. A holder that calls twice holds two slots: holders are meant
   * to be unique per use (a scan id).
   *
   * It reads which slots are held and inserts into the free ones in order; a read that shows
   * all `limit` held is a true "full" at that instant. Losing every free slot to concurrent
   * callers just means reading again.
   */
  async acquire(key: string, limit: number, holder: string, now = new Date()): Promise<number | undefined> {
    if (limit <= 0) return undefined;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const held = new Set((await this.slots.find({ key }, { projection: { slot: 1 } }).toArray()).map((d) => d.slot));
      if ([...held].filter((p) => p >= 1 && p <= limit).length >= limit) return undefined;
      for (let slot = 1; slot <= limit; slot++) {
        if (held.has(slot)) continue;
        try {
          await this.slots.insertOne({ _id: `${key}#${slot}`, key, slot, holder, acquired_at: now });
          return slot;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
      }
    }
    return undefined;
  }

  /** Gives back every slot of `key` held by `holder`; true when one was held. Safe to repeat. */
  async release(key: string, holder: string): Promise<boolean> {
    return (await this.slots.deleteMany({ key, holder })).deletedCount > 0;
  }

  /** The slots of `key` now held. */
  async held(key: string): Promise<PoolSlot[]> {
    const docs = await this.slots.find({ key }).sort({ slot: 1 }).toArray();
    return docs.map(toSlot);
  }

  /** Slots of every key acquired before `before`, oldest first (for reconciling leaked slots). */
  async heldBefore(before: Date, limit = 1000): Promise<PoolSlot[]> {
    const docs = await this.slots
      .find({ acquired_at: { $lt: before } })
      .sort({ acquired_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toSlot);
  }
}

const toSlot = (d: PoolSlotDoc): PoolSlot => ({ key: d.key, slot: d.slot, holder: d.holder, acquiredAt: d.acquired_at });
