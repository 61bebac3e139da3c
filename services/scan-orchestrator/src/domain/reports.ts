import { steps, type Lifecycle, type Step } from "./lifecycle.js";
import { isPhaseName } from "@vulnscan/scan-contract";
import type { ScanObserver, Volatile } from "./ports.js";
import { isTerminal, type Counts, type ScanRecord } from "./types.js";

/** A scanner report (vulnscan.scans.v1.ScanReport) in domain terms. */
export type Report = { scanId: string; orgId: string; attempt: number } & (
  | { kind: "phase_started"; phase: string; tool: string }
  | { kind: "phase_completed"; phase: string; progress: number; counts: Counts }
  | { kind: "completed"; counts: Counts }
  | { kind: "failed"; reason: string; phase: string; retryable: boolean }
  | { kind: "heartbeat"; phase: string; currentTool: string; progress: number }
);

export interface ReportSettings {
  /** Attempts a scan may have in all; a retryable failure of the last one fails the scan. */
  maxAttempts: number;
}

export interface ReportPlan {
  ignored?: string;
  steps: Step[];
  volatile: Volatile;
}

const clampProgress = (p: number) => Math.min(100, Math.max(0, Math.trunc(p)));

/**
 * What a report does to a scan (pure). Reports of another attempt, or for a scan that already
 * ended, change nothing. Any report of the current attempt means a worker runs it, so the
 * first one starts the scan (scan.started). A retryable failure (worker crash or shutdown) is
 * re-dispatched while attempts and time are left; any other failure fails the scan.
 */
export function planReport(view: ScanRecord, report: Report, now: Date, settings: ReportSettings): ReportPlan {
  if (isTerminal(view.status)) return { ignored: `scan is ${view.status}`, steps: [], volatile: {} };
  if (report.attempt !== view.attempt) {
    return { ignored: `attempt ${report.attempt} is not the current attempt ${view.attempt}`, steps: [], volatile: {} };
  }
  const plan: Step[] = [];
  const volatile: Volatile = { last_report_at: now };
  if (!view.started_at && report.kind !== "failed") plan.push(steps.started(view, report.attempt, now));
  switch (report.kind) {
    case "phase_started":
      volatile.phase = report.phase;
      volatile.current_tool = report.tool;
      break;
    case "heartbeat":
      if (report.phase) volatile.phase = report.phase;
      volatile.current_tool = report.currentTool;
      break;
    case "phase_completed":
      if (isPhaseName(report.phase) && view.phases.includes(report.phase) && !view.phases_completed.includes(report.phase)) {
        plan.push(steps.phase(view, report.attempt, report.phase, clampProgress(report.progress), report.counts, now));
      }
      volatile.phase = report.phase;
      break;
    case "completed":
      plan.push(steps.completed(view, now));
      break;
    case "failed": {
      const failedView = report.phase ? { ...view, phase: report.phase } : view;
      if (report.retryable && view.attempt < settings.maxAttempts && now < view.deadline) {
        plan.push(steps.attempt(failedView, view.attempt + 1, `worker failed: ${report.reason}`, now));
      } else {
        plan.push(steps.failed(failedView, report.reason || "scan failed", now));
      }
      if (report.phase) volatile.phase = report.phase;
      break;
    }
  }
  return { steps: plan, volatile };
}

export class ReportUseCase {
  constructor(
    private readonly lifecycle: Lifecycle,
    private readonly settings: ReportSettings,
    private readonly observer: ScanObserver,
    private readonly now: () => Date,
  ) {}

  /** Applies one report; returns why it was ignored, if it was. */
  async apply(report: Report): Promise<string | undefined> {
    const loaded = await this.lifecycle.load(report.orgId, report.scanId);
    if (!loaded) {
      this.observer.report(report.kind, "ignored");
      return "unknown scan";
    }
    const plan = planReport(loaded.view, report, this.now(), this.settings);
    if (plan.ignored) {
      this.observer.report(report.kind, "ignored");
      return plan.ignored;
    }
    await this.lifecycle.apply(loaded, plan.steps, plan.volatile);
    this.observer.report(report.kind, "applied");
    return undefined;
  }
}
