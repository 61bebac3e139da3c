import type { Lifecycle } from "./lifecycle.js";
import type { ScanLimits, ScanStore } from "./ports.js";
import { steps, type Step } from "./transitions.js";
import { isTerminal, type ScanRecord } from "./types.js";

export interface WatchdogSettings {
  /** A pending or running scan silent this long is re-dispatched (attempt + 1). */
  redispatchAfterMs: number;
  maxAttempts: number;
}

export const DEADLINE_ERROR = "maximum duration exceeded";
export const WORKERS_LOST_ERROR = "scan workers stopped responding";

/**
 * What the watchdog does to one scan (pure): fail it past its deadline (and tell the worker to
 * stop), else re-dispatch it when its current attempt has been silent too long, or fail it when
 * no attempts are left. Silence counts from the later of the attempt's dispatch and its last
 * report (heartbeats included).
 */
export function planWatch(view: ScanRecord, now: Date, settings: WatchdogSettings): Step | undefined {
  if (isTerminal(view.status)) return undefined;
  if (now >= view.deadline) return steps.failed(DEADLINE_ERROR, now, true);
  const lastSign = Math.max(view.attempt_dispatched_at.getTime(), view.last_report_at?.getTime() ?? 0);
  if (now.getTime() - lastSign < settings.redispatchAfterMs) return undefined;
  if (view.attempt >= settings.maxAttempts) return steps.failed(WORKERS_LOST_ERROR, now, true);
  return steps.attempt(view.attempt + 1, now);
}

/**
 * One pass over the active scans. Any replica may run it at any time: each decision is written
 * guarded by the scan's version, so exactly one replica acts on it.
 */
export class Watchdog {
  /** Places whose scan was not stored at the last repair (`<org> <scan>`). */
  private missing = new Set<string>();

  constructor(
    private readonly deps: {
      store: ScanStore;
      lifecycle: Lifecycle;
      limits: ScanLimits;
      settings: WatchdogSettings;
      now: () => Date;
    },
  ) {}

  async pass(batch = 200): Promise<{ acted: number }> {
    const { store } = this.deps;
    let acted = 0;
    for (let after: string | undefined; ; ) {
      const scans = await store.activeAcrossOrganizations(batch, after);
      for (const scan of scans) acted += await this.watch(scan);
      if (scans.length < batch) return { acted };
      after = scans[scans.length - 1]!._id;
    }
  }

  /** One scan: 1 when this replica stored a transition for it. */
  private async watch(scan: ScanRecord): Promise<number> {
    const { lifecycle, settings } = this.deps;
    const changed = await lifecycle.change(scan, (s) => {
      const step = planWatch(s, this.deps.now(), settings);
      return step ? { steps: [step] } : { ignored: "nothing to do" };
    });
    return changed.changed ? 1 : 0;
  }

  /**
   * Frees places a crash left held: by a scan that ended (a crash between its end and the
   * freeing), or by a scan that was never stored (a crash between the place and the insert),
   * which is told apart from one being created right now by being missing at two repairs in a row.
   */
  async repairPlaces(): Promise<number> {
    const { store, limits } = this.deps;
    let freed = 0;
    const missing = new Set<string>();
    for (const { orgId, scanId } of await limits.placesHeld()) {
      const scan = await store.get(orgId, scanId);
      const key = `${orgId} ${scanId}`;
      if (!scan && !this.missing.has(key)) missing.add(key);
      else if (!scan || isTerminal(scan.status)) {
        await limits.freePlace(orgId, scanId);
        freed++;
      }
    }
    this.missing = missing;
    return freed;
  }
}
