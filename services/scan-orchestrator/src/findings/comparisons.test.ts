import { Code, ConnectError } from "@connectrpc/connect";
import { createLogger } from "@vulnscan/kit/logger";
import type { DiffScansRequest } from "@vulnscan/proto/vulnscan/findings/v1/scan_diff_service_pb.js";
import { describe, expect, it } from "vitest";
import { findingsComparisons } from "./comparisons.js";

const logger = createLogger("comparisons-test", "silent");
const scan = { _id: "scan_b", org_id: "org_a" };
const coverage = { attempt: 2, records: 3 };
const buckets = { new: { count: 1 }, fixed: { count: 2 }, regressed: { count: 0 }, unchanged: { count: 4 }, notCovered: { count: 5 } };

/** A ScanDiffService that answers `answers` in turn (the last one again once they run out). */
function diffs(answers: (() => object)[]) {
  const asked: Partial<DiffScansRequest>[] = [];
  return {
    asked,
    client: {
      diffScans: async (req: Partial<DiffScansRequest>) => {
        asked.push(req);
        return answers[Math.min(asked.length, answers.length) - 1]!() as never;
      },
    },
  };
}

describe("findingsComparisons", () => {
  it("asks again until findings holds the attempt's coverage, then gives the bucket counts", async () => {
    const f = diffs([() => ({ ready: false }), () => ({ ready: false }), () => ({ ready: true, ...buckets })]);
    const c = await findingsComparisons(f.client, { waitMs: 5000, pollMs: 5 }, logger).compare(scan, "scan_a", coverage);
    expect(c).toEqual({ against_scan_id: "scan_a", new: 1, fixed: 2, regressed: 0, unchanged: 4, not_covered: 5 });
    expect(f.asked).toHaveLength(3);
    expect(f.asked[0]).toMatchObject({ orgId: "org_a", scanId: "scan_b", againstScanId: "scan_a", coverageAttempt: 2, coverageRecords: 3 });
  });

  it("gives up after the wait: the scan completes without a comparison", async () => {
    const f = diffs([() => ({ ready: false })]);
    const started = Date.now();
    expect(await findingsComparisons(f.client, { waitMs: 200, pollMs: 10, maxPollMs: 40 }, logger).compare(scan, "scan_a", coverage)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(f.asked.length).toBeGreaterThan(2);
  });

  it("a findings that cannot answer gives none at once", async () => {
    const f = diffs([
      () => {
        throw new ConnectError("breaker open", Code.Unavailable);
      },
    ]);
    expect(await findingsComparisons(f.client, { waitMs: 5000 }, logger).compare(scan, "scan_a", coverage)).toBeUndefined();
    expect(f.asked).toHaveLength(1);
  });

  it("0 turns comparisons off", async () => {
    const f = diffs([() => ({ ready: true, ...buckets })]);
    expect(await findingsComparisons(f.client, { waitMs: 0 }, logger).compare(scan, "scan_a", coverage)).toBeUndefined();
    expect(f.asked).toEqual([]);
  });
});
