import { describe, expect, it } from "vitest";
import { addTo, contributionOf, dayRange, deltaOf, emptyCounts, keyOf, nameOf, scopesFor, statsOf, targetCountsOf } from "./rollup.js";
import { announceBreach } from "./sla.js";
import type { FindingDoc } from "./types.js";

describe("rollup domain", () => {
  it("maps date filters onto the UTC days they touch", () => {
    expect(dayRange(new Date("2026-03-01T00:00:00Z"), new Date("2026-04-01T00:00:00Z"))).toEqual({ first: "2026-03-01", end: "2026-04-01" });
    expect(dayRange(new Date("2026-03-05T13:00:00Z"), new Date("2026-03-07T00:00:01Z"))).toEqual({ first: "2026-03-05", end: "2026-03-08" });
    expect(dayRange(undefined, undefined)).toEqual({ first: undefined, end: undefined });
  });

  it("covers a range with whole months and the days around them", () => {
    expect(scopesFor("2026-01-30", "2026-03-02")).toEqual({ days: ["2026-01-30", "2026-01-31", "2026-03-01"], months: ["2026-02"] });
    expect(scopesFor("2026-02-01", "2026-02-03")).toEqual({ days: ["2026-02-01", "2026-02-02"], months: [] });
    expect(scopesFor("2026-12-01", "2027-01-01")).toEqual({ days: [], months: ["2026-12"] });
  });

  it("escapes names that cannot be field names, reversibly", () => {
    for (const s of ["10.0.0.1", "a$b.c", "100%", "plain"]) {
      expect(keyOf(s)).not.toMatch(/[.$]/);
      expect(nameOf(keyOf(s))).toBe(s);
    }
  });

  it("moves a finding's contribution on a status change and computes the stats from counts", () => {
    const f = {
      target: "t",
      detected_at: new Date("2026-03-01T10:00:00Z"),
      severity: "high" as const,
      status: "open" as const,
      tool: "nmap",
      resolved_at: null,
      resolution_minutes: null,
    };
    const before = contributionOf(f);
    const after = contributionOf({ ...f, status: "resolved", resolved_at: new Date("2026-03-03T10:00:00Z"), resolution_minutes: 2880 });
    expect(deltaOf(before, before)).toBeNull();
    const c = emptyCounts();
    addTo(c, before, 1);
    const d = deltaOf(before, after)!;
    addTo(c, d.remove!, -1);
    addTo(c, d.add!, 1);
    const s = statsOf(c, emptyCounts(), "2026-03-04");
    expect(s).toMatchObject({
      total: 1,
      by_status: { resolved: 1, open: 0 },
      by_tool: { nmap: 1 },
      trends: { resolved_this_week: 1, average_resolution_days: 2, new_this_week: 0 },
    });
  });

  it("counts a breach from its announcement until the finding leaves the SLA or its deadline moves (target inventories)", () => {
    const due = new Date("2026-03-08T10:00:00Z");
    // Only the fields a contribution and the announcement read.
    const open = {
      target: "10.0.0.5",
      detected_at: new Date("2026-03-01T10:00:00Z"),
      severity: "high",
      status: "open",
      tool: "nmap",
      resolved_at: null,
      resolution_minutes: null,
      due_date: due,
      sla_breach_pending_at: due,
      sla_breach_announced: null,
    } as unknown as FindingDoc;
    const c = emptyCounts();
    const apply = (from: FindingDoc, to: FindingDoc) => {
      const d = deltaOf(contributionOf(from), contributionOf(to));
      if (d?.remove) addTo(c, d.remove, -1);
      if (d?.add) addTo(c, d.add, 1);
    };
    addTo(c, contributionOf(open), 1);
    expect(targetCountsOf(c)).toEqual({ open: { critical: 0, high: 1, medium: 0, low: 0, info: 0 }, sla_breached: 0 });

    // The upkeep's announcement is the write that makes it counted.
    const announced = { ...open, ...announceBreach(open, new Date("2026-03-09T00:00:00Z"))!.set };
    apply(open, announced);
    expect(targetCountsOf(c).sla_breached).toBe(1);

    // In progress still runs the SLA; resolving takes it out of both counts.
    const working: FindingDoc = { ...announced, status: "in_progress" };
    apply(announced, working);
    expect(targetCountsOf(c)).toEqual({ open: { critical: 0, high: 1, medium: 0, low: 0, info: 0 }, sla_breached: 1 });
    const resolved: FindingDoc = { ...working, status: "resolved", resolved_at: new Date("2026-03-10T00:00:00Z"), resolution_minutes: 60 };
    apply(working, resolved);
    expect(targetCountsOf(c)).toEqual({ open: { critical: 0, high: 0, medium: 0, low: 0, info: 0 }, sla_breached: 0 });

    // A later deadline set by a person is not the announced one: open again, not breached.
    const extended: FindingDoc = { ...announced, due_date: new Date("2026-04-30T00:00:00Z") };
    apply(resolved, extended);
    expect(targetCountsOf(c)).toEqual({ open: { critical: 0, high: 1, medium: 0, low: 0, info: 0 }, sla_breached: 0 });
    expect(c.br).toEqual({});
  });
});
