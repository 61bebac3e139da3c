import { SlotCounter, slotFieldTypes, slotIndexes, type FieldTypes, type IndexSpec } from "@vulnscan/kit";
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
export const rateLimitFields: FieldTypes = slotFieldTypes(COLLECTION);

const HOUR = 3600;
const DAY = 86_400;
// A block is sized to about a second of this replica's traffic, within these bounds.
const MIN_BLOCK = 100;
const MAX_BLOCK = 20_000;

interface Block {
  start: number;
  next: number;
  end: number;
}

interface Local {
  /** Blocks owned by this replica, in order; positions are handed out from the first. */
  blocks: Block[];
  /** The window is full (a claim found no position left). */
  full: boolean;
  /** The highest position known to be taken by anyone (our last block's end). */
  knownEnd: number;
  expiresAt: number;
  /** Requests of this replica waiting for the claim in flight (they take the next block at once). */
  waiting: number;
  /** Requests of the current and previous second, to size blocks to about a second of traffic. */
  second: number;
  thisSecond: number;
  lastSecond: number;
}

/**
 * Fixed windows per organization (hour, then day), counted in the gateway's own database so
 * every replica counts the same requests. Counting uses the kit's SlotCounter, exact under
 * concurrency even on FerretDB v1. To keep the database off the hot path, a replica claims
 * positions in blocks and hands them out from memory. A block is about one second of this
 * replica's traffic for the organization (at least 100, at most 20,000) but never more than
 * 1/16 of what is left in the window, down to single positions at the boundary, so N
 * concurrent requests at the boundary admit exactly the remaining capacity; a block is still as
 * large as the number of requests waiting for it (they take it at once, so it strands nothing),
 * so a burst at the boundary waits for one claim rather than one per request (bench/load). The next block is
 * claimed in the background when half of the current one is used, so a request waits for the
 * database only when a replica starts or traffic jumps. A replica that stops getting traffic
 * may leave part of its blocks unused: the window then admits slightly fewer, never more. A
 * request refused by the hourly window takes no daily position.
 */
export class RateLimiter {
  private readonly counter: SlotCounter;
  private readonly local = new Map<string, Local>();
  private readonly claims = new Map<string, Promise<void>>();

  constructor(db: Db) {
    this.counter = new SlotCounter(db, COLLECTION);
  }

  private claim(key: string, l: Local, limit: number, expiresAt: Date): Promise<void> {
    let claim = this.claims.get(key);
    if (claim) return claim;
    const traffic = Math.max(l.thisSecond, l.lastSecond);
    // Never fewer than the requests already waiting: they use the block as soon as it comes, so
    // it strands nothing, and a burst at the boundary costs one claim instead of one per request.
    const size = Math.max(1, l.waiting, Math.min(Math.max(MIN_BLOCK, Math.min(MAX_BLOCK, traffic)), Math.floor((limit - l.knownEnd) / 16)));
    claim = this.counter
      .takeBlock(key, limit, size, expiresAt)
      .then((b) => {
        if (!b) l.full = true;
        else {
          l.blocks.push({ start: b.start, next: b.start, end: b.end });
          l.knownEnd = Math.max(l.knownEnd, b.end);
        }
      })
      .finally(() => this.claims.delete(key));
    this.claims.set(key, claim);
    return claim;
  }

  /** A position in `key`'s window, or undefined when the window is full. */
  private async position(key: string, limit: number, expiresAt: Date, now: number): Promise<number | undefined> {
    let l = this.local.get(key);
    if (!l) {
      l = { blocks: [], full: false, knownEnd: 0, expiresAt: expiresAt.getTime(), waiting: 0, second: 0, thisSecond: 0, lastSecond: 0 };
      this.local.set(key, l);
    }
    const second = Math.floor(now / 1000);
    if (second !== l.second) {
      l.lastSecond = second === l.second + 1 ? l.thisSecond : 0;
      l.thisSecond = 0;
      l.second = second;
    }
    l.thisSecond++;
    for (;;) {
      const block = l.blocks[0];
      if (block && block.next <= block.end) {
        const p = block.next++;
        // Half used and nothing queued behind it: claim the next one before it runs out (not
        // near the boundary, where single positions are claimed as they are needed).
        if (l.blocks.length === 1 && !l.full && 2 * (block.next - block.start) >= block.end - block.start + 1 && limit - l.knownEnd >= 32) {
          void this.claim(key, l, limit, expiresAt).catch(() => undefined);
        }
        return p;
      }
      if (block) {
        l.blocks.shift();
        continue;
      }
      if (l.full) return undefined;
      l.waiting++;
      try {
        await this.claim(key, l, limit, expiresAt);
      } finally {
        l.waiting--;
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
    this.sweep(now);

    let remaining = Number.POSITIVE_INFINITY;
    for (const w of windows) {
      const index = Math.floor(nowS / w.size);
      const reset = (index + 1) * w.size;
      const position = await this.position(`${orgId}:${w.name}:${index}`, w.limit, new Date((reset + w.size) * 1000), now);
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
