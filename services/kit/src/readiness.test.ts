import { describe, expect, it } from "vitest";
import { Readiness } from "./readiness.js";

describe("Readiness", () => {
  it("is not ready until started, and names the failing dependency", async () => {
    let mongoUp = false;
    const r = new Readiness({ cacheMs: 0, timeoutMs: 50 });
    r.add({
      name: "mongo",
      check: async () => {
        if (!mongoUp) throw new Error("connection refused");
      },
    });
    r.add({ name: "kafka", check: () => new Promise(() => undefined) });
    let report = await r.report();
    expect(report.ready).toBe(false);
    expect(report.checks.mongo).toEqual({ ok: false, error: "connection refused" });
    expect(report.checks.kafka?.error).toMatch(/no answer within 50 ms/);
    expect(report.checks.startup?.ok).toBe(false);

    mongoUp = true;
    const r2 = new Readiness({ cacheMs: 0 });
    r2.add({
      name: "mongo",
      check: async () => {
        if (!mongoUp) throw new Error("down");
      },
    });
    r2.markStarted();
    expect((await r2.report()).ready).toBe(true);
    r2.markStopping();
    report = await r2.report();
    expect(report.ready).toBe(false);
    expect(report.checks.shutdown?.ok).toBe(false);
  });
});
