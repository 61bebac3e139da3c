import type { Logger } from "./logger.js";

/**
 * Who may run a pass when several replicas run the same job. `acquire` is asked before every
 * pass (false: this replica skips it); `release`, if any, once when the job stops. Every job in
 * the tree today is safe on every replica (passes are idempotent), so none passes one yet.
 */
export interface PeriodicLease {
  acquire(): Promise<boolean>;
  release?(): Promise<void>;
}

export interface PeriodicOptions {
  /** Names the job in failure logs ("<name> failed; will retry"). */
  name: string;
  /** Pause between the end of one pass and the start of the next. */
  intervalMs: number;
  run: () => Promise<unknown>;
  logger: Pick<Logger, "warn">;
  /** Spread of the pause as a fraction of `intervalMs` (0.1: 90–110 %), so replicas drift apart. */
  jitter?: number;
  /** Run the first pass at once instead of after the first pause. */
  immediate?: boolean;
  lease?: PeriodicLease;
  /** Randomness for the jitter (tests). */
  random?: () => number;
}

export interface PeriodicJob {
  /** No new pass starts; resolves once the pass in flight (if any) has finished. Safe to repeat. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalMs` without overlapping itself: the next pause starts when a pass
 * ends, so a slow pass delays the next instead of piling up. A failing pass is logged and the
 * job goes on. The timer does not keep the process alive; services stop their jobs on shutdown.
 */
export function startPeriodic(opts: PeriodicOptions): PeriodicJob {
  const jitter = Math.min(1, Math.max(0, opts.jitter ?? 0));
  const random = opts.random ?? Math.random;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const pass = async () => {
    if (opts.lease && !(await opts.lease.acquire())) return;
    await opts.run();
  };
  const schedule = (ms: number) => {
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const pause = () => Math.max(0, Math.round(opts.intervalMs * (1 + jitter * (2 * random() - 1))));
  const tick = () => {
    timer = undefined;
    running = pass()
      .catch((err) => opts.logger.warn({ err: (err as Error).message, job: opts.name }, `${opts.name} failed; will retry`))
      .finally(() => {
        running = undefined;
        if (!stopped) schedule(pause());
      });
  };

  if (opts.immediate) tick();
  else schedule(pause());

  return {
    stop: async () => {
      if (stopped) return void (await running);
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await opts.lease?.release?.().catch((err) => opts.logger.warn({ err: (err as Error).message, job: opts.name }, `${opts.name}: lease release failed`));
    },
  };
}
