import type { Db } from "mongodb";
import { describe, expect, it } from "vitest";
import { OrgVersions, VersionedCache } from "./versioned-cache.js";

/** A Db whose one collection reads the version when `findOne` is sent and answers when the test says so. */
function fakeDb() {
  const state = { v: 1, started: 0, waiting: [] as (() => void)[] };
  const coll = {
    findOne: () => {
      state.started++;
      const v = state.v;
      return new Promise<{ _id: string; v: number }>((resolve) => state.waiting.push(() => resolve({ _id: "org_a", v })));
    },
  };
  const db = { collection: () => coll } as unknown as Db;
  /** Answers the reads started so far, with the version as it is now. */
  const answer = async () => {
    const w = state.waiting.splice(0);
    for (const f of w) f();
    // Let the callers' continuations run (and a queued read start).
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { db, state, answer };
}

describe("OrgVersions", () => {
  it("shares one read among concurrent callers, but never one that began before a caller arrived", async () => {
    const { db, state, answer } = fakeDb();
    const versions = new OrgVersions(db, "list_versions");
    const first = versions.current("org_a");
    expect(state.started).toBe(1);
    // Arrive while the first read is under way: they wait for one read after it, together.
    const later = [versions.current("org_a"), versions.current("org_a"), versions.current("org_a")];
    expect(state.started).toBe(1);
    state.v = 2; // a write answered after the first read was sent, before these callers arrived
    await answer();
    expect(await first).toBe(1);
    expect(state.started).toBe(2);
    await answer();
    expect(await Promise.all(later)).toEqual([2, 2, 2]);
    // Nothing under way: the next caller starts its own read at once.
    const alone = versions.current("org_a");
    expect(state.started).toBe(3);
    await answer();
    expect(await alone).toBe(2);
  });

  it("uses a read again for callers that arrived before it began, never for later ones", async () => {
    const { db, state, answer } = fakeDb();
    const versions = new OrgVersions(db, "list_versions");
    const arrived = performance.now();
    const first = versions.current("org_a", arrived);
    await answer();
    expect(await first).toBe(1);
    // The same call asks again (a page's total after the page): the read began after it arrived.
    expect(await versions.current("org_a", arrived)).toBe(1);
    expect(state.started).toBe(1);
    // A call that arrived after that read began reads again, and sees a write answered meanwhile.
    state.v = 2;
    const later = versions.current("org_a", performance.now());
    expect(state.started).toBe(2);
    await answer();
    expect(await later).toBe(2);
    // Outside a served call "since" is now: every caller gets a read of its own, as before.
    const outside = versions.current("org_a");
    expect(state.started).toBe(3);
    await answer();
    expect(await outside).toBe(2);
  });

  it("a failed read fails its callers only; the queued read still runs", async () => {
    let calls = 0;
    const coll = {
      findOne: () => (++calls === 1 ? Promise.reject(new Error("down")) : Promise.resolve({ _id: "org_a", v: 5 })),
    };
    const versions = new OrgVersions({ collection: () => coll } as unknown as Db, "list_versions");
    const [a, b] = [versions.current("org_a"), versions.current("org_a")];
    await expect(a).rejects.toThrow("down");
    expect(await b).toBe(5);
  });
});

describe("VersionedCache", () => {
  it("concurrent misses of one entry share one read", async () => {
    let reads = 0;
    let release = () => {};
    const cache = new VersionedCache({ current: async () => 1 }, { maxAgeMs: 5_000, maxEntries: 10 });
    const read = () => {
      reads++;
      return new Promise<string>((resolve) => (release = () => resolve(`value ${reads}`)));
    };
    const all = [cache.get("org_a", "k", read), cache.get("org_a", "k", read), cache.get("org_a", "k", read)];
    for (let i = 0; i < 5; i++) await Promise.resolve();
    release();
    expect(await Promise.all(all)).toEqual(["value 1", "value 1", "value 1"]);
    expect(reads).toBe(1);
    // Another organization never shares it.
    expect(await cache.get("org_b", "k", async () => "b's")).toBe("b's");
  });

  it("a slower read of an older version finishing last does not replace the newer value", async () => {
    let version = 1;
    const cache = new VersionedCache({ current: async () => version }, { maxAgeMs: 5_000, maxEntries: 10 });
    let releaseOld = () => {};
    const old = cache.get("org_a", "k", () => new Promise<string>((resolve) => (releaseOld = () => resolve("old"))));
    for (let i = 0; i < 5; i++) await Promise.resolve();
    version = 2;
    expect(await cache.get("org_a", "k", async () => "new")).toBe("new");
    releaseOld();
    expect(await old).toBe("old");
    expect(await cache.get("org_a", "k", async () => "read again")).toBe("new");
  });
});
