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
 * timeout. Dependency results are kept for `cacheMs` and then refreshed in the background
 * while the last result is served, so a probe (gRPC health, /readyz, the gateway's
 * /api/health) answers from memory: a busy moment slows the refresh, never the probe
 * (a probe that waited on a slow ping timed out and reported a healthy service as down).
 */
export class Readiness {
  private started = false;
  private stopping = false;
  private last?: { at: number; checks: ReadinessReport["checks"] };
  private refreshing?: Promise<ReadinessReport["checks"]>;
  private readonly checks: ReadinessCheck[] = [];

  constructor(private readonly opts: { timeoutMs?: number; cacheMs?: number } = {}) {}

  add(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  markStarted(): void {
    this.started = true;
  }

  markStopping(): void {
    this.stopping = true;
  }

  async report(): Promise<ReadinessReport> {
    const fresh = this.last && Date.now() - this.last.at < (this.opts.cacheMs ?? 1000);
    // The first report waits for its checks; later ones serve the last result while a refresh runs.
    const deps = fresh ? this.last!.checks : this.last ? (void this.refresh(), this.last.checks) : await this.refresh();
    const checks: ReadinessReport["checks"] = { ...deps };
    checks.startup = this.started ? { ok: true } : { ok: false, error: "starting" };
    if (this.stopping) checks.shutdown = { ok: false, error: "shutting down" };
    return { ready: Object.values(checks).every((c) => c.ok), checks };
  }

  /** One refresh at a time, however many probes ask. */
  private refresh(): Promise<ReadinessReport["checks"]> {
    this.refreshing ??= this.runChecks().then((checks) => {
      this.last = { at: Date.now(), checks };
      this.refreshing = undefined;
      return checks;
    });
    return this.refreshing;
  }

  private async runChecks(): Promise<ReadinessReport["checks"]> {
    const timeoutMs = this.opts.timeoutMs ?? 2000;
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
