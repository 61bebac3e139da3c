import { concurrencyKey, sameProjection, steps, type Lifecycle, type Step } from "./lifecycle.js";
import type { ConcurrencySlots, ScanStore } from "./ports.js";
import { isTerminal, transitionId, type ScanRecord } from "./types.js";

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
  if (now >= view.deadline) return steps.failed(view, DEADLINE_ERROR, now, true);
  const lastSign = Math.max(view.attempt_dispatched_at.getTime(), view.last_report_at?.getTime() ?? 0);
  if (now.getTime() - lastSign < settings.redispatchAfterMs) return undefined;
  if (view.attempt >= settings.maxAttempts) return steps.failed(view, WORKERS_LOST_ERROR, now, true);
  return steps.attempt(view, view.attempt + 1, "no report from the worker", now);
}

/**
 * One pass over the active scans. Any replica may run it at any time: every decision is a
 * transition claimed by a unique insert, so exactly one replica acts on it. It also repairs
 * what a crash or a lost update left behind: a stale projection, and concurrency slots still
 * held by scans that ended (or were never stored).
 */
export class Watchdog {
  constructor(
    private readonly deps: {
      store: ScanStore;
      lifecycle: Lifecycle;
      slots: ConcurrencySlots;
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

  /** One scan: 1 when this replica claimed a transition for it. */
  private async watch(scan: ScanRecord): Promise<number> {
    const { lifecycle, settings } = this.deps;
    const loaded = await lifecycle.loadFor(scan);
    const step = planWatch(loaded.view, this.deps.now(), settings);
    if (step) return (await lifecycle.apply(loaded, [step])).claimed.length > 0 ? 1 : 0;
    if (!sameProjection(scan, loaded.view)) {
      await lifecycle.apply(loaded, []); // re-projects; no new transition
      if (isTerminal(loaded.view.status)) await this.deps.slots.release(concurrencyKey(scan.org_id), scan._id);
    }
    return 0;
  }

  /** Releases slots whose holder ended or was never stored (a crash between slot and insert). */
  async reconcileSlots(olderThanMs = 60_000): Promise<number> {
    const { store, slots } = this.deps;
    let released = 0;
    for (const slot of await slots.heldBefore(new Date(this.deps.now().getTime() - olderThanMs))) {
      const orgId = slot.key.endsWith(":concurrent") ? slot.key.slice(0, -":concurrent".length) : undefined;
      if (!orgId) continue;
      const scan = await store.get(orgId, slot.holder);
      const ended = !scan || (await store.transitions(slot.holder)).some((t) => t._id === transitionId.terminal(slot.holder));
      if (ended && (await slots.release(slot.key, slot.holder))) released++;
    }
    return released;
  }
}
