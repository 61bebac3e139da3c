import { describe, expect, it } from "vitest";
import { isValidTimeZone, nextRunAt, type Recurrence } from "./schedule-time.js";

const at = (iso: string) => new Date(iso);
const next = (r: Recurrence, after: string) => nextRunAt(r, at(after)).toISOString();

describe("nextRunAt", () => {
  it("daily: later today if the hour is still ahead, else tomorrow; strictly after", () => {
    const r: Recurrence = { frequency: "daily", hour: 9, timezone: "UTC" };
    expect(next(r, "2026-03-10T08:59:59Z")).toBe("2026-03-10T09:00:00.000Z");
    expect(next(r, "2026-03-10T09:00:00Z")).toBe("2026-03-11T09:00:00.000Z");
    expect(next(r, "2026-12-31T10:00:00Z")).toBe("2027-01-01T09:00:00.000Z");
  });

  it("weekly: day_of_week 0 = Sunday … 6 = Saturday", () => {
    // 2026-03-10 is a Tuesday.
    expect(next({ frequency: "weekly", day_of_week: 0, hour: 6, timezone: "UTC" }, "2026-03-10T12:00:00Z")).toBe("2026-03-15T06:00:00.000Z");
    expect(next({ frequency: "weekly", day_of_week: 2, hour: 13, timezone: "UTC" }, "2026-03-10T12:00:00Z")).toBe("2026-03-10T13:00:00.000Z");
    expect(next({ frequency: "weekly", day_of_week: 2, hour: 11, timezone: "UTC" }, "2026-03-10T12:00:00Z")).toBe("2026-03-17T11:00:00.000Z");
    expect(next({ frequency: "weekly", day_of_week: 6, hour: 0, timezone: "UTC" }, "2026-03-10T12:00:00Z")).toBe("2026-03-14T00:00:00.000Z");
  });

  it("monthly: day_of_month, next month once this month's has passed, across the year", () => {
    expect(next({ frequency: "monthly", day_of_month: 28, hour: 3, timezone: "UTC" }, "2026-02-27T00:00:00Z")).toBe("2026-02-28T03:00:00.000Z");
    expect(next({ frequency: "monthly", day_of_month: 1, hour: 3, timezone: "UTC" }, "2026-12-01T03:00:00Z")).toBe("2027-01-01T03:00:00.000Z");
  });

  it("keeps local wall time across DST in Europe/Berlin (CET +1 → CEST +2 on 2026-03-29)", () => {
    const r: Recurrence = { frequency: "daily", hour: 9, timezone: "Europe/Berlin" };
    expect(next(r, "2026-03-28T09:00:00Z")).toBe("2026-03-29T07:00:00.000Z"); // 09:00 CEST
    expect(next(r, "2026-03-27T12:00:00Z")).toBe("2026-03-28T08:00:00.000Z"); // 09:00 CET
    // Back to CET on 2026-10-25.
    expect(next(r, "2026-10-24T08:00:00Z")).toBe("2026-10-25T08:00:00.000Z");
  });

  it("a weekly Monday 09:00 Berlin run is the same local time before and after the change", () => {
    const r: Recurrence = { frequency: "weekly", day_of_week: 1, hour: 9, timezone: "Europe/Berlin" };
    expect(next(r, "2026-03-20T00:00:00Z")).toBe("2026-03-23T08:00:00.000Z");
    expect(next(r, "2026-03-23T08:00:00Z")).toBe("2026-03-30T07:00:00.000Z");
  });

  it("in a skipped hour (Berlin 02:xx on 2026-03-29) runs at the first instant after the gap", () => {
    const r: Recurrence = { frequency: "daily", hour: 2, timezone: "Europe/Berlin" };
    expect(next(r, "2026-03-28T12:00:00Z")).toBe("2026-03-29T01:00:00.000Z"); // 03:00 CEST
    expect(next(r, "2026-03-29T01:00:00Z")).toBe("2026-03-30T00:00:00.000Z"); // 02:00 CEST
  });

  it("in a repeated hour (Berlin 02:xx on 2026-10-25) runs once, at the first one", () => {
    const r: Recurrence = { frequency: "daily", hour: 2, timezone: "Europe/Berlin" };
    expect(next(r, "2026-10-24T12:00:00Z")).toBe("2026-10-25T00:00:00.000Z"); // 02:00 CEST
    expect(next(r, "2026-10-25T00:00:00Z")).toBe("2026-10-26T01:00:00.000Z"); // not 01:00Z (02:00 CET) the same day
  });

  it("America/New_York: EST -5 → EDT -4 on 2026-03-08, back on 2026-11-01", () => {
    const r: Recurrence = { frequency: "daily", hour: 6, timezone: "America/New_York" };
    expect(next(r, "2026-03-07T12:00:00Z")).toBe("2026-03-08T10:00:00.000Z");
    expect(next(r, "2026-03-06T12:00:00Z")).toBe("2026-03-07T11:00:00.000Z");
    expect(next(r, "2026-10-31T12:00:00Z")).toBe("2026-11-01T11:00:00.000Z");
    const gap: Recurrence = { frequency: "daily", hour: 2, timezone: "America/New_York" };
    expect(next(gap, "2026-03-07T12:00:00Z")).toBe("2026-03-08T07:00:00.000Z"); // 03:00 EDT
    const monthly: Recurrence = { frequency: "monthly", day_of_month: 8, hour: 2, timezone: "America/New_York" };
    expect(next(monthly, "2026-02-09T00:00:00Z")).toBe("2026-03-08T07:00:00.000Z");
  });

  it("uses the zone's date, not UTC's, to pick the day", () => {
    // 2026-03-10T23:30Z is already Wednesday in Asia/Tokyo.
    const r: Recurrence = { frequency: "weekly", day_of_week: 3, hour: 9, timezone: "Asia/Tokyo" };
    expect(next(r, "2026-03-10T23:30:00Z")).toBe("2026-03-11T00:00:00.000Z");
  });

  it("validates IANA zone names", () => {
    expect(isValidTimeZone("Europe/Berlin")).toBe(true);
    expect(isValidTimeZone("UTC")).toBe(true);
    expect(isValidTimeZone("Mars/Olympus")).toBe(false);
    expect(isValidTimeZone("")).toBe(false);
  });
});
