import { describe, expect, it } from "vitest";
import { estimateSeconds, measuredEstimate, RECENT_DURATIONS, withDuration } from "./estimate.js";
import type { Report } from "./reports.js";
import { testDomain } from "./testing.js";
import { zeroCounts } from "./types.js";

describe("estimateSeconds", () => {
  it("is the type's base for one host and the default ports", () => {
    expect(estimateSeconds("quick", 1, undefined, 1e9)).toBe(420);
    expect(estimateSeconds("full", 1, undefined, 1e9)).toBe(2700);
    expect(estimateSeconds("compliance", 1, undefined, 1e9)).toBe(1320);
  });

  it("scales with hosts (log) and ports (square root, clamped)", () => {
    expect(estimateSeconds("quick", 16, undefined, 1e9)).toBe(840); // /28: ×2
    expect(estimateSeconds("quick", 256, undefined, 1e9)).toBe(1260); // /24: ×3
    expect(estimateSeconds("quick", 1, 4000, 1e9)).toBe(840); // ×2
    expect(estimateSeconds("quick", 1, 1, 1e9)).toBe(210); // floor ×0.5
    expect(estimateSeconds("quick", 1, 65535, 1e9)).toBe(1680); // cap ×4
  });

  it("never exceeds the type's maximum duration", () => {
    expect(estimateSeconds("full", 4096, 65535, 7200)).toBe(7200);
  });
});

describe("estimated_duration from the organization's recent scans", () => {
  it("is the median of the latest measured durations, the formula's default without any, within the type's maximum", () => {
    expect(measuredEstimate([], 420, 1800)).toBe(420);
    expect(measuredEstimate([2.2], 420, 1800)).toBe(2);
    expect(measuredEstimate([5, 3, 400], 420, 1800)).toBe(5);
    expect(measuredEstimate([4, 6], 420, 1800)).toBe(5);
    expect(measuredEstimate([0.2], 420, 1800)).toBe(1);
    expect(measuredEstimate([9000], 420, 1800)).toBe(1800);
  });

  it("keeps only the latest RECENT_DURATIONS as the running summary", () => {
    let recent: number[] = [];
    for (let i = 1; i <= RECENT_DURATIONS + 5; i++) recent = withDuration(recent, i);
    expect(recent).toEqual(Array.from({ length: RECENT_DURATIONS }, (_, i) => i + 6));
  });

  it("a new scan is estimated from the organization's completed scans of its type, not others' nor other types'", async () => {
    const d = testDomain();
    const create = (orgId: string, scanType: "quick" | "full") =>
      d.scans.create({ orgId, target: "93.184.216.34", scanType, frameworks: [], ports: "", authorized: true });
    const first = await create("org_p", "quick");
    expect(first.estimated_duration_seconds).toBe(estimateSeconds("quick", 1, undefined, 1800));
    // The scan runs 3 s from its start (the estimate measures started → completed, not the queue).
    d.clock.advance(60_000);
    const report = (kind: string, extra: object = {}) => d.reports.apply({ scanId: first._id, orgId: "org_p", attempt: 1, kind, ...extra } as Report);
    await report("phase_started", { phase: "discovery", tool: "portscan" });
    d.clock.advance(3_000);
    await report("completed", { counts: zeroCounts() });
    expect(await d.durations.recent("org_p", "quick")).toEqual([3]);
    expect((await create("org_p", "quick")).estimated_duration_seconds).toBe(3);
    expect((await create("org_p", "full")).estimated_duration_seconds).toBe(estimateSeconds("full", 1, undefined, 7200));
    expect((await create("org_e", "quick")).estimated_duration_seconds).toBe(estimateSeconds("quick", 1, undefined, 1800));
  });

  it("records nothing for a scan that failed or was cancelled", async () => {
    const d = testDomain();
    const scan = await d.scans.create({ orgId: "org_e", target: "93.184.216.34", scanType: "quick", frameworks: [], ports: "", authorized: true });
    await d.scans.cancel("org_e", scan._id);
    expect(await d.durations.recent("org_e", "quick")).toEqual([]);
  });
});
