import { SEVERITIES, STATUSES, type Severity, type Status } from "./types.js";

export interface Stats {
  total: number;
  by_severity: Record<Severity, number>;
  by_status: Record<Status, number>;
  by_tool: Record<string, number>;
  trends: { new_this_week: number; resolved_this_week: number; average_resolution_days: number };
}

export interface GroupCount {
  _id: unknown;
  n: number;
}

export const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * Assembles the stats from `$group`/`$sum: 1` results. FerretDB v1 evaluates `$sum` of a field
 * as 0, so the average resolution time comes from counts per whole minute of resolution time
 * (`resolution_minutes` is stored when a finding is resolved) and is computed here:
 * Σ(minutes × count) / Σcount, in days, rounded to two decimals; 0 when nothing is resolved.
 */
export function assembleStats(input: {
  bySeverity: GroupCount[];
  byStatus: GroupCount[];
  byTool: GroupCount[];
  resolutionMinutes: GroupCount[];
  newThisWeek: number;
  resolvedThisWeek: number;
}): Stats {
  const by_severity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const g of input.bySeverity) if ((SEVERITIES as readonly unknown[]).includes(g._id)) by_severity[g._id as Severity] += g.n;
  // Groups may repeat a key (breakdowns summed from a finer grouping): add them up.
  const by_status = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;
  for (const g of input.byStatus) if ((STATUSES as readonly unknown[]).includes(g._id)) by_status[g._id as Status] += g.n;
  const tools = new Map<string, number>();
  for (const g of input.byTool) tools.set(String(g._id ?? ""), (tools.get(String(g._id ?? "")) ?? 0) + g.n);
  const by_tool = Object.fromEntries([...tools].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  const total = Object.values(by_status).reduce((a, b) => a + b, 0);
  return {
    total,
    by_severity,
    by_status,
    by_tool,
    trends: {
      new_this_week: input.newThisWeek,
      resolved_this_week: input.resolvedThisWeek,
      average_resolution_days: averageDays(input.resolutionMinutes),
    },
  };
}

export function averageDays(minutes: GroupCount[]): number {
  let n = 0;
  let sum = 0;
  for (const g of minutes) {
    if (typeof g._id !== "number") continue;
    n += g.n;
    sum += g._id * g.n;
  }
  if (n === 0) return 0;
  return Math.round((sum / n / 1440) * 100) / 100;
}
