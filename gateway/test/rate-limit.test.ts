import { createMongo, ensureIndexes, type MongoHandle } from "@vulnscan/kit";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../test/support/names.js";
import { RateLimiter, rateLimitFields, rateLimitIndexes } from "../src/rate-limit.js";

let mongo: MongoHandle;
beforeAll(async () => {
  mongo = createMongo(inject("mongoUrl"), unique("gwrl"), "gateway-test");
  await ensureIndexes(mongo.db, rateLimitIndexes, { fields: rateLimitFields });
});
afterAll(async () => {
  await mongo.db.dropDatabase().catch(() => undefined);
  await mongo.close();
});

describe("RateLimiter on a real MongoDB-protocol server", () => {
  it("admits exactly the limit out of 100 parallel requests, across two limiter instances (two gateways)", async () => {
    const a = new RateLimiter(mongo.db);
    const b = new RateLimiter(mongo.db);
    const now = Date.UTC(2026, 10, 22, 10, 30, 0);
    const decisions = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).hit("org_boundary", { perHour: 37, perDay: 1000 }, now)));
    expect(decisions.filter((d) => d?.allowed)).toHaveLength(37);
    const refused = decisions.filter((d) => !d?.allowed);
    expect(refused).toHaveLength(63);
    expect(refused.every((d) => d!.remaining === 0 && d!.retryAfterSeconds === 1800)).toBe(true);
    // Reset is the end of the current hour, in Unix seconds.
    expect(decisions[0]!.reset).toBe(Date.UTC(2026, 10, 22, 11, 0, 0) / 1000);
    // A new hour starts a new window; the day keeps counting.
    const next = await a.hit("org_boundary", { perHour: 37, perDay: 1000 }, now + 3600_000);
    expect(next).toMatchObject({ allowed: true, remaining: 36 });
  });

  it("serves a burst at the boundary with a few reservations, not one per request (bench/load found 20 s waits)", async () => {
    // A client of its own that reports every command, to count the reservations.
    const watched = new MongoClient(inject("mongoUrl"), { monitorCommands: true });
    let reservations = 0;
    watched.on("commandStarted", (e) => {
      if (e.commandName === "findAndModify" && e.command.findAndModify === "rate_counters") reservations++;
    });
    try {
      const l = new RateLimiter(watched.db(mongo.db.databaseName));
      const now = Date.UTC(2026, 10, 22, 14, 30, 0);
      // 30 clients of one organization at once, 100 requests an hour: the first reservation is
      // small (1/16 of the window), the next ones are sized to the requests waiting for them.
      const decisions = await Promise.all(Array.from({ length: 130 }, () => l.hit("org_burst", { perHour: 100 }, now)));
      expect(decisions.filter((d) => d?.allowed)).toHaveLength(100);
      expect(new Set(decisions.filter((d) => d?.allowed).map((d) => d!.remaining)).size).toBe(100);
      // Before: blocks of 6, 5, 5, … 2, 1, 1, … (about 50 claims, each several round trips).
      expect(reservations).toBeLessThanOrEqual(4);
    } finally {
      await watched.close();
    }
  });

  it("stays exact with big blocks claimed ahead: 6,000 requests over two limiters admit exactly 5,000", async () => {
    const a = new RateLimiter(mongo.db);
    const b = new RateLimiter(mongo.db);
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    let admitted = 0;
    for (let round = 0; round < 30; round++) {
      const batch = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).hit("org_bulk", { perHour: 5000 }, now + round * 20)));
      admitted += batch.filter((d) => d?.allowed).length;
    }
    expect(admitted).toBe(5000);
  });

  it("the daily limit binds when it runs out first", async () => {
    const l = new RateLimiter(mongo.db);
    const now = Date.UTC(2026, 10, 22, 23, 10, 0);
    for (let i = 0; i < 3; i++) expect((await l.hit("org_daily", { perHour: 100, perDay: 3 }, now))?.allowed).toBe(true);
    const over = await l.hit("org_daily", { perHour: 100, perDay: 3 }, now);
    expect(over).toMatchObject({ allowed: false, remaining: 0, reset: Date.UTC(2026, 10, 23) / 1000, retryAfterSeconds: 50 * 60 });
  });

  it("keeps organizations apart and prunes expired windows", async () => {
    const l = new RateLimiter(mongo.db);
    const now = Date.UTC(2026, 0, 1, 0, 0, 0);
    await l.hit("org_x", { perHour: 1 }, now);
    expect((await l.hit("org_y", { perHour: 1 }, now))?.allowed).toBe(true);
    expect(await l.prune(new Date(now + 3 * 3600_000))).toBeGreaterThanOrEqual(2); // hourly counters of org_x and org_y
    expect(await l.hit("org_z", {}, now)).toBeUndefined(); // unlimited plan: no counting at all
  });
});
