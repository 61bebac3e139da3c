import type { Collection, Db } from "mongodb";
import { upsertOrUpdate } from "@vulnscan/kit";
import type { HourlyBudget } from "../domain/ports.js";
import { Collections } from "./collections.js";

interface BudgetDoc {
  /** `<org>#<hour>` */
  _id: string;
  /** Positions handed out in the hour (may pass the limit: those past it are nobody's). */
  n: number;
  expires_at: Date;
}

/** Positions taken from the hour's count at once and handed out from memory (one write per block). */
const BLOCK = 8;

/**
 * Events/hour per organization: a count per hour that replicas `$inc` by a block of positions
 * while it is under the limit; a position is one event, and only positions up to the limit are
 * used. Positions left over when a replica stops are lost, which can only make the cap stricter,
 * never exceed it.
 */
export class MongoHourlyBudget implements HourlyBudget {
  private readonly coll: Collection<BudgetDoc>;
  /** Per `<org>#<hour>`: the positions of this replica's block not yet handed out, or that the hour is spent (for good: counts only grow). */
  private readonly local = new Map<string, { next: number; end: number; spent?: true }>();
  /** Per `<org>#<hour>`: the block being taken (callers meanwhile wait for it rather than take more). */
  private readonly refills = new Map<string, Promise<boolean>>();

  constructor(db: Db) {
    this.coll = db.collection<BudgetDoc>(Collections.budget);
  }

  async take(orgId: string, limit: number, now: Date): Promise<boolean> {
    if (limit <= 0) return false;
    const hour = new Date(now);
    hour.setUTCMinutes(0, 0, 0);
    const key = `${orgId}#${hour.toISOString()}`;
    for (;;) {
      const held = this.local.get(key);
      if (held && held.next <= held.end) {
        held.next++;
        return true;
      }
      if (held?.spent) return false;
      if (!(await (this.refills.get(key) ?? this.refill(key, limit, hour)))) return false;
    }
  }

  private refill(key: string, limit: number, hour: Date): Promise<boolean> {
    const refill = this.takeBlock(key, limit, new Date(hour.getTime() + 2 * 3600_000))
      .then((n) => {
        for (const k of this.local.keys()) if (!k.endsWith(hour.toISOString())) this.local.delete(k);
        this.local.set(key, n === undefined ? { next: 1, end: 0, spent: true } : { next: n - BLOCK + 1, end: Math.min(n, limit) });
        return n !== undefined;
      })
      .finally(() => this.refills.delete(key));
    this.refills.set(key, refill);
    return refill;
  }

  /** The count after taking a block, or undefined when the hour's limit was reached. */
  private async takeBlock(key: string, limit: number, expiresAt: Date): Promise<number | undefined> {
    // A full hour's count makes the upsert collide, and the update then matches nothing.
    const doc = await upsertOrUpdate((upsert) =>
      this.coll.findOneAndUpdate({ _id: key, n: { $lt: limit } }, { $inc: { n: BLOCK }, $set: { expires_at: expiresAt } }, { upsert, returnDocument: "after" }),
    );
    return doc?.n;
  }

  async prune(now: Date): Promise<number> {
    return (await this.coll.deleteMany({ expires_at: { $lt: now } })).deletedCount;
  }
}
