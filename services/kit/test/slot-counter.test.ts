import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { createMongo, ensureIndexes, type MongoHandle } from "../src/mongo.js";
import { SlotCounter, slotFieldTypes, slotIndexes } from "../src/slot-counter.js";

let mongo: MongoHandle;
beforeAll(async () => {
  mongo = createMongo(inject("mongoUrl"), unique("slots"), "kit-test");
  await ensureIndexes(mongo.db, slotIndexes("slots"), { fields: slotFieldTypes("slots") });
});
afterAll(async () => {
  await mongo.db.dropDatabase().catch(() => undefined);
  await mongo.close();
});

describe("SlotCounter on a real MongoDB-protocol server", () => {
  const later = new Date(Date.now() + 3600_000);

  it("hands out each position once under concurrency, and never more than the limit", async () => {
    const a = new SlotCounter(mongo.db, "slots");
    const b = new SlotCounter(mongo.db, "slots");
    const got = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).take("k1", 45, later)));
    const taken = got.filter((p): p is number => p !== undefined).sort((x, y) => x - y);
    expect(taken).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    expect(got.filter((p) => p === undefined)).toHaveLength(15);
    expect(await a.count("k1", 45)).toBe(45);
    expect(await a.take("k1", 45, later)).toBeUndefined();
  });

  it("hands out blocks of positions without overlap, shrinking the last one to the limit", async () => {
    const c = new SlotCounter(mongo.db, "slots");
    const blocks = await Promise.all(Array.from({ length: 12 }, () => c.takeBlock("kb", 50, 8, later)));
    const got = blocks.filter((b): b is { start: number; end: number } => b !== undefined).sort((x, y) => x.start - y.start);
    const positions = got.flatMap((b) => Array.from({ length: b.end - b.start + 1 }, (_, i) => b.start + i));
    expect(positions).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(got.at(-1)).toEqual({ start: 49, end: 50 });
    expect(blocks.filter((b) => b === undefined)).toHaveLength(5);
    expect(await c.count("kb", 50)).toBe(50);
  });

  it("counts exactly, keys are independent, and expired slots are pruned", async () => {
    const c = new SlotCounter(mongo.db, "slots");
    for (let i = 0; i < 7; i++) await c.take("k2", 100, new Date(Date.now() - 1000));
    expect(await c.count("k2", 100)).toBe(7);
    expect(await c.count("k3", 100)).toBe(0);
    expect(await c.take("k3", 100, later)).toBe(1);
    expect(await c.prune()).toBe(8); // seven blocks and the hint of k2
    expect(await c.count("k2", 100)).toBe(0);
  });
});
