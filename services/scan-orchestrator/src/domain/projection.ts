import { COMPLETE_PHASE } from "@vulnscan/scan-contract";
import { addCounts, zeroCounts, type ScanRecord, type Transition } from "./types.js";

/** The fields of a scan derived from its transitions. */
type DerivedFields = Pick<
  ScanRecord,
  | "status"
  | "progress"
  | "phase"
  | "current_tool"
  | "started_at"
  | "completed_at"
  | "phases_completed"
  | "phases_remaining"
  | "counts"
  | "error"
  | "attempt"
  | "attempt_dispatched_at"
>;

/**
 * The scan as its transitions say it is. Pure: the same inputs give the same scan, whichever
 * replica computes it and however often.
 *
 * - status: pending until `started`, then running, then the terminal transition's status.
 * - progress: the highest progress the scanner reported for a finished phase, at least the
 *   share of finished phases, and below 100 until the scan completed (100 means done).
 * - phases_completed / phases_remaining: the scan's planned phases split by the `phase`
 *   transitions, in plan order, so `phases_remaining` always tells the truth.
 * - counts: the sum of the per-phase counts (each phase stored once, so repeats are harmless).
 */
export function project(scan: ScanRecord, transitions: readonly Transition[]): ScanRecord {
  let attempt = 1;
  let dispatchedAt = scan.created_at;
  let startedAt: Date | undefined;
  let reported = 0;
  let counts = zeroCounts();
  const done = new Set<string>();
  let terminal: Extract<Transition, { kind: "terminal" }> | undefined;
  for (const t of transitions) {
    switch (t.kind) {
      case "started":
        startedAt = startedAt && startedAt < t.at ? startedAt : t.at;
        break;
      case "phase":
        if (!done.has(t.phase)) counts = addCounts(counts, t.counts);
        done.add(t.phase);
        reported = Math.max(reported, t.progress);
        break;
      case "attempt":
        if (t.attempt > attempt) {
          attempt = t.attempt;
          dispatchedAt = t.at;
        }
        break;
      case "terminal":
        terminal = t;
        break;
    }
  }
  const planned = scan.phases;
  const phasesCompleted = planned.filter((p) => done.has(p));
  const share = planned.length ? Math.floor((100 * phasesCompleted.length) / planned.length) : 0;
  const derived: DerivedFields = {
    status: startedAt ? "running" : "pending",
    progress: Math.min(99, Math.max(0, reported, share)),
    phase: scan.phase,
    current_tool: scan.current_tool,
    started_at: startedAt,
    completed_at: undefined,
    phases_completed: phasesCompleted,
    phases_remaining: planned.filter((p) => !done.has(p)),
    counts,
    error: "",
    attempt,
    attempt_dispatched_at: dispatchedAt,
  };
  // Not started: no phase runs yet, whatever the activity record says (it is written just
  // before the transition that starts the scan).
  if (!startedAt) Object.assign(derived, { progress: 0, phase: "", current_tool: "" });
  // Started, but no report has named a phase yet: it is working on the first one left.
  if (startedAt && !derived.phase) derived.phase = derived.phases_remaining[0] ?? "";
  if (terminal) {
    derived.status = terminal.status;
    derived.completed_at = terminal.at;
    derived.error = terminal.error;
    derived.current_tool = "";
    derived.phase = terminal.phase;
    if (terminal.status === "completed") {
      derived.progress = 100;
      derived.phase = COMPLETE_PHASE;
      derived.phases_completed = [...planned];
      derived.phases_remaining = [];
    }
  }
  return { ...scan, ...derived };
}

/** Seconds from started_at (or created_at, when it never started) to `end`, whole and ≥ 0. */
export function durationSeconds(scan: ScanRecord, end: Date): number {
  const from = scan.started_at ?? scan.created_at;
  return Math.max(0, Math.round((end.getTime() - from.getTime()) / 1000));
}

/**
 * The derived fields written onto the scan document, so lists can filter by status and the
 * watchdog can find active scans. phase and current_tool are not among them: they live in the
 * scan's activity record, written by the one consumer of the scan's reports.
 */
export type ProjectedFields = Omit<DerivedFields, "phase" | "current_tool">;

export function projectedFields(scan: ScanRecord): ProjectedFields {
  return {
    status: scan.status,
    progress: scan.progress,
    started_at: scan.started_at,
    completed_at: scan.completed_at,
    phases_completed: scan.phases_completed,
    phases_remaining: scan.phases_remaining,
    counts: scan.counts,
    error: scan.error,
    attempt: scan.attempt,
    attempt_dispatched_at: scan.attempt_dispatched_at,
  };
}
