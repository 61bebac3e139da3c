import { LRUCache } from "lru-cache";
import { upTo } from "@vulnscan/kit/lru";
import type { ScanLimits } from "../domain/ports.js";

interface Entry {
  /** Scans counted in the month, as last read (raised at once by this replica's own counts). */
  counted: number;
  at: number;
  refreshing?: Promise<number>;
}

/**
 * GET /api/v1/scans/quota answered from memory: reading the month's counter is a database round
 * trip, too much for every quota request, so each month's count is kept here. This replica's
 * own counts raise it at once; a read older than `freshMs` starts a refresh in the background and
 * answers what it has; only a read older than `maxStaleMs` (or the first) waits for the database.
 * So `used_this_month` may trail scans created on another replica by about `freshMs`. Counting a
 * scan (what enforces the quota) always goes to the database and stays exact.
 */
export class CachedMonthCounts implements ScanLimits {
  /** Bounded: the least recently read months go first. */
  private readonly entries: LRUCache<string, Entry>;

  constructor(
    private readonly inner: ScanLimits,
    private readonly opts: { freshMs?: number; maxStaleMs?: number; maxEntries?: number; now?: () => number } = {},
  ) {
    this.entries = new LRUCache(upTo(opts.maxEntries ?? 10_000));
  }

  holdPlace(orgId: string, scanId: string, limit: number): Promise<boolean> {
    return this.inner.holdPlace(orgId, scanId, limit);
  }

  freePlace(orgId: string, scanId: string): Promise<void> {
    return this.inner.freePlace(orgId, scanId);
  }

  placesHeld(): Promise<{ orgId: string; scanId: string }[]> {
    return this.inner.placesHeld();
  }

  async countScan(orgId: string, month: string, limit: number): Promise<boolean> {
    const counted = await this.inner.countScan(orgId, month, limit);
    const e = this.entries.get(`${orgId}:${month}`);
    if (counted && e) e.counted += 1;
    return counted;
  }

  async scansCounted(orgId: string, month: string): Promise<number> {
    const key = `${orgId}:${month}`;
    const now = this.now();
    const e = this.entries.get(key);
    const age = e ? now - e.at : Number.POSITIVE_INFINITY;
    if (e && age <= (this.opts.freshMs ?? 1000)) return e.counted;
    if (e && age <= (this.opts.maxStaleMs ?? 5000)) {
      void this.refresh(orgId, month).catch(() => undefined);
      return e.counted;
    }
    return this.refresh(orgId, month);
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  private refresh(orgId: string, month: string): Promise<number> {
    const key = `${orgId}:${month}`;
    const e = this.entries.get(key);
    if (e?.refreshing) return e.refreshing;
    const startedAt = this.now();
    const p = this.inner.scansCounted(orgId, month).then((read) => {
      // A count made meanwhile by this replica may be newer than the read: keep the higher.
      const counted = Math.max(read, this.entries.get(key)?.counted ?? 0);
      this.entries.set(key, { counted, at: startedAt });
      return counted;
    });
    if (e) e.refreshing = p;
    p.finally(() => {
      const cur = this.entries.get(key);
      if (cur?.refreshing === p) delete cur.refreshing;
    }).catch(() => undefined);
    return p;
  }
}
