import { mergeFieldTypes, outboxFieldTypes, outboxIndexes, type FieldTypes, type IndexSpec } from "@vulnscan/kit";

/** One document per fingerprint (unique `fingerprint`), with its pending events (outbox) and rollup entries. */
export const FINDINGS = "findings";
/** Counts per scope (`<org>|<scope>|<who>`) and each organization's head (`<org>`): storage/rollups.ts. */
export const ROLLUPS = "rollups";
/** Rollup changes in flight, one per write (deleted once applied). */
export const ROLLUP_INTENTS = "rollup_intents";
export const AI_ANALYSES = "ai_analyses";
/** Each organization's findings policy (SLA days, acceptance approval), keyed by org id. */
export const POLICIES = "policies";
/** Each organization's findings version `{_id: org, v}`, moved by every write to its findings (cached-lists.ts). */
export const LIST_VERSIONS = "list_versions";
/** `<org>:ai:<YYYY-MM>`: the credits taken that month. */
export const AI_CREDITS = "ai_credits";

/*
 * Indexes follow the list's access paths: org_id, one filter's field, `_id` (creation order), so
 * the newest-first page of any single filter is an index range with no sort stage; the two other
 * sort keys have their own (walked either way); status + severity serves the triage view. The
 * unique fingerprint is the de-duplication: one finding per fingerprint, ever.
 */
export const findingIndexes: IndexSpec[] = [
  { collection: FINDINGS, key: { fingerprint: 1 }, options: { unique: true, name: "fingerprint_unique" } },
  // Policies whose refresh of open findings' due dates is running and held by nobody (housekeeping resumes them).
  { collection: POLICIES, key: { refresh_state: 1, refresh_leased_until: 1 }, options: { name: "refresh_state_lease" } },
  // The SLA instants after `_id`: a newest-first page of sla_state=at_risk or breached walks this
  // index and tests both instants on the index entry, reading only the rows that match (the two
  // ranges select together far fewer findings than a planner estimates from each alone; PostgreSQL
  // otherwise read, and decompressed, every newer finding to test them: 53 → 16 ms at 10,000).
  { collection: FINDINGS, key: { org_id: 1, _id: -1, sla_at_risk_at: 1, sla_breach_at: 1 }, options: { name: "org_created" } },
  { collection: FINDINGS, key: { org_id: 1, severity_rank: 1, _id: -1 }, options: { name: "org_severity" } },
  { collection: FINDINGS, key: { org_id: 1, cvss_score: -1, _id: -1 }, options: { name: "org_cvss" } },
  { collection: FINDINGS, key: { org_id: 1, status: 1, severity_rank: 1, _id: -1 }, options: { name: "org_status_severity" } },
  { collection: FINDINGS, key: { org_id: 1, status: 1, _id: -1 }, options: { name: "org_status" } },
  { collection: FINDINGS, key: { org_id: 1, scan_ids: 1, _id: -1 }, options: { name: "org_scan" } },
  { collection: FINDINGS, key: { org_id: 1, target: 1, _id: -1 }, options: { name: "org_target" } },
  { collection: FINDINGS, key: { org_id: 1, tool: 1, _id: -1 }, options: { name: "org_tool" } },
  { collection: FINDINGS, key: { org_id: 1, cve_keys: 1, _id: -1 }, options: { name: "org_cve" } },
  // ?search= (domain/search.ts): one trigram of search_keys, newest first or most severe first
  // (a multikey index on MongoDB; a GIN index on FerretDB over PostgreSQL, where a top-level
  // equality on an array field is `@>`).
  { collection: FINDINGS, key: { org_id: 1, search_keys: 1, _id: -1 }, options: { name: "org_search" } },
  { collection: FINDINGS, key: { org_id: 1, search_keys: 1, severity_rank: 1, _id: -1 }, options: { name: "org_search_severity" } },
  // SLA (domain/sla.ts): sort and range by due date and by the running SLA's instants (NEVER when
  // none runs); the upkeep's sweeps across organizations; accepted_expiring_within.
  { collection: FINDINGS, key: { org_id: 1, due_sort: 1, _id: 1 }, options: { name: "org_due" } },
  { collection: FINDINGS, key: { org_id: 1, sla_breach_at: 1, _id: 1 }, options: { name: "org_sla_breach" } },
  { collection: FINDINGS, key: { org_id: 1, sla_at_risk_at: 1, _id: -1 }, options: { name: "org_sla_at_risk" } },
  { collection: FINDINGS, key: { org_id: 1, accepted_until: 1, _id: -1 }, options: { name: "org_accepted_until" } },
  { collection: FINDINGS, key: { sla_breach_pending_at: 1 }, options: { name: "sla_breach_pending" } },
  { collection: FINDINGS, key: { accepted_until: 1 }, options: { name: "accepted_until" } },
  ...outboxIndexes(FINDINGS),
  { collection: ROLLUPS, key: { org_id: 1 }, options: { name: "org" } },
  { collection: ROLLUP_INTENTS, key: { until: 1 }, options: { name: "until" } },
  { collection: AI_CREDITS, key: { expires_at: 1 }, options: { name: "expires" } },
];

/** The type class of every field the queries and indexes above use (the kit's field-types.ts), as the code writes them. */
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
      scan_ids: "string[]",
      cve_keys: "string[]",
      search_keys: "string[]",
      // The ?confidence= filter (no index of its own: it narrows the org's other filters).
      confidence: "string",
      rev: "number",
      due_sort: "date",
      sla_breach_at: "date",
      sla_at_risk_at: "date",
      sla_breach_pending_at: "date",
      accepted_until: "date",
      detected_at: "date",
    },
    [POLICIES]: { _id: "string", updated_at: "date", refresh_state: "string", refresh_after: "string", refresh_leased_until: "date" },
    [LIST_VERSIONS]: { _id: "string", v: "number" },
    [ROLLUPS]: { _id: "string", org_id: "string" },
    [ROLLUP_INTENTS]: { _id: "string", until: "date" },
    [AI_ANALYSES]: { _id: "string", org_id: "string" },
    [AI_CREDITS]: { _id: "string", n: "number", expires_at: "date" },
  },
  outboxFieldTypes(FINDINGS),
);
