import { describe, expect, it } from "vitest";
import { hasPrefix, newId, randomHex } from "./ids.js";

describe("random ids", () => {
  it("are hex of the asked length and never repeat, across refills of the pool", () => {
    const ids = Array.from({ length: 2000 }, (_, i) => randomHex(i % 2 === 0 ? 16 : 8));
    for (const [i, id] of ids.entries()) expect(id).toMatch(i % 2 === 0 ? /^[0-9a-f]{32}$/ : /^[0-9a-f]{16}$/);
    // 2000 ids of 8 or 16 bytes take 24,000 bytes: the 4 KiB pool is refilled five times.
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("newId", () => {
  it("starts with the creation time, so ids sort by it, and ends in 16 random hex digits", () => {
    const a = newId("scan", 1_000);
    const b = newId("scan", 2_000);
    expect(hasPrefix(a, "scan")).toBe(true);
    expect(a.slice(5, 17)).toBe((1_000).toString(16).padStart(12, "0"));
    expect(a < b).toBe(true);
    expect(newId("scan", 1_000)).not.toBe(a);
  });
});
