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
 * every replica counts the same requests. Counting uses the kit's SlotCounter, exact under
 * concurrency even on FerretDB v1. To keep the database off the hot path, a replica claims
 * positions in blocks and hands them out from memory; blocks shrink as a window fills (1/16
 * of what is left, at most 100), down to single positions at the boundary, so N concurrent
 * requests at the boundary admit exactly the remaining capacity. A replica that stops getting
 * traffic may leave part of its last block unused: the window then admits slightly fewer, never
 * more. A request refused by the hourly window takes no daily position.
 */
export class RateLimiter {
  private readonly counter: SlotCounter;
  private readonly local = new Map<string, { next: number; end: number; full: boolean; expiresAt: number }>();
  private readonly claims = new Map<string, Promise<void>>();

  constructor(db: Db) {
    this.counter = new SlotCounter(db, COLLECTION);
  }

  /** A position in `key`'s window, or undefined when the window is full. */
  private async position(key: string, limit: number, expiresAt: Date): Promise<number | undefined> {
    for (;;) {
      const block = this.local.get(key);
      if (block && block.next <= block.end) return block.next++;
      if (block?.full) return undefined;
      let claim = this.claims.get(key);
      if (!claim) {
        const knownEnd = block?.end ?? 0;
        const size = Math.max(1, Math.min(100, Math.floor((limit - knownEnd) / 16)));
        claim = this.counter
          .takeBlock(key, limit, size, expiresAt)
          .then((b) => {
            this.local.set(key, b ? { next: b.start, end: b.end, full: false, expiresAt: expiresAt.getTime() } : { next: 1, end: 0, full: true, expiresAt: expiresAt.getTime() });
          })
          .finally(() => this.claims.delete(key));
        this.claims.set(key, claim);
      }
      await claim;
    }
  }

  async hit(orgId: string, limits: RateLimits, now = Date.now()): Promise<RateDecision | undefined> {
    const nowS = Math.floor(now / 1000);
    const windows = [
      { name: "h", size: HOUR, limit: limits.perHour },
      { name: "d", size: DAY, limit: limits.perDay },
    ].filter((w): w is { name: string; size: number; limit: number } => w.limit !== undefined);
    if (windows.length === 0) return undefined;
    this.sweep(now);

    let remaining = Number.POSITIVE_INFINITY;
    for (const w of windows) {
      const index = Math.floor(nowS / w.size);
      const reset = (index + 1) * w.size;
      const position = await this.position(`${orgId}:${w.name}:${index}`, w.limit, new Date((reset + w.size) * 1000));
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

  /** Forgets blocks of windows that have passed. */
  private sweep(now: number): void {
    if (this.local.size < 1000) return;
    for (const [key, b] of this.local) if (b.expiresAt < now) this.local.delete(key);
  }

  prune(now = new Date()): Promise<number> {
    return this.counter.prune(now);
  }
}
