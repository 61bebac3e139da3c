import type { Activity, ScanDurations, ScanLimits, ScanObserver, ScanStore } from "./ports.js";
import { run, type Step } from "./transitions.js";
import { isTerminal, type ScanRecord } from "./types.js";

/** What to do with a scan as stored: steps (and the report's activity), or why nothing. */
export type Decision = { ignored: string } | { steps: Step[]; activity?: Activity };

export interface Changed {
  scan: ScanRecord;
  /** Why nothing was done, when nothing was. */
  ignored?: string;
  /** True when this call stored a transition. */
  changed: boolean;
}

const definedOnly = (a: Activity): Activity => Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined));

/**
 * Changes scans. A decision is taken on the scan as stored and written as one update guarded by
 * the scan's version, carrying the events and scanner records of its steps: if another writer
 * (a cancel, the watchdog on another replica) changed the scan first, the update matches nothing,
 * and the scan is read again and decided anew. So every step happens once, on the state it was
 * decided on, and a cancel racing a completion ends the scan exactly once.
 */
export class Lifecycle {
  constructor(
    private readonly store: ScanStore,
    private readonly limits: ScanLimits,
    private readonly observer: ScanObserver,
    private readonly durations?: ScanDurations,
  ) {}

  async change(scan: ScanRecord, decide: (scan: ScanRecord) => Decision): Promise<Changed> {
    for (let current = scan; ; ) {
      const decision = decide(current);
      if ("ignored" in decision) return { scan: current, ignored: decision.ignored, changed: false };
      const activity = definedOnly(decision.activity ?? {});
      const base = { ...current, ...activity };
      if (decision.steps.length === 0) {
        if (Object.keys(activity).length > 0) await this.store.recordActivity(current, activity);
        return { scan: base, changed: false };
      }
      const next = run(base, decision.steps);
      const to = { ...next.scan, version: current.version + 1 };
      if (await this.store.transition(current, to, next.events, next.commands)) {
        await this.settled(current, to);
        return { scan: to, changed: true };
      }
      const fresh = await this.store.get(current.org_id, current._id);
      if (!fresh) return { scan: current, ignored: "unknown scan", changed: false };
      current = fresh;
    }
  }

  /** After a stored transition: the place of an ended scan is freed, metrics, and its records published. */
  private async settled(from: ScanRecord, to: ScanRecord): Promise<void> {
    if (isTerminal(to.status)) {
      await this.limits.freePlace(to.org_id, to._id);
      this.observer.finished(to.status);
    }
    if (to.status === "completed" && from.status !== "completed" && to.started_at && to.completed_at) {
      const seconds = (to.completed_at.getTime() - to.started_at.getTime()) / 1000;
      // An input of the next scans' estimate, not the scan's state: a failed write costs one sample.
      await this.durations?.record(to.org_id, to.scan_type, seconds).catch(() => undefined);
    }
    if (to.attempt > from.attempt) this.observer.redispatched();
    await this.store.publish(to._id);
  }
}
