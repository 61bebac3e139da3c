import { cancellationCommand, jobCommand, scanCompletedEvent, scanFailedEvent, scanProgressEvent, scanStartedEvent } from "./messages.js";
import type { PhaseName } from "@vulnscan/scan-contract";
import { project, projectedFields } from "./projection.js";
import type { ConcurrencySlots, ScanObserver, ScanStore, Volatile } from "./ports.js";
import { transitionId, type Counts, type ScanCommand, type ScanEvent, type ScanRecord, type Transition } from "./types.js";

/** A transition to claim, with the events and records it owns (built from the scan right after it). */
export interface Step {
  transition: Transition;
  events(after: ScanRecord): ScanEvent[];
  commands(after: ScanRecord): ScanCommand[];
}

export const concurrencyKey = (orgId: string) => `${orgId}:concurrent`;

/** The one terminal transition of a scan: whichever of completed, failed or cancelled claims it first wins. */
function terminal(scan: ScanRecord, status: "completed" | "failed" | "cancelled", error: string, at: Date): Transition {
  return { _id: transitionId.terminal(scan._id), scan_id: scan._id, org_id: scan.org_id, at, kind: "terminal", status, error, phase: scan.phase };
}

export const steps = {
  started(scan: ScanRecord, attempt: number, at: Date): Step {
    return {
      transition: { _id: transitionId.started(scan._id), scan_id: scan._id, org_id: scan.org_id, at, kind: "started", attempt },
      events: (after) => [scanStartedEvent(after)],
      commands: () => [],
    };
  },
  phase(scan: ScanRecord, attempt: number, phase: PhaseName, progress: number, counts: Counts, at: Date): Step {
    return {
      transition: {
        _id: transitionId.phase(scan._id, phase),
        scan_id: scan._id,
        org_id: scan.org_id,
        at,
        kind: "phase",
        attempt,
        phase,
        progress,
        counts,
      },
      events: (after) => [scanProgressEvent(after, phase)],
      commands: () => [],
    };
  },
  /** A re-dispatch: attempt `attempt` runs the phases not completed yet. */
  attempt(scan: ScanRecord, attempt: number, reason: string, at: Date): Step {
    const phases = scan.phases.filter((p) => !scan.phases_completed.includes(p));
    return {
      transition: { _id: transitionId.attempt(scan._id, attempt), scan_id: scan._id, org_id: scan.org_id, at, kind: "attempt", attempt, phases, reason },
      events: () => [],
      commands: (after) => [jobCommand(after, attempt, phases, at)],
    };
  },
  completed(scan: ScanRecord, at: Date): Step {
    return {
      transition: terminal(scan, "completed", "", at),
      events: (after) => [scanCompletedEvent(after)],
      commands: () => [],
    };
  },
  failed(scan: ScanRecord, error: string, at: Date, stopWorker = false): Step {
    return {
      transition: terminal(scan, "failed", error, at),
      events: (after) => [scanFailedEvent(after)],
      commands: (after) => (stopWorker ? [cancellationCommand(after, at)] : []),
    };
  },
  /** Cancelled scans emit no event (the spec has no kind for it); the scanner is told to stop. */
  cancelled(scan: ScanRecord, at: Date): Step {
    return {
      transition: terminal(scan, "cancelled", "cancelled by user", at),
      events: () => [],
      commands: (after) => [cancellationCommand(after, at)],
    };
  },
};

export interface Loaded {
  scan: ScanRecord;
  transitions: Transition[];
  view: ScanRecord;
}

export interface Applied {
  view: ScanRecord;
  /** The transitions this call inserted (the others were already there). */
  claimed: Transition[];
}

/**
 * Applies transitions to a scan: each is claimed by a unique insert that carries its events,
 * the concurrency slot is released once a terminal one is claimed, and the projection is
 * written. Whoever loses a claim re-reads the transitions and projects what the winner did.
 */
export class Lifecycle {
  constructor(
    private readonly store: ScanStore,
    private readonly slots: ConcurrencySlots,
    private readonly observer: ScanObserver,
  ) {}

  async load(orgId: string, scanId: string): Promise<Loaded | null> {
    const scan = await this.store.get(orgId, scanId);
    if (!scan) return null;
    return this.loadFor(scan);
  }

  async loadFor(scan: ScanRecord): Promise<Loaded> {
    const transitions = await this.store.transitions(scan._id);
    return { scan, transitions, view: project(scan, transitions) };
  }

  async apply(loaded: Loaded, plan: Step[], volatile: Volatile = {}): Promise<Applied> {
    const base: ScanRecord = { ...loaded.scan, ...definedOnly(volatile) };
    // The report's phase and tool are stored before its transitions are claimed: a reader that
    // sees the scan running (projected from the transitions) must also see what it runs. The
    // reverse order let a GetScan between the two answer RUNNING with no current tool.
    if (Object.keys(definedOnly(volatile)).length > 0) await this.store.touch(base._id, definedOnly(volatile));
    let transitions = loaded.transitions;
    const claimed: Transition[] = [];
    for (const step of plan) {
      const next = [...transitions, step.transition];
      const after = project(base, next);
      if (await this.store.claim(step.transition, step.events(after), step.commands(after))) {
        transitions = next;
        claimed.push(step.transition);
      } else {
        transitions = await this.store.transitions(base._id);
      }
    }
    const view = project(base, transitions);
    const terminal = claimed.find((t) => t.kind === "terminal");
    if (terminal) {
      await this.slots.release(concurrencyKey(base.org_id), base._id);
      this.observer.finished(view.status);
    }
    if (claimed.some((t) => t.kind === "attempt")) this.observer.redispatched();
    const saved = claimed.length > 0 || !sameProjection(loaded.scan, view) ? await this.saveSettled(base, view) : view;
    for (const t of claimed) await this.store.publishTransition(t._id);
    return { view: saved, claimed };
  }

  /**
   * Writes the projection, then reads back both the stored scan and the transitions and writes
   * again until they agree. Another writer may have projected from transitions read before our
   * claim and saved after us, and FerretDB v1 rewrites whole documents, so a concurrent update
   * of the same scan (an outbox flush) can undo ours. The watchdog repairs whatever slips past.
   */
  private async saveSettled(base: ScanRecord, view: ScanRecord): Promise<ScanRecord> {
    let want = view;
    for (let round = 0; round < 3; round++) {
      await this.store.save(base._id, projectedFields(want));
      const [stored, transitions] = await Promise.all([this.store.get(base.org_id, base._id), this.store.transitions(base._id)]);
      const now = project(base, transitions);
      if (stored && sameProjection(stored, now)) return now;
      want = now;
    }
    return want;
  }
}

function definedOnly(v: Volatile): Volatile {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as Volatile;
}

export function sameProjection(a: ScanRecord, b: ScanRecord): boolean {
  return JSON.stringify(projectedFields(a)) === JSON.stringify(projectedFields(b));
}
