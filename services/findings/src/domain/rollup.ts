import type { Stats } from "./stats.js";
import { SLA_STATUSES } from "./sla.js";
import { SEVERITIES, STATUSES, type FindingDoc, type Severity, type Status } from "./types.js";

/*
 * Stats from rollups (pure part). A finding counts in exactly one bucket for life: its
 * organization, target and detection day (UTC) never change. What it contributes there is its
 * Contribution; every state change moves it from the old contribution to the new one (a Delta).
 * Rollup documents hold the sums of contributions for one scope (all time, one detection day,
 * or one detection month; overall or for one target).
 */

export const DAY_MS = 24 * 3600 * 1000;

/** What one finding adds to the counts of its bucket. */
export interface Contribution {
  target: string;
  /** UTC detection day, YYYY-MM-DD. */
  day: string;
  severity: Severity;
  status: Status;
  tool: string;
  /** UTC day it was resolved, while resolved. */
  resolved_day: string | null;
  /** Whole minutes from detection to resolution, while resolved. */
  minutes: number;
  /**
   * Open or in progress past a deadline that was announced (finding.sla_breached): the counted
   * breach moves only with writes, and the announcement is the write that marks the passing of
   * the deadline (a stored state "breached" would go stale without one; DESIGN: SLA instants).
   */
  breached: boolean;
}

/** A change of one finding's contribution: from `remove` (absent for a new finding) to `add`. */
export interface Delta {
  remove?: Contribution;
  add?: Contribution;
}

export interface Counts {
  n: number;
  sev: Record<string, number>;
  st: Record<string, number>;
  tool: Record<string, number>;
  /** status|severity pairs: the triage list's total ("open, high"). */
  ss: Record<string, number>;
  /** Resolved findings and the sum of their resolution minutes (the average). */
  rn: number;
  rmin: number;
  /** Resolved findings by resolution day; only the last RESOLVED_DAYS_KEPT days are kept. */
  rday: Record<string, number>;
  /** Announced SLA breaches still open or in progress, by severity (target inventories, issue 29). */
  br: Record<string, number>;
}

export const dayOf = (d: Date): string => d.toISOString().slice(0, 10);
export const monthOf = (day: string): string => day.slice(0, 7);
export const dayStart = (day: string): number => Date.parse(`${day}T00:00:00.000Z`);
export const addDays = (day: string, n: number): string => dayOf(new Date(dayStart(day) + n * DAY_MS));

/** "This week" is the last 7 UTC days, today included; older resolution days are not needed. */
export const WEEK_DAYS = 7;
const RESOLVED_DAYS_KEPT = WEEK_DAYS + 1;

/** Target and tool names become field names: `.` and `$` (and `%`) are escaped. */
export const keyOf = (s: string): string => s.replace(/%/g, "%25").replace(/\./g, "%2E").replace(/\$/g, "%24");
export const nameOf = (k: string): string => k.replace(/%2E/g, ".").replace(/%24/g, "$").replace(/%25/g, "%");

/** The fields a contribution is made of (also the rebuild's projection). */
export const CONTRIBUTION_FIELDS = [
  "target",
  "detected_at",
  "severity",
  "status",
  "tool",
  "resolved_at",
  "resolution_minutes",
  "due_date",
  "sla_breach_announced",
] as const;

/** A deadline announced as breached and still the finding's deadline, while the SLA runs. */
export function breachCounted(f: Pick<FindingDoc, "status"> & Partial<Pick<FindingDoc, "due_date" | "sla_breach_announced">>): boolean {
  const announced = f.sla_breach_announced ?? null;
  return SLA_STATUSES.includes(f.status) && !!f.due_date && !!announced && announced.getTime() === f.due_date.getTime();
}

export function contributionOf(
  f: Pick<FindingDoc, "target" | "detected_at" | "severity" | "status" | "tool" | "resolved_at" | "resolution_minutes"> &
    Partial<Pick<FindingDoc, "due_date" | "sla_breach_announced">>,
): Contribution {
  const resolved = f.status === "resolved" && f.resolved_at;
  return {
    target: f.target,
    day: dayOf(f.detected_at),
    severity: f.severity,
    status: f.status,
    tool: f.tool,
    resolved_day: resolved ? dayOf(f.resolved_at!) : null,
    minutes: resolved ? (f.resolution_minutes ?? 0) : 0,
    breached: breachCounted(f),
  };
}

const same = (a: Contribution, b: Contribution) =>
  a.target === b.target &&
  a.day === b.day &&
  a.severity === b.severity &&
  a.status === b.status &&
  a.tool === b.tool &&
  a.resolved_day === b.resolved_day &&
  a.minutes === b.minutes &&
  a.breached === b.breached;

/** The delta of a change from `before` to `after`, or null when the counts do not move. */
export function deltaOf(before: Contribution | undefined, after: Contribution): Delta | null {
  if (before && same(before, after)) return null;
  return before ? { remove: before, add: after } : { add: after };
}

export const emptyCounts = (): Counts => ({ n: 0, sev: {}, st: {}, tool: {}, ss: {}, rn: 0, rmin: 0, rday: {}, br: {} });

const bump = (m: Record<string, number>, k: string, by: number) => {
  const v = (m[k] ?? 0) + by;
  if (v === 0) delete m[k];
  else m[k] = v;
};

/** Adds (sign 1) or takes away (-1) one contribution from counts, in place. */
export function addTo(c: Counts, x: Contribution, sign: 1 | -1): void {
  c.n += sign;
  bump(c.sev, x.severity, sign);
  bump(c.st, x.status, sign);
  bump(c.tool, keyOf(x.tool), sign);
  bump(c.ss, `${x.status}|${x.severity}`, sign);
  if (x.breached) bump(c.br, x.severity, sign);
  if (x.resolved_day) {
    c.rn += sign;
    c.rmin += sign * x.minutes;
    bump(c.rday, x.resolved_day, sign);
  }
}

/** Drops resolution days older than the trend window needs (keeps documents small). */
export function pruneResolvedDays(c: Counts, today: string): void {
  const oldest = addDays(today, -RESOLVED_DAYS_KEPT);
  for (const d of Object.keys(c.rday)) if (d < oldest) delete c.rday[d];
}

/*
 * Scopes: every contribution counts in six rollup documents — all time, its detection day and
 * its detection month, each once overall ("*") and once for its target — so a stats request
 * reads only small documents of its own filter. A scope is `<scope>|<who>` ("d:2026-03-01|*").
 */
export const ALL_TARGETS = "*";
export function scopesOf(x: Contribution): string[] {
  return [ALL_TARGETS, keyOf(x.target)].flatMap((who) => ["all", `d:${x.day}`, `m:${monthOf(x.day)}`].map((scope) => `${scope}|${who}`));
}

/** What adding (1) or taking away (-1) contributions does to the counts of each scope they count in. */
export function countsByScope(terms: Iterable<readonly [Contribution | undefined, 1 | -1]>): Map<string, Counts> {
  const out = new Map<string, Counts>();
  for (const [x, sign] of terms) {
    if (!x) continue;
    for (const scope of scopesOf(x)) {
      const c = out.get(scope) ?? emptyCounts();
      addTo(c, x, sign);
      out.set(scope, c);
    }
  }
  return out;
}

export function sumCounts(into: Counts, c: Counts): Counts {
  into.n += c.n;
  for (const [k, v] of Object.entries(c.sev)) bump(into.sev, k, v);
  for (const [k, v] of Object.entries(c.st)) bump(into.st, k, v);
  for (const [k, v] of Object.entries(c.tool)) bump(into.tool, k, v);
  for (const [k, v] of Object.entries(c.ss)) bump(into.ss, k, v);
  into.rn += c.rn;
  into.rmin += c.rmin;
  for (const [k, v] of Object.entries(c.rday)) bump(into.rday, k, v);
  for (const [k, v] of Object.entries(c.br ?? {})) bump(into.br, k, v);
  return into;
}

/**
 * The spec's stats from summed counts: `range` over the filter's detection days, `week` over the
 * last 7 detection days within the filter (new_this_week). resolved_this_week counts resolution
 * days in the last 7 days; the average is Σ minutes / resolved count, in days, 2 decimals.
 */
export function statsOf(range: Counts, week: Counts, today: string): Stats {
  const weekStart = addDays(today, -(WEEK_DAYS - 1));
  const by_status = Object.fromEntries(STATUSES.map((k) => [k, range.st[k] ?? 0])) as Record<Status, number>;
  const tools = Object.entries(range.tool).filter(([, v]) => v !== 0);
  return {
    total: Object.values(by_status).reduce((a, b) => a + b, 0),
    by_severity: Object.fromEntries(SEVERITIES.map((k) => [k, range.sev[k] ?? 0])) as Record<Severity, number>,
    by_status,
    by_tool: Object.fromEntries(tools.map(([k, v]) => [nameOf(k), v] as const).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))),
    trends: {
      new_this_week: week.n,
      resolved_this_week: Object.entries(range.rday).reduce((a, [d, v]) => a + (d >= weekStart ? v : 0), 0),
      average_resolution_days: range.rn > 0 ? Math.round((range.rmin / range.rn / 1440) * 100) / 100 : 0,
    },
  };
}

/**
 * The scopes a stats request reads: `range` over the filter's detection days (all time when it
 * has no dates), `week` over its last 7 days. `bounds` are the organization's first and last
 * detection days (open-ended filters stop there).
 */
export function statsScopes(bounds: { first_day?: string; last_day?: string }, opts: { from?: Date; to?: Date }, today: string) {
  const first = bounds.first_day ?? today;
  const last = bounds.last_day ?? today;
  const endAll = addDays(last > today ? last : today, 1);
  const r = dayRange(opts.from, opts.to);
  const rangeFirst = r.first && r.first > first ? r.first : first;
  const rangeEnd = r.end && r.end < endAll ? r.end : endAll;
  const weekFirst = addDays(today, -(WEEK_DAYS - 1));
  const scopes = (fromDay: string, endDay: string): string[] => {
    if (fromDay >= endDay) return [];
    const { days, months } = scopesFor(fromDay, endDay);
    return [...days.map((d) => `d:${d}`), ...months.map((m) => `m:${m}`)];
  };
  return {
    range: !opts.from && !opts.to ? ["all"] : scopes(rangeFirst, rangeEnd),
    week: scopes(rangeFirst > weekFirst ? rangeFirst : weekFirst, rangeEnd),
  };
}

/**
 * How a stats date filter maps onto day buckets: the UTC days it touches. from_date (inclusive)
 * starts at its day; to_date (exclusive) ends before its day when it is a midnight, else after it.
 */
export function dayRange(from: Date | undefined, to: Date | undefined): { first?: string; end?: string } {
  const first = from ? dayOf(from) : undefined;
  let end: string | undefined;
  if (to) {
    const d = dayOf(to);
    end = to.getTime() === dayStart(d) ? d : addDays(d, 1);
  }
  return { first, end };
}

/**
 * The rollup documents that cover the days [first, end): whole months inside the range as
 * month documents, the rest as day documents.
 */
export function scopesFor(first: string, end: string): { days: string[]; months: string[] } {
  const days: string[] = [];
  const months: string[] = [];
  let d = first;
  while (d < end) {
    const monthEnd = addDays(`${monthOf(addDays(`${monthOf(d)}-01`, 32))}-01`, 0);
    if (d.endsWith("-01") && monthEnd <= end) {
      months.push(monthOf(d));
      d = monthEnd;
    } else {
      days.push(d);
      d = addDays(d, 1);
    }
  }
  return { days, months };
}

/** A target inventory's finding counts (issue 29): open and in-progress by severity, and announced breaches. */
export function targetCountsOf(c: Counts): { open: Record<Severity, number>; sla_breached: number } {
  const open = Object.fromEntries(SEVERITIES.map((k) => [k, (c.ss[`open|${k}`] ?? 0) + (c.ss[`in_progress|${k}`] ?? 0)])) as Record<Severity, number>;
  return { open, sla_breached: Object.values(c.br).reduce((a, b) => a + b, 0) };
}
