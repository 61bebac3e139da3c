import { PoisonMessageError, Topics, type KafkaBus, type Logger, type Subscription } from "@vulnscan/kit";
import { ScanReportSchema, type FindingCounts, type ScanReport } from "@vulnscan/proto/vulnscan/scans/v1/jobs_pb.js";
import type { Report, ReportUseCase } from "../domain/reports.js";
import type { Counts } from "../domain/types.js";

const counts = (c: FindingCounts | undefined): Counts => {
  const n = (x: number | undefined) => Math.max(0, x ?? 0);
  return { total: n(c?.total), critical: n(c?.critical), high: n(c?.high), medium: n(c?.medium), low: n(c?.low), info: n(c?.info) };
};

/** ScanReport → domain report; undefined for a report with no known content. */
export function reportFrom(r: ScanReport): Report | undefined {
  const base = { scanId: r.scanId, orgId: r.orgId, attempt: r.attempt };
  const x = r.report;
  switch (x.case) {
    case "phaseStarted":
      return { ...base, kind: "phase_started", phase: x.value.phase, tool: x.value.tool };
    case "phaseCompleted":
      return { ...base, kind: "phase_completed", phase: x.value.phase, progress: x.value.progress, counts: counts(x.value.findings) };
    case "completed":
      return { ...base, kind: "completed", counts: counts(x.value.findings), coverageRecords: Math.max(0, x.value.coverageRecords) };
    case "failed":
      return { ...base, kind: "failed", reason: x.value.reason, phase: x.value.phase, retryable: x.value.retryable };
    case "heartbeat":
      return { ...base, kind: "heartbeat", phase: x.value.phase, currentTool: x.value.currentTool, progress: x.value.progress };
    default:
      return undefined;
  }
}

/**
 * Thin consumer of vulnscan.scan.reports: decode → use case → commit. Records are keyed by
 * scan id, so one scan's reports arrive in order at one consumer. A redelivered report needs no
 * record of report ids: what it did is in the scan (a started scan, a finished phase, an ended
 * scan, the attempt moved on), so applying it again changes no state and emits nothing.
 */
export async function consumeReports(opts: {
  kafka: KafkaBus;
  groupId: string;
  /** Where a new group starts: the oldest report (default) or the newest. */
  fromBeginning?: boolean;
  reports: ReportUseCase;
  logger: Logger;
}): Promise<Subscription> {
  const log = opts.logger.child({ component: "reports" });
  return opts.kafka.subscribe({
    groupId: opts.groupId,
    fromBeginning: opts.fromBeginning ?? true,
    topic: Topics.scanReports,
    schema: ScanReportSchema,
    handle: async (r) => {
      if (!r.scanId || !r.orgId) throw new PoisonMessageError("report without scan_id or org_id");
      const report = reportFrom(r);
      if (!report) {
        log.warn({ scan_id: r.scanId, report_id: r.reportId }, "report with no content ignored");
        return;
      }
      const ignored = await opts.reports.apply(report);
      if (ignored) log.debug({ scan_id: r.scanId, kind: report.kind, attempt: r.attempt, ignored }, "report ignored");
    },
  });
}
