import { ensureIndexes } from "@vulnscan/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { MongoAttemptCounter } from "../src/storage/attempts.js";
import { authFields, authIndexes } from "../src/storage/index.js";
import { closeDatabases, database } from "./harness.js";

const db = database(unique("authattempts"));
const WINDOW_MS = 15 * 60_000;

beforeAll(async () => {
  await ensureIndexes(db, authIndexes, { fields: authFields });
});
afterAll(async () => {
  await db.dropDatabase().catch(() => undefined);
  await closeDatabases();
});

describe("attempt counters on a real MongoDB-protocol server", () => {
  it("parallel attempts on a new window, as from two replicas, each see a different count", async () => {
    const [a, b] = [new MongoAttemptCounter(db), new MongoAttemptCounter(db)];
    const now = new Date(Date.UTC(2026, 10, 22, 10, 7));
    const hits = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).hit("login:race@example.com", now, WINDOW_MS)));
    expect(hits.map((h) => h.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(hits.every((h) => h.resetsAt.getTime() === Date.UTC(2026, 10, 22, 10, 15))).toBe(true);
  });

  it("reset forgets the key; a new window starts over; the purge deletes windows that are over", async () => {
    const c = new MongoAttemptCounter(db);
    const now = new Date(Date.UTC(2026, 10, 22, 11, 0));
    const next = new Date(now.getTime() + WINDOW_MS);
    await c.hit("mfa:user_a", now, WINDOW_MS);
    expect((await c.hit("mfa:user_a", now, WINDOW_MS)).count).toBe(2);
    await c.reset("mfa:user_a");
    expect((await c.hit("mfa:user_a", now, WINDOW_MS)).count).toBe(1);
    expect((await c.hit("mfa:user_a", next, WINDOW_MS)).count).toBe(1);
    expect((await c.hit("mfa:user_b", now, WINDOW_MS)).count).toBe(1);
    // Just after the first window: its counters go, the current one stays.
    await c.purgeExpired(new Date(next.getTime() + 1));
    expect((await c.hit("mfa:user_b", now, WINDOW_MS)).count).toBe(1);
    expect((await c.hit("mfa:user_a", next, WINDOW_MS)).count).toBe(2);
  });

  it("unhit takes back one attempt of the same window only (a success from a source, issue 30)", async () => {
    const c = new MongoAttemptCounter(db);
    const now = new Date(Date.UTC(2026, 10, 22, 12, 0));
    const next = new Date(now.getTime() + WINDOW_MS);
    await c.hit("login-source:192.0.2.9", now, WINDOW_MS);
    await c.hit("login-source:192.0.2.9", now, WINDOW_MS);
    await c.unhit("login-source:192.0.2.9", now, WINDOW_MS);
    expect((await c.hit("login-source:192.0.2.9", now, WINDOW_MS)).count).toBe(2);
    // Another window's counter, and a key never hit, are left alone.
    await c.unhit("login-source:192.0.2.9", next, WINDOW_MS);
    await c.unhit("login-source:never", now, WINDOW_MS);
    expect((await c.hit("login-source:192.0.2.9", now, WINDOW_MS)).count).toBe(3);
    expect((await c.hit("login-source:never", now, WINDOW_MS)).count).toBe(1);
  });
});
