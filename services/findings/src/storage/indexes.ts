import { mergeFieldTypes, slotFieldTypes, slotIndexes, type FieldTypes, type IndexSpec } from "@vulnscan/kit";

export const FINDINGS = "findings";
/** Claimed revisions of findings (the write log; also the outbox of their events). */
export const FINDING_LOG = "finding_log";
/** One per finding ever created: the de-duplication key (`_id` = fingerprint). */
export const FINGERPRINTS = "fingerprints";
/** Detection ids already applied (`_id` = detection_id): redeliveries change nothing. */
export const PROCESSED_DETECTIONS = "processed_detections";
export const AI_ANALYSES = "ai_analyses";
/** Rollup bodies: `<org>` (head, all time), `<org>|d|<day>`, `<org>|m|<month>` (storage/rollups.ts). */
export const ROLLUPS = "rollups";
/** Recorded rollup deltas, `<org>#<seq>`, each under a unique source (the change that caused it). */
export const ROLLUP_SLOTS = "rollup_slots";
/** Fold claims of the rollups (kept a minute). */
export const ROLLUP_LOG = "rollup_log";
export const AI_CREDITS = "ai_credit_slots";

/*
 * Indexes follow the list's access paths. Every query is an equality on org_id first; each
 * filter is an equality on one more field; `_id` (creation order) ends each index, so the
 * default newest-first page of any single filter is a bounded index range with no sort stage.
 * The two other sort keys have their own index (MongoDB walks an index in either direction,
 * so asc and desc share one). Status + severity serves the triage view ("open, most severe
 * first"). Combinations of several filters use the most selective index and sort what it
 * returns.
 */
export const findingIndexes: IndexSpec[] = [
  { collection: FINDINGS, key: { fingerprint: 1 }, options: { unique: true, name: "fingerprint_unique" } },
  { collection: FINDINGS, key: { org_id: 1, _id: -1 }, options: { name: "org_created" } },
  { collection: FINDINGS, key: { org_id: 1, severity_rank: 1, _id: -1 }, options: { name: "org_severity" } },
  { collection: FINDINGS, key: { org_id: 1, cvss_score: -1, _id: -1 }, options: { name: "org_cvss" } },
  { collection: FINDINGS, key: { org_id: 1, status: 1, severity_rank: 1, _id: -1 }, options: { name: "org_status_severity" } },
  { collection: FINDINGS, key: { org_id: 1, status: 1, _id: -1 }, options: { name: "org_status" } },
  { collection: FINDINGS, key: { org_id: 1, scan_ids: 1, _id: -1 }, options: { name: "org_scan" } },
  { collection: FINDINGS, key: { org_id: 1, target: 1, _id: -1 }, options: { name: "org_target" } },
  { collection: FINDINGS, key: { org_id: 1, tool: 1, _id: -1 }, options: { name: "org_tool" } },
  { collection: FINDINGS, key: { org_id: 1, cve_keys: 1, _id: -1 }, options: { name: "org_cve" } },
  { collection: FINDINGS, key: { org_id: 1, detected_at: 1 }, options: { name: "org_detected" } },
  { collection: FINDINGS, key: { org_id: 1, status: 1, resolved_at: 1 }, options: { name: "org_resolved" } },
  { collection: FINDING_LOG, key: { created_at: 1 }, options: { name: "created" } },
  // Housekeeping deletes applied claims a minute after they were done.
  { collection: FINDING_LOG, key: { done_at: 1 }, options: { name: "done" } },
  // The exactly-once guard of rollup recording: one slot per source, ever (see storage/rollups.ts).
  { collection: ROLLUP_SLOTS, key: { source: 1 }, options: { unique: true, name: "source_unique" } },
  { collection: ROLLUP_SLOTS, key: { created_at: 1 }, options: { name: "created" } },
  { collection: ROLLUPS, key: { org_id: 1 }, options: { name: "org" } },
  { collection: ROLLUP_LOG, key: { done_at: 1 }, options: { name: "done" } },
  { collection: PROCESSED_DETECTIONS, key: { processed_at: 1 }, options: { name: "processed_at" } },
  ...slotIndexes(AI_CREDITS),
];

/*
 * The type class of every field the queries and indexes above use (field-types.ts), as the code
 * writes them: FindingDoc (domain/types.ts, built in domain/changes.ts), LogDoc and
 * FingerprintDoc (finding-store.ts), the rollup documents (rollups.ts). Ids are strings;
 * `resolved_at` and `done_at` are a Date or null; scan_ids and cve_keys are arrays of strings.
 */
export const findingFields: FieldTypes = mergeFieldTypes(
  {
    [FINDINGS]: {
      _id: "string",
      org_id: "string",
      fingerprint: "string",
      status: "string",
      target: "string",
      tool: "string",
      severity_rank: "number",
      cvss_score: "number",
      detected_at: "date",
      resolved_at: "date",
      scan_ids: "string[]",
      cve_keys: "string[]",
    },
    [FINDING_LOG]: { _id: "string", created_at: "date", done_at: "date" },
    [FINGERPRINTS]: { _id: "string" },
    [PROCESSED_DETECTIONS]: { _id: "string", processed_at: "date" },
    [AI_ANALYSES]: { _id: "string" },
    [ROLLUPS]: { _id: "string", org_id: "string" },
    [ROLLUP_SLOTS]: { _id: "string", source: "string", created_at: "date" },
    [ROLLUP_LOG]: { _id: "string", done_at: "date" },
  },
  slotFieldTypes(AI_CREDITS),
);
