import { NEVER } from "../domain/sla.js";
import { severityRank } from "../domain/types.js";
import type { Anchor, ListFilter, ListQuery } from "../domain/list.js";

/*
 * A domain list query → MongoDB: org_id, then an equality per filter on an indexed field.
 * `scan_id` matches every scan that saw the finding (`scan_ids`); `cve` is case-insensitive
 * through the upper-cased `cve_keys`; severity compares the stored `severity_rank` (1 =
 * critical), so "most severe first" is an ascending index walk. `search` is an equality on one
 * trigram of `search_keys` (multikey) plus the words as unanchored regexes on `search_text`.
 */

export type Query = Record<string, unknown>;

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const DAY_MS = 24 * 3600_000;

/**
 * `now`: the instant time-dependent filters (sla_state, accepted_expiring_within) compare the
 * stored instants with; the SLA state is never stored, it would go stale.
 */
export function filterQuery(orgId: string, f: ListFilter, now: Date = new Date()): Query {
  const q: Query = { org_id: orgId };
  if (f.severity !== undefined) q.severity_rank = severityRank(f.severity);
  if (f.status !== undefined) q.status = f.status;
  if (f.scan_id !== undefined) q.scan_ids = f.scan_id;
  if (f.target !== undefined) q.target = f.target;
  if (f.tool !== undefined) q.tool = f.tool;
  if (f.cve !== undefined) q.cve_keys = f.cve.trim().toUpperCase();
  // One trigram narrows through the org_search indexes; each word is then checked on those rows.
  if (f.search !== undefined) {
    q.search_keys = f.search.key;
    q.$and = f.search.words.map((w) => ({ search_text: { $regex: escapeRegex(w) } }));
  }
  // Not indexed: it narrows the org's other filters, it is not a way into the collection.
  if (f.confidence !== undefined) q.confidence = f.confidence;
  // NEVER marks "no running SLA", so the ranges below never reach a finding without one.
  if (f.sla_state === "breached") q.sla_breach_at = { $lte: now };
  if (f.sla_state === "at_risk") Object.assign(q, { sla_at_risk_at: { $lte: now }, sla_breach_at: { $gt: now } });
  if (f.sla_state === "within") q.sla_at_risk_at = { $gt: now, $lt: NEVER };
  if (f.due_before !== undefined || f.due_after !== undefined)
    q.due_sort = { ...(f.due_after ? { $gte: f.due_after } : {}), $lt: f.due_before && f.due_before < NEVER ? f.due_before : NEVER };
  // accepted_until is set only while a finding is accepted: the range alone lists accepted findings.
  if (f.accepted_expiring_within_days !== undefined) q.accepted_until = { $lte: new Date(now.getTime() + f.accepted_expiring_within_days * DAY_MS) };
  return q;
}

/**
 * Breached and at-risk findings among `base` (the other filters), as two index ranges: a running
 * SLA turns at risk before it breaches (domain/sla.ts: atRiskAt ≤ due; both NEVER when none
 * runs), so "at risk now" is "at-risk time passed" less "breached". Counting `sla_at_risk_at ≤ now
 * AND sla_breach_at > now` instead walks every finding whose SLA still runs on one of the two
 * indexes (13,000 running SLAs took 60–90 ms on the fallback; the two ranges 1–7 ms).
 */
export async function countSla(count: (q: Query) => Promise<number>, base: Query, now: Date): Promise<{ breached: number; atRisk: number }> {
  const [breached, riskPassed] = await Promise.all([count({ ...base, sla_breach_at: { $lte: now } }), count({ ...base, sla_at_risk_at: { $lte: now } })]);
  return { breached, atRisk: Math.max(0, riskPassed - breached) };
}

/**
 * The order on stored fields: the sort key, then `_id` (ids start with their creation time, so
 * `_id` alone is the created_at order and a stable tie-breaker). One index per sort key serves
 * both directions.
 */
export interface SortSpec {
  key: "_id" | "severity_rank" | "cvss_score" | "due_sort" | "sla_breach_at";
  keyDir: 1 | -1;
  idDir: 1 | -1;
}

export function sortSpec(sort: ListQuery["sort"]): SortSpec {
  const desc = sort.order === "desc";
  switch (sort.field) {
    case "created_at":
      return { key: "_id", keyDir: desc ? -1 : 1, idDir: desc ? -1 : 1 };
    case "severity":
      return { key: "severity_rank", keyDir: desc ? 1 : -1, idDir: desc ? -1 : 1 };
    case "cvss_score":
      return { key: "cvss_score", keyDir: desc ? -1 : 1, idDir: desc ? -1 : 1 };
    // Soonest first ascending; no due date (NEVER) last.
    case "due_date":
      return { key: "due_sort", keyDir: desc ? -1 : 1, idDir: desc ? -1 : 1 };
    // By the running SLA's deadline: breached first ascending, findings with no SLA (NEVER) last.
    case "sla_state":
      return { key: "sla_breach_at", keyDir: desc ? -1 : 1, idDir: desc ? -1 : 1 };
  }
}

export function mongoSort(s: SortSpec): Record<string, 1 | -1> {
  return s.key === "_id" ? { _id: s.idDir } : { [s.key]: s.keyDir, _id: s.idDir };
}

/** Rows strictly after `a` in the order: a range on the index, not a skip. */
export function afterQuery(s: SortSpec, a: Anchor): Query {
  const idOp = s.idDir === 1 ? "$gt" : "$lt";
  if (s.key === "_id") return { _id: { [idOp]: a.id } };
  const keyOp = s.keyDir === 1 ? "$gt" : "$lt";
  return { $or: [{ [s.key]: { [keyOp]: a.key } }, { [s.key]: a.key, _id: { [idOp]: a.id } }] };
}

/** The anchor of a row read with only its sort key and id (the deep-page hops). */
export function storedAnchor(s: SortSpec, row: Record<string, unknown>): Anchor {
  return { key: row[s.key] as Anchor["key"], id: String(row._id) };
}

/**
 * The list as this store runs it, which cursors are bound to (the kit hashes it): the same
 * `[query, sort]` pair as before the domain/storage split, so cursors issued earlier stay valid.
 */
export function listDescription(orgId: string, q: ListQuery): unknown {
  // A fixed instant: a cursor is bound to the filter, not to the moment its page was read.
  return [filterQuery(orgId, q.filter, new Date(0)), sortSpec(q.sort)];
}
