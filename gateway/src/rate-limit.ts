import { type FieldTypes, type IndexSpec, upsertOrUpdate } from "@vulnscan/kit";
import { LRUCache } from "lru-cache";
import type { Collection, Db } from "mongodb";
import { upTo } from "@vulnscan/kit/lru";

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

/** One window of one organization: `_id` `<org id>:<h|d>:<window index>`. */
interface CounterDoc {
  _id: string;
  /** Positions reserved by every replica; passes the limit by what the last blocks did not use. */
  n: number;
  /** The day after the window ends, for the prune. */
  expires_at: Date;
}

const COLLECTION = "rate_counters";
export const rateLimitIndexes: IndexSpec[] = [{ collection: COLLECTION, key: { expires_at: 1 } }];
export const rateLimitFields: FieldTypes = { [COLLECTION]: { _id: "string", expires_at: "date" } };

const HOUR = 3600;
const DAY = 86_400;
// A block is sized to about a second of this replica's traffic, within these bounds.
const MIN_BLOCK = 100;
const MAX_BLOCK = 20_000;
/** Windows whose blocks a replica keeps (an hour and a day per organization it serves). */
const MAX_WINDOWS = 20_000;

interface Block {
  start: number;
  next: number;
  /** Last position of the block (inclusive), never past the limit. */
  end: number;
}

interface Local {
  /** Blocks owned by this replica, in order; positions are handed out from the first. */
  blocks: Block[];
  /** No position is left: a reservation reached the limit. */
  full: boolean;
  /** The count of the window as of our last reservation (everyone's positions). */
  knownEnd: number;
  /** The reservation in flight, shared by every request waiting for it. */
  reserving?: Promise<void>;
  /** Requests of this replica waiting for the reservation in flight (they take the next block at once). */
  waiting: number;
  /** Requests of the current and previous second, to size blocks to about a second of traffic. */
  second: number;
  thisSecond: number;
  lastSecond: number;
}

/**
 * Fixed windows per organization (hour, then day), counted in the gateway's own database so
 * every replica counts the same requests: one counter document per window, and a replica
 * reserves a block of positions with one `$inc` of the block size, which returns the count
 * after it, so two replicas never get the same position and none past the limit is handed out.
 * To keep the database off the hot path, positions are handed out from memory. A block is
 * about one second of this replica's traffic for the organization (at least 100, at most
 * 20,000) but never more than 1/16 of what is left in the window, down to single positions at
 * the boundary, so N concurrent requests at the boundary admit exactly the remaining capacity;
 * a block is still as large as the number of requests waiting for it (they take it at once, so
 * it strands nothing), so a burst at the boundary waits for one reservation rather than one per
 * request (bench/load). The next block is reserved in the background when half of the current
 * one is used, so a request waits for the database only when a replica starts or traffic jumps.
 * A replica that stops getting traffic may leave part of its blocks unused: the window then
 * admits slightly fewer, never more. A request refused by the hourly window takes no daily
 * position.
 */
export class RateLimiter {
  private readonly counters: Collection<CounterDoc>;
  // Past windows are never read again: the least recently used are the first to go.
  private readonly local = new LRUCache<string, Local>(upTo(MAX_WINDOWS));

  constructor(db: Db) {
    this.counters = db.collection<CounterDoc>(COLLECTION);
  }

  /** The window's count after adding `size` positions to it. */
  private async add(id: string, size: number, expiresAt: Date): Promise<number> {
    // Replicas opening a window together may race to insert its counter: the second updates the first's.
    const doc = await upsertOrUpdate((upsert) =>
      this.counters.findOneAndUpdate({ _id: id }, { $inc: { n: size }, $setOnInsert: { expires_at: expiresAt } }, { upsert, returnDocument: "after" }),
    );
    return doc!.n; // the document exists once either write returns
  }

  private reserve(id: string, l: Local, limit: number, expiresAt: Date): Promise<void> {
    if (l.reserving) return l.reserving;
    const traffic = Math.max(l.thisSecond, l.lastSecond);
    // Never fewer than the requests already waiting: they use the block as soon as it comes, so
    // it strands nothing, and a burst at the boundary costs one reservation instead of one per request.
    const size = Math.max(1, l.waiting, Math.min(Math.max(MIN_BLOCK, Math.min(MAX_BLOCK, traffic)), Math.floor((limit - l.knownEnd) / 16)));
    l.reserving = this.add(id, size, expiresAt)
      .then((n) => {
        const start = n - size + 1;
        if (start <= limit) l.blocks.push({ start, next: start, end: Math.min(n, limit) });
        l.knownEnd = Math.max(l.knownEnd, n);
        if (n >= limit) l.full = true;
      })
      .finally(() => {
        l.reserving = undefined;
      });
    return l.reserving;
  }

  /** A position in window `id`, or undefined when the window is full. */
  private async position(id: string, limit: number, expiresAt: Date, now: number): Promise<number | undefined> {
    let l = this.local.get(id);
    if (!l) {
      l = { blocks: [], full: false, knownEnd: 0, waiting: 0, second: 0, thisSecond: 0, lastSecond: 0 };
      this.local.set(id, l);
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
        // Half used and nothing queued behind it: reserve the next one before it runs out (not
        // near the boundary, where single positions are reserved as they are needed).
        if (l.blocks.length === 1 && !l.full && 2 * (block.next - block.start) >= block.end - block.start + 1 && limit - l.knownEnd >= 32) {
          void this.reserve(id, l, limit, expiresAt).catch(() => undefined);
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
        await this.reserve(id, l, limit, expiresAt);
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

  /** Deletes the counters of windows long over (FerretDB has no TTL index to do it). */
  async prune(now = new Date()): Promise<number> {
    return (await this.counters.deleteMany({ expires_at: { $lt: now } })).deletedCount;
  }
}
