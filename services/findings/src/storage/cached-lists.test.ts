import { describe, expect, it } from "vitest";
import { listQuery } from "../domain/list.js";
import type { FindingLists } from "../domain/ports.js";
import type { FindingDoc } from "../domain/types.js";
import { CachedFindingLists } from "./cached-lists.js";

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

    await lists.scanFindings("org_a", "scan_1");
    now = 4_999;
    await lists.scanFindings("org_a", "scan_1");
    expect(reads).toHaveLength(5);
    now = 5_000;
    await lists.scanFindings("org_a", "scan_1");
    expect(reads).toHaveLength(6);
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
