import { describe, expect, it } from "vitest";
import { addTo, contributionOf, emptyCounts, statsOf, statsScopes } from "./rollup.js";

const finding = (over: object) => ({
  target: "t",
  detected_at: new Date("2026-03-01T10:00:00Z"),
  severity: "critical" as const,
  status: "open" as const,
  tool: "nuclei",
  resolved_at: null,
  resolution_minutes: null,
  ...over,
});

describe("stats", () => {
  it("fills every severity and status, totals by status, and orders tools by count", () => {
    const c = emptyCounts();
    for (const over of [{}, {}, { severity: "info", status: "accepted", tool: "nmap" }, { tool: "nmap" }, { tool: "nmap" }])
      addTo(c, contributionOf(finding(over)), 1);
    addTo(c, contributionOf(finding({ tool: "nmap" })), -1);
    const s = statsOf(c, c, "2026-03-04");
    expect(s).toEqual({
      total: 4,
      by_severity: { critical: 3, high: 0, medium: 0, low: 0, info: 1 },
      by_status: { open: 3, in_progress: 0, resolved: 0, false_positive: 0, accepted: 1 },
      by_tool: { nuclei: 2, nmap: 2 },
      trends: { new_this_week: 4, resolved_this_week: 0, average_resolution_days: 0 },
    });
    expect(Object.keys(s.by_tool)).toEqual(["nmap", "nuclei"]);
  });

  it("averages resolution time over the resolved, in days with two decimals", () => {
    const c = emptyCounts();
    const resolved = (minutes: number) => finding({ status: "resolved", resolved_at: new Date("2026-03-02T00:00:00Z"), resolution_minutes: minutes });
    for (const m of [1440, 1440, 5760]) addTo(c, contributionOf(resolved(m)), 1);
    expect(statsOf(c, emptyCounts(), "2026-03-04").trends).toEqual({ new_this_week: 0, resolved_this_week: 3, average_resolution_days: 2 });
    expect(statsOf(c, emptyCounts(), "2026-03-20").trends.resolved_this_week).toBe(0);
  });

  it("reads all time without dates, and whole months plus days with them", () => {
    const bounds = { first_day: "2026-01-15", last_day: "2026-03-02" };
    expect(statsScopes(bounds, {}, "2026-03-04")).toEqual({
      range: ["all"],
      week: ["d:2026-02-26", "d:2026-02-27", "d:2026-02-28", "d:2026-03-01", "d:2026-03-02", "d:2026-03-03", "d:2026-03-04"],
    });
    const from = statsScopes(bounds, { from: new Date("2026-01-30T00:00:00Z") }, "2026-03-04");
    expect(from.range).toEqual(["d:2026-01-30", "d:2026-01-31", "d:2026-03-01", "d:2026-03-02", "d:2026-03-03", "d:2026-03-04", "m:2026-02"]);
    expect(statsScopes({}, { to: new Date("2026-01-01T00:00:00Z") }, "2026-03-04").range).toEqual([]);
  });
});
