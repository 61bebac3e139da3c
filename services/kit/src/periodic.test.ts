import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startPeriodic } from "./periodic.js";

function quietLogger() {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (_obj: unknown, msg?: string) => void warnings.push(String(msg)) } as never };
}

// The passes wait on the global setTimeout (not node:timers/promises), which the fake timers drive.
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("startPeriodic", () => {
  it("runs every interval, never overlapping: a slow pass delays the next", async () => {
    const { logger } = quietLogger();
    let active = 0;
    let maxActive = 0;
    const starts: number[] = [];
    const job = startPeriodic({
      name: "slow",
      intervalMs: 100,
      logger,
      run: async () => {
        starts.push(Date.now());
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((r) => setTimeout(r, 250));
        active--;
      },
    });
    const t0 = Date.now();
    await vi.advanceTimersByTimeAsync(1100); // passes at 100–350, 450–700, 800–1050; the next would be at 1150
    await job.stop();
    expect(maxActive).toBe(1);
    expect(starts.map((s) => s - t0)).toEqual([100, 450, 800]);
  });

  it("logs a failing pass and goes on", async () => {
    const { logger, warnings } = quietLogger();
    let n = 0;
    const job = startPeriodic({
      name: "flaky",
      intervalMs: 10,
      logger,
      run: async () => {
        if (++n === 1) throw new Error("boom");
      },
    });
    await vi.advanceTimersByTimeAsync(35);
    await job.stop();
    expect(n).toBe(3);
    expect(warnings).toEqual(["flaky failed; will retry"]);
  });

  it("stop waits for the pass in flight and starts no other", async () => {
    const { logger } = quietLogger();
    let finished = false;
    let passes = 0;
    const job = startPeriodic({
      name: "j",
      intervalMs: 10,
      immediate: true,
      logger,
      run: async () => {
        passes++;
        await new Promise((r) => setTimeout(r, 50));
        finished = true;
      },
    });
    expect(passes).toBe(1); // immediate: the first pass started at once
    const stopped = job.stop();
    let done = false;
    void stopped.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(20);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(40);
    expect(done).toBe(true);
    expect(finished).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(passes).toBe(1);
    await job.stop();
  });

  it("spreads the pause by the jitter", async () => {
    const { logger } = quietLogger();
    const starts: number[] = [];
    const randoms = [0, 1, 0.5];
    const job = startPeriodic({
      name: "j",
      intervalMs: 100,
      jitter: 0.2,
      random: () => randoms.shift() ?? 0.5,
      logger,
      run: async () => void starts.push(Date.now()),
    });
    const t0 = Date.now();
    await vi.advanceTimersByTimeAsync(300);
    await job.stop();
    expect(starts.map((s) => s - t0)).toEqual([80, 200, 300]);
  });

  it("skips passes while the lease is held elsewhere and releases it on stop", async () => {
    const { logger } = quietLogger();
    let held = false;
    let released = 0;
    let passes = 0;
    const job = startPeriodic({
      name: "leased",
      intervalMs: 10,
      logger,
      lease: { acquire: async () => held, release: async () => void released++ },
      run: async () => void passes++,
    });
    await vi.advanceTimersByTimeAsync(25);
    expect(passes).toBe(0);
    held = true;
    await vi.advanceTimersByTimeAsync(20);
    expect(passes).toBe(2);
    await job.stop();
    await job.stop();
    expect(released).toBe(1);
  });
});
