import type { Severity, Status } from "./types.js";

/** The spec's finding statistics (GetStats). */
export interface Stats {
  total: number;
  by_severity: Record<Severity, number>;
  by_status: Record<Status, number>;
  /** Tools by count, most first. */
  by_tool: Record<string, number>;
  trends: { new_this_week: number; resolved_this_week: number; average_resolution_days: number };
}
