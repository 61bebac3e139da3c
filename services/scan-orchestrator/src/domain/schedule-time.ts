import { DateTime, IANAZone } from "luxon";

/*
 * When a schedule runs next, computed in its own time zone so "every Monday at 09:00
 * Europe/Berlin" stays 09:00 local across daylight-saving changes. A local time that does not
 * exist (the hour skipped when clocks go forward) runs at the first instant after the gap (02:30
 * becomes 03:30 for a one-hour gap); a local time that exists twice (clocks go back) runs once,
 * at the first of the two.
 */

export type Frequency = "daily" | "weekly" | "monthly";

export interface Recurrence {
  frequency: Frequency;
  /** 0-6, 0 = Sunday; weekly only. */
  day_of_week?: number;
  /** 1-28; monthly only. */
  day_of_month?: number;
  hour: number;
  timezone: string;
}

export function isValidTimeZone(name: string): boolean {
  return name.length > 0 && IANAZone.isValidZone(name);
}

function matches(r: Recurrence, day: DateTime): boolean {
  switch (r.frequency) {
    case "daily":
      return true;
    case "weekly":
      return day.weekday % 7 === r.day_of_week; // luxon: 1 = Monday … 7 = Sunday
    case "monthly":
      return day.day === r.day_of_month;
  }
}

/** The first run strictly after `after`. */
export function nextRunAt(r: Recurrence, after: Date): Date {
  const zone = r.timezone;
  let day = DateTime.fromJSDate(after, { zone }).startOf("day");
  // A monthly run is at most 31 days away (day_of_month ≤ 28); two months bound every case.
  for (let i = 0; i < 64; i++, day = day.plus({ days: 1 })) {
    if (!matches(r, day)) continue;
    // A wall time in a DST gap comes out moved forward by the gap; one in an overlap has two
    // instants, of which the earlier is taken.
    const wall = DateTime.fromObject({ year: day.year, month: day.month, day: day.day, hour: r.hour }, { zone });
    const at = Math.min(...wall.getPossibleOffsets().map((d) => d.toMillis()), wall.toMillis());
    if (at > after.getTime()) return new Date(at);
  }
  throw new Error(`no run time found for ${JSON.stringify(r)}`);
}
