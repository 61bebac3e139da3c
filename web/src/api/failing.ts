// The findings that make controls fail: open or in-progress findings of critical or high severity
// (grc's rule). GET /api/v1/findings has no filter by ids or by framework and takes one severity and
// one status per request, so the console asks four pages of up to 100 (one request per severity and
// status) instead of one request per finding, and picks what it needs from them.
import { api } from "./client.js";
import type { Finding, Page } from "./types.js";

const PER_REQUEST = 100;
const SEVERE = ["critical", "high"] as const;
const OPEN = ["open", "in_progress"] as const;

export interface SevereFindings {
  items: Finding[];
  /** How many there are in all; more than `items.length` when a request had over 100 of them. */
  total: number;
}

const rank = (s: string) => (s === "critical" ? 0 : s === "high" ? 1 : 2);

/** Most severe first, then by CVSS (highest first), then by title. */
export function bySeverity(a: Finding, b: Finding): number {
  return rank(a.severity) - rank(b.severity) || b.cvss_score - a.cvss_score || a.title.localeCompare(b.title);
}

export async function severeOpenFindings(): Promise<SevereFindings> {
  const pages = await Promise.all(
    SEVERE.flatMap((severity) =>
      // Sorted by severity: one severity and one status are then one range of the org_status_severity index.
      OPEN.map((status) => api<Page<Finding>>("/api/v1/findings", { query: { severity, status, sort: "severity", order: "desc", per_page: PER_REQUEST } })),
    ),
  );
  return { items: pages.flatMap((p) => p.items).sort(bySeverity), total: pages.reduce((n, p) => n + p.total, 0) };
}
