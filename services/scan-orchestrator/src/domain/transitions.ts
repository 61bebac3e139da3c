import { COMPLETE_PHASE, type PhaseName } from "@vulnscan/scan-contract";
import { addCounts, type Counts, type ScanCommand, type ScanComparison, type ScanEvent, type ScanRecord } from "./types.js";

/** A scan right after a step, with the events and scanner records that step owns. */
export interface Stepped {
  scan: ScanRecord;
  events: ScanEvent[];
  commands: ScanCommand[];
}

/**
 * One change of a scan's state (pure): the next state and what it announces. Events are built
 * from the state right after their step, so a step's payload says what that step did.
 */
export type Step = (scan: ScanRecord) => Stepped;

type Ending = "completed" | "failed" | "cancelled";

/** Share of the planned phases finished, in whole percent. */
const share = (scan: ScanRecord, completed: readonly string[]) => (scan.phases.length ? Math.floor((100 * completed.length) / scan.phases.length) : 0);

/** The scan ends: the worker's tool is no longer running, and when it ended is the completion time. */
const ended = (scan: ScanRecord, status: Ending, error: string, at: Date): ScanRecord => ({ ...scan, status, error, completed_at: at, current_tool: "" });

export const steps = {
  /** The first report of the current attempt: running. A scan no report has named a phase for yet works on the first phase left. */
  started(at: Date): Step {
    return (scan) => {
      const after: ScanRecord = { ...scan, status: "running", started_at: at, phase: scan.phase || (scan.phases_remaining[0] ?? "") };
      return { scan: after, events: [{ type: "scan.started", scan: after }], commands: [] };
    };
  },
  /**
   * A finished phase: its counts added once, the phase lists split in plan order, progress the
   * highest the scanner reported, at least the share of finished phases, below 100 until the end.
   */
  phase(phase: PhaseName, progress: number, counts: Counts): Step {
    return (scan) => {
      const done = new Set<string>([...scan.phases_completed, phase]);
      const completed = scan.phases.filter((p) => done.has(p));
      const after: ScanRecord = {
        ...scan,
        phases_completed: completed,
        phases_remaining: scan.phases.filter((p) => !done.has(p)),
        counts: addCounts(scan.counts, counts),
        progress: Math.min(99, Math.max(scan.progress, progress, share(scan, completed))),
      };
      return { scan: after, events: [{ type: "scan.progress", scan: after, phase }], commands: [] };
    };
  },
  /** A re-dispatch: attempt `attempt` runs the phases not completed yet. */
  attempt(attempt: number, at: Date): Step {
    return (scan) => {
      const after: ScanRecord = { ...scan, attempt, attempt_dispatched_at: at };
      const phases = scan.phases.filter((p) => !scan.phases_completed.includes(p));
      return { scan: after, events: [], commands: [{ kind: "job", scan: after, attempt, phases, at }] };
    };
  },
  /** `comparison`: the scan against the target's previous completed scan, when findings could tell. */
  completed(at: Date, comparison?: ScanComparison): Step {
    return (scan) => {
      const after: ScanRecord = {
        ...ended(scan, "completed", "", at),
        phase: COMPLETE_PHASE,
        progress: 100,
        phases_completed: [...scan.phases],
        phases_remaining: [],
        ...(comparison ? { comparison } : {}),
      };
      return { scan: after, events: [{ type: "scan.completed", scan: after }], commands: [] };
    };
  },
  /** `stopWorker`: the worker may still run it (the watchdog's verdicts), so it is told to stop. */
  failed(error: string, at: Date, stopWorker = false): Step {
    return (scan) => {
      const after = ended(scan, "failed", error, at);
      return { scan: after, events: [{ type: "scan.failed", scan: after }], commands: stopWorker ? [{ kind: "cancellation", scan: after, at }] : [] };
    };
  },
  /** Cancelled scans emit no event (the spec has no kind for it); the scanner is told to stop. */
  cancelled(at: Date): Step {
    return (scan) => {
      const after = ended(scan, "cancelled", "cancelled by user", at);
      return { scan: after, events: [], commands: [{ kind: "cancellation", scan: after, at }] };
    };
  },
};

/** Applies steps in order; a scan still pending shows no phase or tool, whatever a report said. */
export function run(scan: ScanRecord, plan: readonly Step[]): Stepped {
  const out: Stepped = { scan, events: [], commands: [] };
  for (const step of plan) {
    const r = step(out.scan);
    out.scan = r.scan;
    out.events.push(...r.events);
    out.commands.push(...r.commands);
  }
  if (out.scan.status === "pending") out.scan = { ...out.scan, phase: "", current_tool: "" };
  return out;
}

/** Seconds from started_at (or created_at, when it never started) to `end`, whole and ≥ 0. */
export function durationSeconds(scan: ScanRecord, end: Date): number {
  const from = scan.started_at ?? scan.created_at;
  return Math.max(0, Math.round((end.getTime() - from.getTime()) / 1000));
}
