import type { CursorAnchor } from "@vulnscan/kit";
import { severityRank, type Severity, type SortField, type SortOrder, type Status } from "./types.js";

/** The spec's list filters (shared by list, export and, partly, stats). */
export interface ListFilter {
  severity?: Severity;
  status?: Status;
  scan_id?: string;
  target?: string;
  tool?: string;
  cve?: string;
}

export type Query = Record<string, unknown>;

/**
 * Filter → query. Every query starts with org_id (the leading field of every compound index),
 * and each filter is an equality on an indexed field: `{org_id, <field>, _id}` indexes serve
 * the default newest-first order without a sort stage. `scan_id` matches every scan that saw
 * the finding; `cve` is case-insensitive through the upper-cased `cve_keys`.
 */
export function filterQuery(orgId: string, f: ListFilter): Query {
  const q: Query = { org_id: orgId };
  if (f.severity !== undefined) q.severity_rank = severityRank(f.severity);
  if (f.status !== undefined) q.status = f.status;
  if (f.scan_id !== undefined) q.scan_ids = f.scan_id;
  if (f.target !== undefined) q.target = f.target;
  if (f.tool !== undefined) q.tool = f.tool;
  if (f.cve !== undefined) q.cve_keys = f.cve.trim().toUpperCase();
  return q;
}

/**
 * A total order for keyset paging: the sort key, then `_id` (ids start with their creation
 * time, so `_id` alone is the created_at order and a stable tie-breaker).
 *   created_at desc → _id desc (newest first)
 *   severity desc   → severity_rank asc (critical first), newest first among equals
 *   cvss_score desc → highest first, newest first among equals
 * asc is the exact reverse, so one index per sort key serves both directions.
 */
export interface SortSpec {
  key: "_id" | "severity_rank" | "cvss_score";
  keyDir: 1 | -1;
  idDir: 1 | -1;
}

export function sortSpec(field: SortField = "created_at", order: SortOrder = "desc"): SortSpec {
  const desc = order === "desc";
  switch (field) {
    case "created_at":
      return { key: "_id", keyDir: desc ? -1 : 1, idDir: desc ? -1 : 1 };
    case "severity":
      return { key: "severity_rank", keyDir: desc ? 1 : -1, idDir: desc ? -1 : 1 };
    case "cvss_score":
      return { key: "cvss_score", keyDir: desc ? -1 : 1, idDir: desc ? -1 : 1 };
  }
}

export function mongoSort(s: SortSpec): Record<string, 1 | -1> {
  return s.key === "_id" ? { _id: s.idDir } : { [s.key]: s.keyDir, _id: s.idDir };
}

/** Position of one row in the order: the values of its sort key (a number or the id) and id. */
export type Anchor = CursorAnchor;

export function anchorOf(s: SortSpec, row: Record<string, unknown>): Anchor {
  return { key: row[s.key] as Anchor["key"], id: String(row._id) };
}

/** Rows strictly after `a` in the order: a range on the index, not a skip. */
export function afterQuery(s: SortSpec, a: Anchor): Query {
  const idOp = s.idDir === 1 ? "$gt" : "$lt";
  if (s.key === "_id") return { _id: { [idOp]: a.id } };
  const keyOp = s.keyDir === 1 ? "$gt" : "$lt";
  return { $or: [{ [s.key]: { [keyOp]: a.key } }, { [s.key]: a.key, _id: { [idOp]: a.id } }] };
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
