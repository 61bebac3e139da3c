import type { Collection, Db } from "mongodb";
import { isDuplicateKey, SlotCounter, WriteBatch } from "@vulnscan/kit";
import type { HourlyBudget, Schedule } from "../domain/ports.js";
import { Collections } from "./collections.js";

interface EntryDoc {
  _id: string;
  due_at: Date;
}

interface LeaseDoc {
  _id: string;
  expires_at: Date;
}

/*
 * Leases are insert-once documents, not conditional updates: FerretDB v1 runs conditional
 * updates as read-modify-write and lets two writers win, while a duplicate `_id` insert fails
 * atomically everywhere (DESIGN.md §4). An expired lease (its holder died mid-attempt) is
 * deleted under its expiry condition and taken by a fresh insert, which again only one wins.
 */
export class MongoSchedule implements Schedule {
  /** Entries and leases are inserted and deleted many at a time (the hot path's cost is per command). */
  private readonly entryWrites: WriteBatch<EntryDoc>;
  private readonly leaseWrites: WriteBatch<LeaseDoc>;
  private readonly firstLeaseWrites: WriteBatch<LeaseDoc>;

  private constructor(
    private readonly entries: Collection<EntryDoc>,
    private readonly leases: Collection<LeaseDoc>,
    private readonly firstLeases: Collection<LeaseDoc>,
  ) {
    this.entryWrites = new WriteBatch(entries);
    this.leaseWrites = new WriteBatch(leases);
    this.firstLeaseWrites = new WriteBatch(firstLeases);
  }

  static of(db: Db): MongoSchedule {
    return new MongoSchedule(
      db.collection<EntryDoc>(Collections.schedule),
      db.collection<LeaseDoc>(Collections.leases),
      db.collection<LeaseDoc>(Collections.firstLeases),
    );
  }

  /** Attempt 1's leases are the exactly-once keys and live apart, never pruned. */
  private leasesOf(attempt: number) {
    return attempt === 1 ? { coll: this.firstLeases, writes: this.firstLeaseWrites } : { coll: this.leases, writes: this.leaseWrites };
  }

  put(deliveryId: string, dueAt: Date): Promise<void> {
    return this.upsert(deliveryId, { $set: { due_at: dueAt } });
  }

  enter(deliveryId: string, dueAt: Date): Promise<void> {
    return this.upsert(deliveryId, { $min: { due_at: dueAt } });
  }

  private async upsert(deliveryId: string, update: { $set: Partial<EntryDoc> } | { $min: Partial<EntryDoc> }): Promise<void> {
    try {
      await this.entries.updateOne({ _id: deliveryId }, update, { upsert: true });
    } catch (err) {
      // Two first upserts of one entry: the other one created it; apply ours to it.
      if (!isDuplicateKey(err)) throw err;
      await this.entries.updateOne({ _id: deliveryId }, update);
    }
  }

  async remove(deliveryId: string): Promise<void> {
    await this.entryWrites.remove(deliveryId);
  }

  async due(now: Date, limit: number) {
    const docs = await this.entries
      .find({ due_at: { $lte: now } })
      .sort({ due_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => ({ deliveryId: d._id, dueAt: d.due_at }));
  }

  async stats() {
    const [depth, oldest] = await Promise.all([this.entries.estimatedDocumentCount(), this.entries.find({}).sort({ due_at: 1 }).limit(1).next()]);
    return { depth, ...(oldest ? { oldestDueAt: oldest.due_at } : {}) };
  }

  async claim(deliveryId: string, attempt: number, now: Date, leaseMs: number) {
    const { coll, writes } = this.leasesOf(attempt);
    const _id = `${deliveryId}#${attempt}`;
    const lease = { _id, expires_at: new Date(now.getTime() + leaseMs) };
    if (await writes.insertOnce(lease)) return "fresh" as const;
    if ((await coll.deleteOne({ _id, expires_at: { $lt: now } })).deletedCount === 0) return undefined;
    return (await writes.insertOnce(lease)) ? ("retaken" as const) : undefined;
  }

  async release(deliveryId: string, attempt: number): Promise<void> {
    await this.leasesOf(attempt).coll.updateOne({ _id: `${deliveryId}#${attempt}` }, { $set: { expires_at: new Date(0) } });
  }

  /** Leases of later attempts long expired (their attempts recorded or abandoned). */
  async prune(before: Date): Promise<number> {
    return (await this.leases.deleteMany({ expires_at: { $lt: before } })).deletedCount;
  }
}

/** Positions handed out from one block before the next is taken (fewer database round trips). */
const BLOCK = 8;

/**
 * Events/hour per organization on the kit's exact SlotCounter, one count per hour. A replica
 * takes positions in small blocks and hands them out from memory; positions left over when a
 * replica stops are lost, which can only make the cap stricter, never exceed it.
 */
export class MongoHourlyBudget implements HourlyBudget {
  private readonly counter: SlotCounter;
  private readonly local = new Map<string, { next: number; end: number }>();

  constructor(db: Db) {
    this.counter = new SlotCounter(db, Collections.budget);
  }

  async take(orgId: string, limit: number, now: Date): Promise<boolean> {
    const hour = new Date(now);
    hour.setUTCMinutes(0, 0, 0);
    const key = `${orgId}#${hour.toISOString()}`;
    const held = this.local.get(key);
    if (held && held.next <= held.end) {
      held.next++;
      return true;
    }
    const block = await this.counter.takeBlock(key, limit, BLOCK, new Date(hour.getTime() + 2 * 3600_000));
    if (!block) return false;
    for (const k of this.local.keys()) if (!k.endsWith(hour.toISOString())) this.local.delete(k);
    this.local.set(key, { next: block.start + 1, end: block.end });
    return true;
  }

  prune(now: Date): Promise<number> {
    return this.counter.prune(now);
  }
}
