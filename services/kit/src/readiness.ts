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
 * timeout. Results are cached briefly so probes from many sources do not hammer them.
 */
export class Readiness {
  private started = false;
  private stopping = false;
  private cached?: { at: number; report: ReadinessReport };
  private readonly checks: ReadinessCheck[] = [];

  constructor(private readonly opts: { timeoutMs?: number; cacheMs?: number } = {}) {}

  add(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  markStarted(): void {
    this.started = true;
    this.cached = undefined;
  }

  markStopping(): void {
    this.stopping = true;
    this.cached = undefined;
  }

  async report(): Promise<ReadinessReport> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < (this.opts.cacheMs ?? 1000)) return this.cached.report;
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
    const checks: ReadinessReport["checks"] = Object.fromEntries(entries);
    checks.startup = this.started ? { ok: true } : { ok: false, error: "starting" };
    if (this.stopping) checks.shutdown = { ok: false, error: "shutting down" };
    const report = { ready: Object.values(checks).every((c) => c.ok), checks };
    this.cached = { at: now, report };
    return report;
  }
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
