import { LRUCache } from "lru-cache";
import type { MonthlyCounter } from "../domain/ports.js";

interface Entry {
  /** Positions known taken (exact as of `at`, or raised by this replica's own takes since). */
  used: number;
  at: number;
  refreshing?: Promise<number>;
}

/**
 * GET /api/v1/scans/quota answered from memory. Counting a month exactly costs a few `_id`
 * lookups on the SlotCounter's documents (table scans on FerretDB), too much for every quota
 * request, so the count is kept per month key: this replica's own takes raise it at once; a
 * read older than `freshMs` starts a refresh in the background and answers what it has; only a
 * read older than `maxStaleMs` (or the first) waits for the database. So `used_this_month` can
 * trail scans created on another orchestrator replica by about `freshMs`. Taking a position
 * (what enforces the quota) always goes to the database and stays exact.
 */
export class CachedMonthlyCounter implements MonthlyCounter {
  /** Bounded: the least recently read month keys go first. Ages are this class's own (fresh/stale). */
  private readonly entries: LRUCache<string, Entry>;

  constructor(
    private readonly inner: MonthlyCounter,
    private readonly opts: { freshMs?: number; maxStaleMs?: number; maxEntries?: number; now?: () => number } = {},
  ) {
    this.entries = new LRUCache({ max: opts.maxEntries ?? 10_000 });
  }

  private get now(): number {
    return (this.opts.now ?? Date.now)();
  }

  async take(key: string, limit: number, expiresAt: Date): Promise<number | undefined> {
    const position = await this.inner.take(key, limit, expiresAt);
    const e = this.entries.get(key);
    if (position !== undefined && e) e.used = Math.max(e.used, position);
    return position;
  }

  async count(key: string, limit: number): Promise<number> {
    const now = this.now;
    const e = this.entries.get(key);
    const age = e ? now - e.at : Number.POSITIVE_INFINITY;
    if (e && age <= (this.opts.freshMs ?? 1000)) return Math.min(e.used, limit);
    if (e && age <= (this.opts.maxStaleMs ?? 5000)) {
      void this.refresh(key).catch(() => undefined);
      return Math.min(e.used, limit);
    }
    return Math.min(await this.refresh(key), limit);
  }

  private refresh(key: string): Promise<number> {
    const e = this.entries.get(key);
    if (e?.refreshing) return e.refreshing;
    const startedAt = this.now;
    const p = this.inner.count(key, Number.MAX_SAFE_INTEGER).then((used) => {
      const cur = this.entries.get(key);
      // A take that finished meanwhile may know more than the read: keep the higher count.
      const next = Math.max(used, cur?.used ?? 0);
      this.entries.set(key, { used: next, at: startedAt });
      return next;
    });
    if (e) e.refreshing = p;
    p.finally(() => {
      const cur = this.entries.get(key);
      if (cur?.refreshing === p) delete cur.refreshing;
    }).catch(() => undefined);
    return p;
  }
}
