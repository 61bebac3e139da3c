import { describe, expect, it } from "vitest";
import { assembleStats, averageDays } from "./stats.js";

describe("stats", () => {
  it("fills every severity and status, totals by status, and orders tools by count", () => {
    const s = assembleStats({
      bySeverity: [
        { _id: "critical", n: 2 },
        { _id: "info", n: 1 },
      ],
      byStatus: [
        { _id: "open", n: 2 },
        { _id: "accepted", n: 1 },
      ],
      byTool: [
        { _id: "nmap", n: 1 },
        { _id: "nuclei", n: 2 },
      ],
      resolutionMinutes: [],
      newThisWeek: 3,
      resolvedThisWeek: 0,
    });
    expect(s).toEqual({
      total: 3,
      by_severity: { critical: 2, high: 0, medium: 0, low: 0, info: 1 },
      by_status: { open: 2, in_progress: 0, resolved: 0, false_positive: 0, accepted: 1 },
      by_tool: { nuclei: 2, nmap: 1 },
      trends: { new_this_week: 3, resolved_this_week: 0, average_resolution_days: 0 },
    });
    expect(Object.keys(s.by_tool)).toEqual(["nuclei", "nmap"]);
  });

  it("averages resolution time in code, weighted by count, in days with two decimals", () => {
    // 2 findings in 1 day, 1 in 4 days → 2 days.
    expect(
      averageDays([
        { _id: 1440, n: 2 },
        { _id: 5760, n: 1 },
      ]),
    ).toBe(2);
    expect(averageDays([{ _id: 720, n: 1 }])).toBe(0.5);
    expect(averageDays([{ _id: 100, n: 3 }])).toBe(0.07);
    expect(averageDays([{ _id: null, n: 5 }])).toBe(0);
  });
});

describe("stats from a finer grouping", () => {
  it("adds up repeated keys", () => {
    const s = assembleStats({
      bySeverity: [
        { _id: "high", n: 2 },
        { _id: "high", n: 3 },
      ],
      byStatus: [
        { _id: "open", n: 2 },
        { _id: "open", n: 3 },
      ],
      byTool: [
        { _id: "nmap", n: 2 },
        { _id: "nmap", n: 3 },
        { _id: "tls", n: 1 },
      ],
      resolutionMinutes: [],
      newThisWeek: 0,
      resolvedThisWeek: 0,
    });
    expect(s).toMatchObject({ total: 5, by_severity: { high: 5 }, by_status: { open: 5 }, by_tool: { nmap: 5, tls: 1 } });
  });
});
