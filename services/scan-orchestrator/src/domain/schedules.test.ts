import { DomainError } from "@vulnscan/kit/core";
import { describe, expect, it } from "vitest";
import { PLANS, testDomain } from "./testing.js";
import type { CreateScheduleInput } from "./schedules.js";

const weekly: CreateScheduleInput = {
  orgId: "org_p",
  target: "93.184.216.34",
  frequency: "weekly",
  dayOfWeek: 1,
  hour: 9,
  timezone: "Europe/Berlin",
  frameworks: [],
  ports: "",
  authorized: true,
};

async function errorOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return { kind: err.kind, code: err.errorCode, field: err.field };
    throw err;
  }
  throw new Error("expected a DomainError");
}

describe("schedules", () => {
  it("need a plan with schedules (PERMISSION_DENIED PLAN_UPGRADE_REQUIRED)", async () => {
    const d = testDomain();
    expect(await errorOf(d.schedules.create({ ...weekly, orgId: "org_s" }))).toEqual({
      kind: "forbidden",
      code: "PLAN_UPGRADE_REQUIRED",
      field: undefined,
    });
  });

  it("compute next_run_at in the schedule's zone", async () => {
    const d = testDomain({ start: new Date("2026-03-20T00:00:00Z") });
    const s = await d.schedules.create(weekly);
    expect(s.next_run_at.toISOString()).toBe("2026-03-23T08:00:00.000Z");
    expect(s).toMatchObject({ frequency: "weekly", day_of_week: 1, hour: 9, timezone: "Europe/Berlin", last_scan_id: "" });
    expect(s._id).toMatch(/^schedule_/);
  });

  it.each([
    [{ frequency: undefined }, "frequency"],
    [{ dayOfWeek: undefined }, "day_of_week"],
    [{ dayOfWeek: 7 }, "day_of_week"],
    [{ frequency: "daily" as const }, "day_of_week"],
    [{ frequency: "monthly" as const, dayOfWeek: undefined }, "day_of_month"],
    [{ frequency: "monthly" as const, dayOfWeek: undefined, dayOfMonth: 29 }, "day_of_month"],
    [{ dayOfMonth: 3 }, "day_of_month"],
    [{ hour: 24 }, "hour"],
    [{ hour: -1 }, "hour"],
    [{ timezone: "Mars/Base" }, "timezone"],
    [{ target: "10.0.0.1" }, "target"],
    [{ target: "8.8.8.0/23" }, "target"],
    [{ authorized: false }, "authorized"],
    [{ frameworks: ["nope"] }, "frameworks"],
    [{ ports: "99999" }, "ports"],
  ])("refuse %j on %s", async (patch, field) => {
    const d = testDomain();
    expect(await errorOf(d.schedules.create({ ...weekly, ...patch }))).toMatchObject({ code: "VALIDATION_ERROR", field });
  });

  it("default the zone to UTC; list oldest first; delete is org-scoped", async () => {
    const d = testDomain();
    const a = await d.schedules.create({ ...weekly, frequency: "daily", dayOfWeek: undefined, timezone: "" });
    d.clock.advance(1000);
    const b = await d.schedules.create({ ...weekly, frequency: "monthly", dayOfWeek: undefined, dayOfMonth: 28 });
    expect(a.timezone).toBe("UTC");
    expect((await d.schedules.list("org_p", { page: 1, perPage: 20 })).items.map((s) => s._id)).toEqual([a._id, b._id]);
    expect(await errorOf(d.schedules.delete("org_e", a._id))).toMatchObject({ code: "NOT_FOUND" });
    await d.schedules.delete("org_p", a._id);
    expect((await d.schedules.list("org_p", { page: 1, perPage: 20 })).total).toBe(1);
  });

  it("run once per due time through CreateScan, then move on; a refusal is recorded on the schedule", async () => {
    const d = testDomain({ start: new Date("2026-03-10T08:30:00Z") });
    const s = await d.schedules.create({ ...weekly, frequency: "daily", dayOfWeek: undefined, timezone: "UTC" });
    expect(await d.schedules.runDue()).toEqual({ created: 0, refused: 0, failed: 0 });
    d.clock.set(new Date("2026-03-10T09:00:05Z"));
    expect(await d.schedules.runDue()).toEqual({ created: 1, refused: 0, failed: 0 });
    expect(await d.schedules.runDue()).toEqual({ created: 0, refused: 0, failed: 0 });
    const [stored] = (await d.schedules.list("org_p", { page: 1, perPage: 20 })).items;
    expect(stored?.next_run_at.toISOString()).toBe("2026-03-11T09:00:00.000Z");
    const scan = await d.scans.get("org_p", stored!.last_scan_id);
    expect(scan).toMatchObject({ schedule_id: s._id, status: "pending", target: "93.184.216.34" });
    expect(d.scanStore.published.events[0]?.payload).toMatchObject({ case: "scanCreated", value: { scheduleId: s._id } });

    // The next day three scans are still pending (Professional allows 3 at once)...
    for (let i = 0; i < 2; i++) await d.scans.create({ orgId: "org_p", target: "93.184.216.34", frameworks: [], ports: "", authorized: true });
    d.clock.set(new Date("2026-03-11T09:00:01Z"));
    expect(await d.schedules.runDue()).toEqual({ created: 0, refused: 1, failed: 0 });
    const [after] = (await d.schedules.list("org_p", { page: 1, perPage: 20 })).items;
    expect(after?.last_error).toMatch(/^CONCURRENT_SCAN_LIMIT/);
    expect(after?.next_run_at.toISOString()).toBe("2026-03-12T09:00:00.000Z");
  });

  it("stop creating scans once the plan loses schedules", async () => {
    const plans = { org_x: { ...PLANS.professional } };
    const d = testDomain({ plans, start: new Date("2026-03-10T08:30:00Z") });
    await d.schedules.create({ ...weekly, orgId: "org_x", frequency: "daily", dayOfWeek: undefined });
    plans.org_x = { ...PLANS.startup };
    d.clock.set(new Date("2026-03-11T09:00:00Z"));
    expect(await d.schedules.runDue()).toEqual({ created: 0, refused: 1, failed: 0 });
  });

  it("two schedulers on one store run a due schedule once", async () => {
    const d = testDomain({ start: new Date("2026-03-10T08:30:00Z") });
    await d.schedules.create({ ...weekly, orgId: "org_e", frequency: "daily", dayOfWeek: undefined, timezone: "UTC" });
    d.clock.set(new Date("2026-03-10T09:00:00Z"));
    const results = await Promise.all([d.schedules.runDue(), d.schedules.runDue()]);
    expect(results.reduce((n, r) => n + r.created, 0)).toBe(1);
    expect(d.scanStore.scans.size).toBe(1);
  });
});
