import type { Client } from "@connectrpc/connect";
import type { Logger } from "@vulnscan/kit";
import type { ScanDiffService } from "@vulnscan/proto/vulnscan/findings/v1/scan_diff_service_pb.js";
import { setTimeout as sleep } from "node:timers/promises";
import type { ScanComparisons } from "../domain/ports.js";
import type { ScanComparison } from "../domain/types.js";

export interface ComparisonSettings {
  /** How long a completion waits for findings to hold the scan's coverage (SCAN_COMPARISON_WAIT_MS). */
  waitMs: number;
  /** First pause between asks; doubled up to maxPollMs. */
  pollMs?: number;
  maxPollMs?: number;
}

/**
 * scan.completed's comparison from findings' ScanDiffService (issue 28). The scanner sends its
 * coverage records to findings through Kafka and its completed report to us through another
 * topic, so findings may not have stored them yet when the report arrives: findings says
 * `ready: false` until it holds all of them, and we ask again, with a growing pause, for at
 * most `waitMs`. The wait holds this scan's report partition, never longer than that; a
 * comparison that is not ready in time, or a findings that cannot answer (its breaker open),
 * leaves the event without one rather than the scan running.
 */
export function findingsComparisons(diffs: Pick<Client<typeof ScanDiffService>, "diffScans">, settings: ComparisonSettings, logger: Logger): ScanComparisons {
  const log = logger.child({ component: "comparisons" });
  return {
    async compare(scan, againstScanId, coverage) {
      if (settings.waitMs <= 0) return undefined;
      const deadline = Date.now() + settings.waitMs;
      let pause = settings.pollMs ?? 100;
      for (;;) {
        try {
          const d = await diffs.diffScans(
            { orgId: scan.org_id, scanId: scan._id, againstScanId, limit: 1, coverageAttempt: coverage.attempt, coverageRecords: coverage.records },
            { timeoutMs: Math.max(1000, deadline - Date.now()) },
          );
          if (d.ready) {
            return {
              against_scan_id: againstScanId,
              new: d.new?.count ?? 0,
              fixed: d.fixed?.count ?? 0,
              regressed: d.regressed?.count ?? 0,
              unchanged: d.unchanged?.count ?? 0,
              not_covered: d.notCovered?.count ?? 0,
            } satisfies ScanComparison;
          }
        } catch (err) {
          log.warn({ err: (err as Error).message, scan_id: scan._id }, "scan comparison unavailable; scan.completed goes without it");
          return undefined;
        }
        if (Date.now() + pause > deadline) {
          log.warn(
            { scan_id: scan._id, waited_ms: settings.waitMs, coverage },
            "findings did not hold the scan's coverage in time; scan.completed goes without a comparison",
          );
          return undefined;
        }
        await sleep(pause);
        pause = Math.min(pause * 2, settings.maxPollMs ?? 1000);
      }
    },
  };
}
