import { SlotCounter, slotIndexes, type IndexSpec } from "@vulnscan/kit";
import type { Db } from "mongodb";

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

const COLLECTION = "rate_counters";
export const rateLimitIndexes: IndexSpec[] = slotIndexes(COLLECTION);

const HOUR = 3600;
const DAY = 86_400;

/**
 * Fixed windows per organization (hour, then day), counted in the gateway's own database so
 * every replica counts the same requests. Counting uses the kit's SlotCounter, which is exact
 * under concurrency even on FerretDB v1: of N concurrent requests at the boundary exactly the
 * remaining capacity is admitted. A request refused by the hourly window takes no daily slot.
 */
export class RateLimiter {
  private readonly counter: SlotCounter;

  constructor(db: Db) {
    this.counter = new SlotCounter(db, COLLECTION);
  }

  async hit(orgId: string, limits: RateLimits, now = Date.now()): Promise<RateDecision | undefined> {
    const nowS = Math.floor(now / 1000);
    const windows = [
      { name: "h", size: HOUR, limit: limits.perHour },
      { name: "d", size: DAY, limit: limits.perDay },
    ].filter((w): w is { name: string; size: number; limit: number } => w.limit !== undefined);
    if (windows.length === 0) return undefined;

    let remaining = Number.POSITIVE_INFINITY;
    for (const w of windows) {
      const index = Math.floor(nowS / w.size);
      const reset = (index + 1) * w.size;
      const position = await this.counter.take(`${orgId}:${w.name}:${index}`, w.limit, new Date((reset + w.size) * 1000));
      if (position === undefined) {
        return { allowed: false, limit: windows[0]!.limit, remaining: 0, reset, retryAfterSeconds: Math.max(1, reset - nowS) };
      }
      remaining = Math.min(remaining, w.limit - position);
    }
    const first = windows[0]!;
    return {
      allowed: true,
      limit: first.limit,
      remaining,
      reset: (Math.floor(nowS / first.size) + 1) * first.size,
      retryAfterSeconds: 0,
    };
  }

  prune(now = new Date()): Promise<number> {
    return this.counter.prune(now);
  }
}
