import type { CursorAnchor } from "@vulnscan/kit/core";
import type { SearchPlan } from "./search.js";
import { NEVER, type SlaState } from "./sla.js";
import type { Confidence, FindingDoc, Severity, SortField, SortOrder, Status } from "./types.js";

/** The spec's list filters (shared by list, export and, partly, stats). */
export interface ListFilter {
  severity?: Severity;
  status?: Status;
  /** Every scan that saw the finding, not only the first. */
  scan_id?: string;
  target?: string;
  tool?: string;
  /** Case-insensitive. */
  cve?: string;
  /** Free text: every word contained in the title, component, CVE ids or template id (domain/search.ts). */
  search?: SearchPlan;
  confidence?: Confidence;
  /** Where the SLA stands when the list is read (the store compares stored instants with its clock). */
  sla_state?: SlaState;
  /** due_date before / at or after. */
  due_before?: Date;
  due_after?: Date;
  /** Accepted findings whose acceptance runs out within this many days. */
  accepted_expiring_within_days?: number;
}

/** Filters whose answer depends on the time of reading (their totals are counted, never kept). */
export const timedFilter = (f: ListFilter) =>
  f.sla_state !== undefined || f.due_before !== undefined || f.due_after !== undefined || f.accepted_expiring_within_days !== undefined;

/**
 * What a list (or export) asks for, in domain terms; storage translates it into its own query.
 * The order is total: the sort field, then the creation order (newest first when desc), so
 * keyset paging never skips or repeats a row:
 *   created_at desc → newest first
 *   severity desc   → critical first, newest first among equals
 *   cvss_score desc → highest first, newest first among equals
 * asc is the exact reverse.
 */
export interface ListQuery {
  filter: ListFilter;
  sort: { field: SortField; order: SortOrder };
}

export function listQuery(filter: ListFilter, field: SortField = "created_at", order: SortOrder = "desc"): ListQuery {
  return { filter, sort: { field, order } };
}

/**
 * Position of one row in a list's order (what a cursor carries): the value of its sort key and
 * its id. Ids start with their creation time, so for created_at the id is the key; severity is
 * its rank (1 = critical), the number the order compares.
 */
export type Anchor = CursorAnchor;

export function anchorOf(q: ListQuery, row: FindingDoc): Anchor {
  switch (q.sort.field) {
    case "created_at":
      return { key: row._id, id: row._id };
    case "severity":
      return { key: row.severity_rank, id: row._id };
    case "cvss_score":
      return { key: row.cvss_score, id: row._id };
    case "due_date":
      return { key: row.due_sort ?? NEVER, id: row._id };
    case "sla_state":
      return { key: row.sla_breach_at ?? NEVER, id: row._id };
  }
}

/** Page defaults of pagination.proto: 0 → page 1 / 20 per page, per_page clamped to 100. */
export function normalizePage(page: number, perPage: number): { page: number; perPage: number; offset: number } {
  const p = page > 0 ? page : 1;
  const pp = perPage > 0 ? Math.min(perPage, 100) : 20;
  return { page: p, perPage: pp, offset: (p - 1) * pp };
}

export function pagesOf(total: number, perPage: number): number {
  return total === 0 ? 0 : Math.ceil(total / perPage);
}
