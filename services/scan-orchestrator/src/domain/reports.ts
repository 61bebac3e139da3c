import { isPhaseName } from "@vulnscan/scan-contract";
import type { Decision, Lifecycle } from "./lifecycle.js";
import type { Activity, ScanComparisons, ScanObserver, ScanStore } from "./ports.js";
import { steps, type Step } from "./transitions.js";
import { isTerminal, type Counts, type ScanComparison, type ScanRecord } from "./types.js";

/** A scanner report (vulnscan.scans.v1.ScanReport) in domain terms. */
export type Report = { scanId: string; orgId: string; attempt: number } & (
  | { kind: "phase_started"; phase: string; tool: string }
  | { kind: "phase_completed"; phase: string; progress: number; counts: Counts }
  /** `coverageRecords`: the per-host coverage records the attempt sent to findings before this report. */
  | { kind: "completed"; counts: Counts; coverageRecords: number }
  | { kind: "failed"; reason: string; phase: string; retryable: boolean }
  | { kind: "heartbeat"; phase: string; currentTool: string; progress: number }
);

export interface ReportSettings {
  /** Attempts a scan may have in all; a retryable failure of the last one fails the scan. */
  maxAttempts: number;
}

const clampProgress = (p: number) => Math.min(100, Math.max(0, Math.trunc(p)));

/**
 * What a report does to a scan (pure). Reports of another attempt, or for a scan that already
 * ended, change nothing. Any report of the current attempt means a worker runs it, so the
 * first one starts the scan (scan.started). A retryable failure (worker crash or shutdown) is
 * re-dispatched while attempts and time are left; any other failure fails the scan.
 */
export function planReport(view: ScanRecord, report: Report, now: Date, settings: ReportSettings, comparison?: ScanComparison): Decision {
  if (isTerminal(view.status)) return { ignored: `scan is ${view.status}` };
  if (report.attempt !== view.attempt) return { ignored: `attempt ${report.attempt} is not the current attempt ${view.attempt}` };
  const plan: Step[] = [];
  const activity: Activity = { last_report_at: now };
  if (!view.started_at && report.kind !== "failed") plan.push(steps.started(now));
  switch (report.kind) {
    case "phase_started":
      activity.phase = report.phase;
      activity.current_tool = report.tool;
      break;
    case "heartbeat":
      if (report.phase) activity.phase = report.phase;
      activity.current_tool = report.currentTool;
      break;
    case "phase_completed":
      if (isPhaseName(report.phase) && view.phases.includes(report.phase) && !view.phases_completed.includes(report.phase)) {
        plan.push(steps.phase(report.phase, clampProgress(report.progress), report.counts));
      }
      activity.phase = report.phase;
      break;
    case "completed":
      plan.push(steps.completed(now, comparison));
      break;
    case "failed":
      // The failed phase is recorded first, so a failure says where the scan stopped.
      if (report.phase) activity.phase = report.phase;
      if (report.retryable && view.attempt < settings.maxAttempts && now < view.deadline) plan.push(steps.attempt(view.attempt + 1, now));
      else plan.push(steps.failed(report.reason || "scan failed", now));
      break;
  }
  return { steps: plan, activity };
}

/** Scans of the target looked at for the previous completed one (newest first, one page). */
const PREVIOUS_WINDOW = 50;

export class ReportUseCase {
  constructor(
    private readonly store: ScanStore,
    private readonly lifecycle: Lifecycle,
    private readonly settings: ReportSettings,
    private readonly observer: ScanObserver,
    private readonly now: () => Date,
    private readonly comparisons?: ScanComparisons,
  ) {}

  /** Applies one report; returns why it was ignored, if it was. */
  async apply(report: Report): Promise<string | undefined> {
    const scan = await this.store.get(report.orgId, report.scanId);
    const comparison = scan && report.kind === "completed" ? await this.comparison(scan, report) : undefined;
    const ignored = scan ? (await this.lifecycle.change(scan, (s) => planReport(s, report, this.now(), this.settings, comparison))).ignored : "unknown scan";
    this.observer.report(report.kind, ignored ? "ignored" : "applied");
    return ignored;
  }

  /**
   * The comparison a completing scan's event carries: against the latest completed scan of the
   * same target created before it (among its last PREVIOUS_WINDOW scans), once findings holds
   * the final attempt's coverage. None for a report that completes nothing, a first scan, or an
   * attempt that sent no coverage (nothing could be called fixed).
   */
  private async comparison(scan: ScanRecord, report: Extract<Report, { kind: "completed" }>): Promise<ScanComparison | undefined> {
    if (!this.comparisons || isTerminal(scan.status) || report.attempt !== scan.attempt || !(report.coverageRecords > 0)) return undefined;
    const earlier = await this.store.list(scan.org_id, { target: scan.target, to: scan.created_at }, { page: 1, perPage: PREVIOUS_WINDOW });
    const previous = earlier.items.find((s) => s._id !== scan._id && s.status === "completed");
    if (!previous) return undefined;
    return this.comparisons.compare(scan, previous._id, { attempt: report.attempt, records: report.coverageRecords });
  }
}
