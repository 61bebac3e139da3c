import { describe, expect, it } from "vitest";
import { Readiness } from "./readiness.js";

/** A "mongo" check that fails with "connection refused" while `up()` is false. */
const mongoCheck = (up: () => boolean) => ({
  name: "mongo",
  check: async () => {
    if (!up()) throw new Error("connection refused");
  },
});

describe("Readiness", () => {
  it("is not ready until started, and names the failing dependency", async () => {
    let mongoUp = false;
    const r = new Readiness({ cacheMs: 20, timeoutMs: 50 });
    r.add(mongoCheck(() => mongoUp));
    r.add({ name: "kafka", check: () => new Promise(() => undefined) });
    let report = await r.report();
    expect(report.ready).toBe(false);
    expect(report.checks.mongo).toEqual({ ok: false, error: "connection refused" });
    expect(report.checks.kafka?.error).toMatch(/no answer within 50 ms/);
    expect(report.checks.startup?.ok).toBe(false);
    r.markStopping();

    mongoUp = true;
    const r2 = new Readiness({ cacheMs: 20 });
    r2.add(mongoCheck(() => mongoUp));
    r2.markStarted();
    expect((await r2.report()).ready).toBe(true);
    r2.markStopping();
    report = await r2.report();
    expect(report.ready).toBe(false);
    expect(report.checks.shutdown?.ok).toBe(false);
  });

  it("answers from memory while a slow check refreshes, and reports the failure once the check gives up", async () => {
    let slow = false;
    const r = new Readiness({ cacheMs: 20, timeoutMs: 100 });
    r.add({ name: "kafka", check: () => (slow ? new Promise<void>(() => undefined) : Promise.resolve()) });
    r.markStarted();
    expect((await r.report()).ready).toBe(true);
    slow = true;
    const t0 = Date.now();
    expect((await r.report()).ready).toBe(true); // the last result, at once
    expect(Date.now() - t0).toBeLessThan(50);
    await new Promise((res) => setTimeout(res, 200));
    const after = await r.report();
    expect(after.ready).toBe(false);
    expect(after.checks.kafka?.error).toMatch(/no answer within 100 ms/);
    r.markStopping();
  });

  it("keeps checking in the background, so a probe after a quiet spell sees a failure that began meanwhile", async () => {
    let up = true;
    const r = new Readiness({ cacheMs: 20, timeoutMs: 50 });
    r.add(mongoCheck(() => up));
    r.markStarted();
    expect((await r.report()).ready).toBe(true);
    up = false;
    await new Promise((res) => setTimeout(res, 100)); // no probe meanwhile
    expect(await r.report()).toMatchObject({ ready: false, checks: { mongo: { ok: false, error: "connection refused" } } });
    r.markStopping();
  });

  it("recheck() reports a dependency that came up at once, not at the next background run", async () => {
    let up = false;
    const r = new Readiness({ cacheMs: 60_000 });
    r.add(mongoCheck(() => up));
    r.markStarted();
    expect((await r.report()).ready).toBe(false);
    up = true;
    // Without a recheck the last result stands until the next run, a minute away.
    expect((await r.report()).ready).toBe(false);
    r.recheck();
    await new Promise((res) => setTimeout(res, 10));
    expect((await r.report()).ready).toBe(true);
    r.markStopping();
  });

  it("recheck() during a run runs the checks again once it ends, and runs one at a time", async () => {
    let calls = 0;
    let concurrent = 0;
    let maxConcurrent = 0;
    let up = false;
    const r = new Readiness({ cacheMs: 60_000 });
    r.add({
      name: "slow",
      check: async () => {
        calls++;
        maxConcurrent = Math.max(maxConcurrent, ++concurrent);
        const wasUp = up;
        await new Promise((res) => setTimeout(res, 30));
        concurrent--;
        if (!wasUp) throw new Error("down");
      },
    });
    r.markStarted();
    const first = r.report();
    up = true; // the run under way started before this
    r.recheck();
    r.recheck();
    expect((await first).ready).toBe(false);
    await new Promise((res) => setTimeout(res, 80));
    expect((await r.report()).ready).toBe(true);
    expect(calls).toBe(2);
    expect(maxConcurrent).toBe(1);
    r.markStopping();
  });
});
