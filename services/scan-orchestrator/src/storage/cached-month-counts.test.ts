import { setImmediate as tick } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { ScanLimits } from "../domain/ports.js";
import { CachedMonthCounts } from "./cached-month-counts.js";

/** Exact in-memory month counts that record how often they were read. */
function limits(): ScanLimits & { counted: Map<string, number>; reads: number } {
  const counted = new Map<string, number>();
  return {
    counted,
    reads: 0,
    holdPlace: async () => true,
    freePlace: async () => undefined,
    placesHeld: async () => [],
    async countScan(orgId, month, limit) {
      const n = counted.get(`${orgId}:${month}`) ?? 0;
      if (n >= limit) return false;
      counted.set(`${orgId}:${month}`, n + 1);
      return true;
    },
    async scansCounted(orgId, month) {
      this.reads++;
      return counted.get(`${orgId}:${month}`) ?? 0;
    },
  };
}

describe("CachedMonthCounts (quota reads from memory)", () => {
  it("reads the database once, then answers from memory; its own counts show at once", async () => {
    const inner = limits();
    const c = new CachedMonthCounts(inner, { freshMs: 1000, maxStaleMs: 5000, now: () => 0 });
    await inner.countScan("org", "2026-11", 10);
    expect(await c.scansCounted("org", "2026-11")).toBe(1);
    expect(await c.scansCounted("org", "2026-11")).toBe(1);
    expect(await c.countScan("org", "2026-11", 10)).toBe(true);
    expect(await c.scansCounted("org", "2026-11")).toBe(2);
    expect(await c.countScan("org", "2026-11", 2)).toBe(false); // enforcement is the database's
    expect(await c.scansCounted("org", "2026-11")).toBe(2);
    expect(inner.reads).toBe(1);
  });

  it("sees other replicas' counts after a refresh: in the background when slightly old, waited for when too old", async () => {
    let now = 0;
    const inner = limits();
    const c = new CachedMonthCounts(inner, { freshMs: 1000, maxStaleMs: 5000, now: () => now });
    expect(await c.scansCounted("k", "m")).toBe(0);
    inner.counted.set("k:m", 3); // another replica created three scans
    now = 1500;
    expect(await c.scansCounted("k", "m")).toBe(0); // answered from memory, refresh started
    await tick();
    expect(await c.scansCounted("k", "m")).toBe(3);
    inner.counted.set("k:m", 4);
    now = 10_000;
    expect(await c.scansCounted("k", "m")).toBe(4); // too old: waits for the database
  });

  it("keeps at most maxEntries months, dropping the least recently read", async () => {
    const inner = limits();
    const c = new CachedMonthCounts(inner, { maxEntries: 2, now: () => 0 });
    await c.scansCounted("a", "m");
    await c.scansCounted("b", "m");
    await c.scansCounted("a", "m");
    await c.scansCounted("c", "m");
    expect(inner.reads).toBe(3);
    await c.scansCounted("a", "m");
    expect(inner.reads).toBe(3);
    await c.scansCounted("b", "m");
    expect(inner.reads).toBe(4);
  });
});
