import { describe, expect, it } from "vitest";
import { listQuery } from "../domain/list.js";
import type { FindingCounts, FindingLists, FindingRepository } from "../domain/ports.js";
import type { FindingDoc } from "../domain/types.js";
import { CachedCounts, CachedFindingLists, CachedFindings } from "./cached-lists.js";

/** A FindingLists that counts its reads and answers with a page naming the read. */
function counting() {
  const reads: string[] = [];
  const page = (what: string) => {
    reads.push(what);
    return Promise.resolve([{ _id: `${what}#${reads.length}` } as FindingDoc]);
  };
  const inner: FindingLists = {
    describe: () => ({}),
    count: () => (reads.push("count"), Promise.resolve(reads.length)),
    page: (_o, _q, offset) => page(`page@${offset}`),
    after: () => page("after"),
    stream: () => (async function* () {})(),
    scanFindings: (_o, scanId) => page(`scan ${scanId}`),
    severityCounts: () => (reads.push("severities"), Promise.resolve({ critical: 0, high: 0, medium: 0, low: 0, info: 0 })),
  };
  return { inner, reads };
}

describe("CachedFindingLists", () => {
  it("answers the same page from memory while the organization's version holds, and reads again once it moved", async () => {
    const { inner, reads } = counting();
    let version = 1;
    const lists = new CachedFindingLists(inner, { current: async () => version });
    const q = listQuery({ severity: "high" });
    const first = await lists.page("org_a", q, 0, 20);
    expect(await lists.page("org_a", q, 0, 20)).toBe(first);
    expect(reads).toEqual(["page@0"]);

    // Another page, filter or organization is its own entry.
    await lists.page("org_a", q, 20, 20);
    await lists.page("org_a", listQuery({ severity: "low" }), 0, 20);
    await lists.page("org_b", q, 0, 20);
    expect(reads).toHaveLength(4);

    version = 2; // a write to org_a's findings
    const fresh = await lists.page("org_a", q, 0, 20);
    expect(fresh).not.toBe(first);
    expect(reads).toHaveLength(5);
  });

  it("never keeps what depends on the time of reading, and keeps nothing longer than its maximum age", async () => {
    const { inner, reads } = counting();
    let now = 0;
    const lists = new CachedFindingLists(inner, { current: async () => 7 }, 5_000, () => now);
    const breached = listQuery({ sla_state: "breached" });
    await lists.page("org_a", breached, 0, 20);
    await lists.page("org_a", breached, 0, 20);
    await lists.count("org_a", { accepted_expiring_within_days: 14 });
    await lists.count("org_a", { accepted_expiring_within_days: 14 });
    expect(reads).toEqual(["page@0", "page@0", "count", "count"]);

    const kept = await lists.scanFindings("org_a", "scan_1");
    now = 2_499;
    expect(await lists.scanFindings("org_a", "scan_1")).toBe(kept);
    expect(reads).toHaveLength(5);
    // Past half its age: still answered from memory, and read again in the background.
    now = 2_500;
    expect(await lists.scanFindings("org_a", "scan_1")).toBe(kept);
    await Promise.resolve();
    expect(reads).toHaveLength(6);
    const refreshed = await lists.scanFindings("org_a", "scan_1");
    expect(refreshed).not.toBe(kept);
    expect(reads).toHaveLength(6);
    // Never answered past its maximum age: read and waited for.
    now = 7_500;
    const late = await lists.scanFindings("org_a", "scan_1");
    expect(late).not.toBe(refreshed);
    expect(reads).toHaveLength(7);
  });

  it("reads the version before the page: a write landing during the read is not answered from memory afterwards", async () => {
    const { inner, reads } = counting();
    let version = 1;
    const slow: FindingLists = {
      ...inner,
      page: async (...args) => {
        const p = await inner.page(...args);
        version = 2; // stored while this page was being read
        return p;
      },
    };
    const lists = new CachedFindingLists(slow, { current: async () => version });
    const q = listQuery({});
    await lists.page("org_a", q, 0, 20);
    await lists.page("org_a", q, 0, 20);
    expect(reads).toEqual(["page@0", "page@0"]);
  });
});

describe("CachedFindings and CachedCounts", () => {
  it("a detail is answered from memory while the version holds, read again once it moved; another organization's id stays null", async () => {
    const stored = new Map([["finding_1", { _id: "finding_1", org_id: "org_a", status: "open" } as FindingDoc]]);
    const gets: string[] = [];
    const inner: FindingRepository = {
      get: async (orgId, id) => {
        gets.push(`${orgId}/${id}`);
        const f = stored.get(id);
        return f && f.org_id === orgId ? { ...f } : null;
      },
      rememberedHolders: () => new Map(),
      create: async () => new Map(),
      change: async (_orgId, ids) => {
        for (const id of ids) stored.set(id, { ...stored.get(id)!, status: "resolved" });
        version++; // the store moves the version before answering
        return new Map();
      },
    };
    let version = 1;
    const findings = new CachedFindings(inner, { current: async () => version });
    const first = await findings.get("org_a", "finding_1");
    expect(await findings.get("org_a", "finding_1")).toBe(first);
    expect(await findings.get("org_b", "finding_1")).toBeNull();
    expect(await findings.get("org_b", "finding_1")).toBeNull();
    expect(gets).toEqual(["org_a/finding_1", "org_b/finding_1"]);

    await findings.change("org_a", ["finding_1"], () => null);
    expect((await findings.get("org_a", "finding_1"))?.status).toBe("resolved");
    expect(await findings.get("org_b", "finding_1")).toBeNull();
    expect(gets).toHaveLength(4);
  });

  it("a list total is kept by the version; statistics are always read", async () => {
    let n = 10;
    const calls: string[] = [];
    const inner: FindingCounts = {
      total: async () => (calls.push("total"), n),
      stats: async () => (calls.push("stats"), {}) as never,
      targetCounts: async () => (calls.push("targets"), {}) as never,
    };
    let version = 1;
    const counts = new CachedCounts(inner, { current: async () => version });
    const all = { other: false };
    expect(await counts.total("org_a", all)).toBe(10);
    n = 11;
    expect(await counts.total("org_a", all)).toBe(10);
    expect(await counts.total("org_a", { status: "open", other: false })).toBe(11);
    version = 2; // the write's counts were applied
    expect(await counts.total("org_a", all)).toBe(11);
    await counts.stats("org_a", {});
    await counts.stats("org_a", {});
    expect(calls).toEqual(["total", "total", "total", "stats", "stats"]);
  });
});
