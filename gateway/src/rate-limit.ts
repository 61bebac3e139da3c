import { isDuplicateKey, type IndexSpec } from "@vulnscan/kit";
import type { Collection, Db } from "mongodb";

export interface RateLimits {
  /** undefined = unlimited */
  perHour?: number;
  perDay?: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the binding window resets. */
  reset: number;
  retryAfterSeconds: number;
}

interface CounterDoc {
  _id: string;
  count: number;
  expires_at: Date;
}

const COLLECTION = "rate_counters";
export const rateLimitIndexes: IndexSpec[] = [{ collection: COLLECTION, key: { expires_at: 1 } }];

const HOUR = 3600;
const DAY = 86_400;

/**
 * Fixed-window counters per organization (hour and day), kept in the gateway's own database so
 * every replica counts the same requests. Each request is one atomic `$inc` per window, so N
 * concurrent requests get the counts 1..N and exactly `limit` of them are admitted. Requests
 * refused for the rate limit still count: hammering does not earn capacity back.
 */
export class RateLimiter {
  private readonly counters: Collection<CounterDoc>;

  constructor(db: Db) {
    this.counters = db.collection<CounterDoc>(COLLECTION);
  }

  private async increment(id: string, expiresAt: Date): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      try {
        const doc = await this.counters.findOneAndUpdate(
          { _id: id },
          { $inc: { count: 1 }, $setOnInsert: { expires_at: expiresAt } },
          { upsert: true, returnDocument: "after" },
        );
        return doc?.count ?? 1;
      } catch (err) {
        // Two first requests of a window can both try to insert; the loser retries as an update.
        if (!isDuplicateKey(err) || attempt >= 3) throw err;
      }
    }
  }

  async hit(orgId: string, limits: RateLimits, now = Date.now()): Promise<RateDecision | undefined> {
    const nowS = Math.floor(now / 1000);
    const windows = [
      { name: "h", size: HOUR, limit: limits.perHour },
      { name: "d", size: DAY, limit: limits.perDay },
    ].filter((w): w is { name: string; size: number; limit: number } => w.limit !== undefined);
    if (windows.length === 0) return undefined;

    const results = await Promise.all(
      windows.map(async (w) => {
        const index = Math.floor(nowS / w.size);
        const reset = (index + 1) * w.size;
        const count = await this.increment(`${orgId}:${w.name}:${index}`, new Date((reset + w.size) * 1000));
        return { ...w, count, reset, remaining: Math.max(0, w.limit - count) };
      }),
    );
    const exceeded = results.filter((r) => r.count > r.limit);
    // The hourly window is the one advertised; when the day runs out first, that is what binds.
    const binding = exceeded.sort((a, b) => b.reset - a.reset)[0] ?? results[0]!;
    return {
      allowed: exceeded.length === 0,
      limit: results[0]!.limit,
      remaining: Math.min(...results.map((r) => r.remaining)),
      reset: binding.reset,
      retryAfterSeconds: Math.max(1, binding.reset - nowS),
    };
  }

  /** Counters are pruned by hand: FerretDB v1 has no TTL indexes. */
  async prune(now = new Date()): Promise<number> {
    return (await this.counters.deleteMany({ expires_at: { $lt: now } })).deletedCount;
  }
}
