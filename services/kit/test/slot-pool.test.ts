import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { unique } from "../../../test/support/names.js";
import { createMongo, ensureIndexes, type MongoHandle } from "../src/mongo.js";
import { SlotPool, slotPoolFieldTypes, slotPoolIndexes } from "../src/slot-pool.js";

let mongo: MongoHandle;
beforeAll(async () => {
  mongo = createMongo(inject("mongoUrl"), unique("pool"), "kit-test");
  await ensureIndexes(mongo.db, slotPoolIndexes("pool"), { fields: slotPoolFieldTypes("pool") });
});
afterAll(async () => {
  await mongo.db.dropDatabase().catch(() => undefined);
  await mongo.close();
});

describe("SlotPool on a real MongoDB-protocol server", () => {
  it("admits exactly the limit under concurrency, each slot to one holder", async () => {
    const a = new SlotPool(mongo.db, "pool");
    const b = new SlotPool(mongo.db, "pool");
    const got = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).acquire("org1", 3, `h${i}`)));
    const slots = got.filter((s): s is number => s !== undefined).sort();
    expect(slots).toEqual([1, 2, 3]);
    expect(got.filter((s) => s === undefined)).toHaveLength(17);
    const held = await a.held("org1");
    expect(held.map((h) => h.slot)).toEqual([1, 2, 3]);
    expect(new Set(held.map((h) => h.holder)).size).toBe(3);
  });

  it("fills a larger pool exactly, each slot once", async () => {
    const pool = new SlotPool(mongo.db, "pool");
    const got = await Promise.all(Array.from({ length: 60 }, (_, i) => pool.acquire("org6", 45, `h${i}`)));
    expect(got.filter((s): s is number => s !== undefined).sort((a, b) => a - b)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    expect(await pool.acquire("org6", 45, "late")).toBeUndefined();
  });

  it("gives a released slot to the next holder, keys are independent, release is repeat-safe", async () => {
    const pool = new SlotPool(mongo.db, "pool");
    expect(await pool.acquire("org2", 2, "x")).toBe(1);
    expect(await pool.acquire("org2", 2, "y")).toBe(2);
    expect(await pool.acquire("org2", 2, "z")).toBeUndefined();
    expect(await pool.acquire("org3", 2, "z")).toBe(1);
    expect(await pool.release("org2", "x")).toBe(true);
    expect(await pool.release("org2", "x")).toBe(false);
    expect(await pool.acquire("org2", 2, "z")).toBe(1);
    expect((await pool.held("org2")).map((h) => h.holder)).toEqual(["z", "y"]);
    expect(await pool.acquire("org4", 0, "w")).toBeUndefined();
  });

  it("releases and re-acquires under concurrency without exceeding the limit", async () => {
    const pool = new SlotPool(mongo.db, "pool");
    for (const h of ["a", "b"]) await pool.acquire("org5", 2, h);
    const results = await Promise.all([pool.release("org5", "a"), ...Array.from({ length: 10 }, (_, i) => pool.acquire("org5", 2, `n${i}`))]);
    expect(results[0]).toBe(true);
    const held = await pool.held("org5");
    expect(held.length).toBeLessThanOrEqual(2);
    expect(held.map((h) => h.holder)).toContain("b");
    expect((await pool.heldBefore(new Date(Date.now() + 1000))).length).toBeGreaterThanOrEqual(held.length);
  });
});
