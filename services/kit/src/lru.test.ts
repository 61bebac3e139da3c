import v8 from "node:v8";
import { LRUCache } from "lru-cache";
import { describe, expect, it } from "vitest";
import { upTo } from "./lru.js";

/** V8's large objects, young and old (an array of 100,000 slots is one). */
const largeObjectBytes = () =>
  v8
    .getHeapSpaceStatistics()
    .filter((s) => s.space_name === "large_object_space" || s.space_name === "new_large_object_space")
    .reduce((sum, s) => sum + s.space_used_size, 0);

describe("upTo", () => {
  it("evicts the least recently used entry past the count, as max does", () => {
    const cache = new LRUCache<string, number>(upTo(3));
    for (const k of ["a", "b", "c"]) cache.set(k, 1);
    cache.get("a");
    cache.set("d", 1);
    expect([...cache.keys()].sort()).toEqual(["a", "c", "d"]);
    expect(cache.size).toBe(3);
  });

  it("allocates nothing per entry before entries arrive", () => {
    // With max: 100,000 lru-cache allocates two 800 kB arrays at once (V8's large objects).
    const before = largeObjectBytes();
    const cache = new LRUCache<string, number>(upTo(100_000));
    expect(largeObjectBytes() - before).toBeLessThan(256 * 1024);
    cache.set("a", 1);
    expect(cache.get("a")).toBe(1);
  });
});
