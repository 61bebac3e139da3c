export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, { ok: boolean; error?: string }>;
}

/**
 * Ready means: started, not shutting down, and every dependency answered within the
 * timeout. After the first report the checks run in the background every `cacheMs` and a
 * probe (gRPC health, /readyz, the gateway's /api/health) answers from the last result:
 * a busy moment slows the next check, never the probe (a probe that waited on a slow ping
 * timed out and reported a healthy service as down), and the result is never older than
 * `cacheMs` plus the check timeout (a result kept until the next probe could be minutes old).
 */
export class Readiness {
  private started = false;
  private stopping = false;
  private last?: ReadinessReport["checks"];
  private first?: Promise<ReadinessReport["checks"]>;
  private timer?: NodeJS.Timeout;
  private running?: Promise<ReadinessReport["checks"]>;
  /** recheck() was called while a run was under way: the next one starts as soon as it ends. */
  private again = false;
  private readonly checks: ReadinessCheck[] = [];

  constructor(private readonly opts: { timeoutMs?: number; cacheMs?: number } = {}) {}

  add(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  markStarted(): void {
    this.started = true;
  }

  /** Not ready from now on; the background checks stop. */
  markStopping(): void {
    this.stopping = true;
    clearTimeout(this.timer);
  }

  async report(): Promise<ReadinessReport> {
    this.first ??= this.refresh();
    const deps = this.last ?? (await this.first);
    const checks: ReadinessReport["checks"] = { ...deps };
    checks.startup = this.started ? { ok: true } : { ok: false, error: "starting" };
    if (this.stopping) checks.shutdown = { ok: false, error: "shutting down" };
    return { ready: Object.values(checks).every((c) => c.ok), checks };
  }

  /**
   * Runs the checks now rather than at the next background run: a process that has just become
   * able to serve (the gateway's auth view loaded) says so at once, instead of up to `cacheMs`
   * later because a probe happened to ask a moment before.
   */
  recheck(): void {
    if (this.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    const run = this.refresh();
    this.first ??= run;
  }

  /** Runs the checks (one run at a time), keeps the result, and schedules the next run (the timer never holds the process open). */
  private refresh(): Promise<ReadinessReport["checks"]> {
    this.running ??= this.runChecks().then((checks) => {
      this.last = checks;
      this.running = undefined;
      if (!this.stopping) {
        this.timer = setTimeout(() => void this.refresh(), this.again ? 0 : (this.opts.cacheMs ?? 1000));
        this.timer.unref();
      }
      this.again = false;
      return checks;
    });
    return this.running;
  }

  private async runChecks(): Promise<ReadinessReport["checks"]> {
    const timeoutMs = this.opts.timeoutMs ?? 5000;
    const entries = await Promise.all(
      this.checks.map(async (c) => {
        try {
          await withTimeout(c.check(), timeoutMs, c.name);
          return [c.name, { ok: true }] as const;
        } catch (err) {
          return [c.name, { ok: false, error: err instanceof Error ? err.message : String(err) }] as const;
        }
      }),
    );
    return Object.fromEntries(entries);
  }
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
