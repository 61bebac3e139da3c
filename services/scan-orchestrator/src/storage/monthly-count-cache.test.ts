import { describe, expect, it } from "vitest";
import type { MonthlyCounter } from "../domain/ports.js";
import { CachedMonthlyCounter } from "./monthly-count-cache.js";

/** An exact in-memory counter that records how often it was asked to count. */
function counter(): MonthlyCounter & { taken: Map<string, number>; counts: number } {
  const taken = new Map<string, number>();
  return {
    taken,
    counts: 0,
    async take(key, limit) {
      const n = taken.get(key) ?? 0;
      if (n >= limit) return undefined;
      taken.set(key, n + 1);
      return n + 1;
    },
    async count(key, limit) {
      this.counts++;
      return Math.min(taken.get(key) ?? 0, limit);
    },
  };
}

describe("CachedMonthlyCounter (quota reads from memory)", () => {
  it("reads the database once, then answers from memory; its own takes count at once", async () => {
    const now = 0;
    const inner = counter();
    const c = new CachedMonthlyCounter(inner, { freshMs: 1000, maxStaleMs: 5000, now: () => now });
    await inner.take("org:m", 10, new Date());
    expect(await c.count("org:m", 10)).toBe(1);
    expect(await c.count("org:m", 10)).toBe(1);
    expect(inner.counts).toBe(1);
    expect(await c.take("org:m", 10, new Date())).toBe(2);
    expect(await c.count("org:m", 10)).toBe(2);
    expect(await c.count("org:m", 1)).toBe(1); // capped at the limit asked for
    expect(inner.counts).toBe(1);
  });

  it("sees other replicas' takes after a refresh: background when slightly old, waited for when too old", async () => {
    let now = 0;
    const inner = counter();
    const c = new CachedMonthlyCounter(inner, { freshMs: 1000, maxStaleMs: 5000, now: () => now });
    expect(await c.count("k", 100)).toBe(0);
    inner.taken.set("k", 3); // another replica created three scans
    now = 1500;
    expect(await c.count("k", 100)).toBe(0); // answered from memory, refresh started
    await new Promise((r) => setImmediate(r));
    expect(await c.count("k", 100)).toBe(3);
    inner.taken.set("k", 4);
    now = 10_000;
    expect(await c.count("k", 100)).toBe(4); // too old: waits for the database
  });
});

describe("CachedMonthlyCounter bound", () => {
  it("keeps at most maxEntries month keys, dropping the least recently read", async () => {
    const inner = counter();
    const c = new CachedMonthlyCounter(inner, { maxEntries: 2, now: () => 0 });
    await c.count("a", 10);
    await c.count("b", 10);
    await c.count("a", 10);
    await c.count("c", 10);
    expect(inner.counts).toBe(3);
    await c.count("a", 10);
    expect(inner.counts).toBe(3);
    await c.count("b", 10);
    expect(inner.counts).toBe(4);
  });
});
