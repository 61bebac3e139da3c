import type { ChildProcess } from "node:child_process";

/** Restart delays double from 1 s up to 30 s; a process that ran a minute starts over at 1 s. */
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
const STABLE_AFTER_MS = 60_000;

export interface SupervisorOptions {
  name: string;
  /** Restarts it when it exits on its own; false leaves it stopped (tests that stop services). */
  restart: boolean;
  /** Told every unexpected exit and restart, e.g. the `npm start` terminal. */
  say?: (line: string) => void;
  /** Overrides for tests. */
  firstDelayMs?: number;
}

/**
 * Keeps one process running: when it exits on its own (a crash, an OOM kill, `kill -9`), says so
 * and starts it again with the same command, after a back-off so a process that cannot start
 * does not spin. Its address and ports stay the same, so its peers reconnect by themselves.
 * stop() ends it for good.
 */
export class Supervised {
  child: ChildProcess;
  /** When the running process was spawned (Date.now()). */
  spawnedAt = 0;
  restarts = 0;
  private stopping = false;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly start: () => ChildProcess,
    private readonly opts: SupervisorOptions,
  ) {
    this.child = this.spawn();
  }

  private spawn(): ChildProcess {
    const child = this.start();
    const startedAt = Date.now();
    this.spawnedAt = startedAt;
    child.once("exit", (code, signal) => {
      if (this.stopping || !this.opts.restart) return;
      if (Date.now() - startedAt >= STABLE_AFTER_MS) this.failures = 0;
      const delay = Math.min(MAX_DELAY_MS, (this.opts.firstDelayMs ?? FIRST_DELAY_MS) * 2 ** this.failures++);
      this.opts.say?.(`${this.opts.name} exited (${signal ?? `code ${code}`}); restarting it in ${(delay / 1000).toFixed(1)} s`);
      this.timer = setTimeout(() => {
        if (this.stopping) return;
        this.child = this.spawn();
        this.restarts++;
        this.opts.say?.(`${this.opts.name} restarted (pid ${this.child.pid})`);
      }, delay);
    });
    return child;
  }

  /**
   * No restart from now on (a pending one is cancelled), without stopping it yet: a system that
   * shuts down says so to every process first, so one that exits while it waits its turn (a
   * signal that reached the whole process group) is not taken for a crash and started again.
   */
  hold(): void {
    this.stopping = true;
    clearTimeout(this.timer);
  }

  /** Stops it for good: SIGTERM, then SIGKILL after the grace period. */
  async stop(graceMs = 10_000): Promise<void> {
    this.hold();
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    await exited;
    clearTimeout(timer);
  }

  /** Synchronous last resort (process exit): SIGKILL, no restart. */
  kill(): void {
    this.stopping = true;
    clearTimeout(this.timer);
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
  }
}
