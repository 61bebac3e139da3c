import type { FromSchema } from "json-schema-to-ts";
import { dateOrTimestamp, idParams, timestamp } from "../../schemas.js";

/** The JSON shapes of findings and comments, shared by the routes' schemas and the OpenAPI document. */

export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export const STATUSES = ["open", "in_progress", "resolved", "false_positive", "accepted"] as const;
export const PRIORITIES = ["critical", "high", "medium", "low"] as const;
export const FORMATS = ["csv", "json", "pdf"] as const;
export const CONFIDENCES = ["confirmed", "version_match", "version_match_unverified_backport"] as const;
export const SLA_STATES = ["within", "at_risk", "breached"] as const;
export const SORTS = ["severity", "created_at", "cvss_score", "due_date", "sla_state"] as const;
export const ACCEPTANCE_STATES = ["pending", "approved", "rejected", "expired", "withdrawn"] as const;

export const findingIdParams = idParams("finding_id");
export const strings = { type: "array", items: { type: "string" } } as const;

const listItemProps = {
  id: { type: "string", description: "`finding_<id>`" },
  title: { type: "string" },
  severity: { type: "string", enum: SEVERITIES },
  status: { type: "string", enum: STATUSES },
  cvss_score: { type: "number" },
  epss_score: { type: ["number", "null"], description: "EPSS probability 0–1; null when unknown" },
  target: { type: "string" },
  affected_component: { type: "string" },
  tool: { type: "string", description: "Detection tool" },
  template_id: { type: "string", description: "Check (template) id of the tool" },
  cve_ids: strings,
  cwe_ids: strings,
  scan_id: { type: "string", description: "The scan that first detected it" },
  detected_at: timestamp,
  confidence: {
    type: ["string", "null"],
    enum: [...CONFIDENCES, null],
    description:
      "How far the finding can be trusted without checking it by hand (added to the spec's fields): `confirmed` (the check observed the weakness), `version_match` (only a version range matched), `version_match_unverified_backport` (the version matched but the distribution revision the service shows could not be resolved, so a backported fix may be installed); null for findings stored before it existed",
  },
  due_date: {
    type: ["string", "null"],
    format: "date-time",
    description:
      "The deadline: a date set with PATCH, else the organization's SLA policy (days per severity from detection; CISA KEV findings take the critical deadline, or KEV's own due date when earlier); null when none applies",
  },
  sla_state: {
    type: ["string", "null"],
    enum: [...SLA_STATES, null],
    description:
      "Where the SLA stands now (added to the spec's fields): `within`, `at_risk` (the last 20 % of the time from detection to due_date), `breached`; null when no SLA runs (no due date, or resolved, false_positive or accepted)",
  },
} as const;

export const findingListItem = {
  type: "object",
  required: [...Object.keys(listItemProps), "frameworks"],
  properties: { ...listItemProps, frameworks: { ...strings, description: "Framework ids the finding maps to" } },
} as const;

/** An item of a scan's findings (the spec's shape): the list's fields it names, with the texts. */
const { id, title, severity, cvss_score, status, tool, affected_component, cve_ids, detected_at, confidence } = listItemProps;
const scanFindingProps = {
  id,
  title,
  severity,
  cvss_score,
  status,
  tool,
  affected_component,
  description: { type: "string" },
  remediation: { type: "string", description: "Remediation summary" },
  cve_ids,
  detected_at,
  confidence,
} as const;
export const scanFindingItem = { type: "object", required: Object.keys(scanFindingProps), properties: scanFindingProps } as const;

export const commentSchema = {
  type: "object",
  required: ["id", "finding_id", "user", "text", "created_at"],
  properties: {
    id: { type: "string", description: "`comment_<id>`" },
    finding_id: { type: "string" },
    user: { type: "string", description: "Author: the user's email, or the API key's name" },
    text: { type: "string" },
    created_at: timestamp,
  },
} as const;

export const acceptanceSchema = {
  type: "object",
  required: ["state", "justification", "expires_at", "requested_by", "requested_at", "decided_by", "decided_at", "decision_note"],
  properties: {
    state: {
      type: "string",
      enum: ACCEPTANCE_STATES,
      description:
        "`pending` (waits for a second user's approval; the status has not changed), `approved` (accepted until expires_at), `rejected`, `expired` (reopened at expires_at), `withdrawn` (the status moved on)",
    },
    justification: { type: "string" },
    expires_at: timestamp,
    requested_by: { type: "string" },
    requested_at: timestamp,
    decided_by: { type: "string", description: "Who approved or rejected; empty when approval was not required" },
    decided_at: { type: ["string", "null"], format: "date-time" },
    decision_note: { type: "string" },
  },
} as const;

export const findingDetail = {
  type: "object",
  required: [...Object.keys(listItemProps), "frameworks", "cvss_vector", "description", "impact", "remediation", "evidence", "comments", "history"],
  properties: {
    ...listItemProps,
    frameworks: {
      type: "array",
      items: { type: "object", required: ["name", "controls"], properties: { name: { type: "string" }, controls: strings } },
    },
    cvss_vector: { type: "string" },
    kev: { type: "boolean", description: "Listed in CISA's Known Exploited Vulnerabilities catalogue" },
    description: { type: "string" },
    impact: { type: "string" },
    remediation: {
      type: "object",
      required: ["summary", "steps", "code_example", "references"],
      properties: { summary: { type: "string" }, steps: strings, code_example: { type: "string" }, references: strings },
    },
    evidence: {
      type: "object",
      required: ["request", "response", "screenshot_url"],
      properties: { request: { type: "string" }, response: { type: "string" }, screenshot_url: { type: ["string", "null"] } },
    },
    comments: {
      type: "array",
      items: {
        type: "object",
        required: ["id", "user", "text", "created_at"],
        properties: { id: { type: "string" }, user: { type: "string" }, text: { type: "string" }, created_at: timestamp },
      },
    },
    history: {
      type: "array",
      items: {
        type: "object",
        required: ["action", "from", "to", "user", "timestamp"],
        properties: {
          action: {
            type: "string",
            description:
              "created, status_changed, reopened, assignee_changed, priority_changed, due_date_changed, notes_changed, commented; risk acceptance: acceptance_requested, acceptance_set, acceptance_approved, acceptance_rejected, acceptance_expired; retests: retested (`to` is the verdict and the retest id, e.g. `fixed (retest_…)`); auto-resolution: not_detected (`to` is the scan that covered the check and did not match)",
          },
          from: { type: ["string", "null"] },
          to: { type: "string" },
          user: { type: "string", description: "`system` for automatic changes" },
          timestamp,
        },
      },
    },
    assignee: { type: "string" },
    priority: { type: ["string", "null"], enum: [...PRIORITIES, null] },
    due_date: { type: ["string", "null"], format: "date-time" },
    notes: { type: "string" },
    last_seen_at: timestamp,
    created_at: timestamp,
    updated_at: timestamp,
    due_date_source: { type: ["string", "null"], enum: ["user", "policy", "kev", null], description: "Where due_date came from; null without one" },
    sla_at_risk_at: { type: ["string", "null"], format: "date-time", description: "When it turns at_risk (while an SLA runs)" },
    acceptance: { ...acceptanceSchema, type: ["object", "null"], description: "The latest risk acceptance; null when none was asked for" },
    resolution: {
      type: ["string", "null"],
      enum: ["verified_fixed", "not_detected", null],
      description:
        "How the system resolved it (added to the spec's fields): `verified_fixed` (a retest ran the check and it no longer matched), `not_detected` (auto-resolution: a later scan covered the same check on the same component and did not match); null while not resolved or when a person resolved it",
    },
  },
} as const;

/** The list filters and sort, taken by the list and the export. */
export const filterQueryProps = {
  severity: { type: "string", enum: SEVERITIES },
  status: { type: "string", enum: STATUSES },
  scan_id: { type: "string", minLength: 1, maxLength: 128 },
  target: { type: "string", minLength: 1, maxLength: 253, description: "Exact target" },
  tool: { type: "string", minLength: 1, maxLength: 64 },
  cve: { type: "string", minLength: 1, maxLength: 64, description: "A CVE id (case-insensitive)" },
  search: {
    type: "string",
    minLength: 3,
    maxLength: 200,
    // Somewhere a word of 3 characters (domain/search.ts narrows by one of its trigrams).
    pattern: "\\S{3}",
    description:
      "Free text: findings whose title, affected component, CVE ids or template id contain every word (case-insensitive); needs a word of at least 3 characters",
  },
  confidence: { type: "string", enum: CONFIDENCES, description: "Only findings of this confidence (added to the spec's filters)" },
  sla_state: { type: "string", enum: SLA_STATES, description: "Where the SLA stands at the time of the request (added to the spec's filters)" },
  due_before: { ...dateOrTimestamp, description: "due_date before it (exclusive); RFC 3339 date or date-time" },
  due_after: { ...dateOrTimestamp, description: "due_date at or after it; RFC 3339 date or date-time" },
  accepted_expiring_within: {
    type: "string",
    // 1d to 365d stated in the pattern itself, so a client (and schemathesis) can tell what is taken.
    pattern: "^([1-9]|[1-9][0-9]|[12][0-9]{2}|3[0-5][0-9]|36[0-5])d$",
    description: "Accepted findings whose acceptance runs out within this many days, e.g. `14d` (1d to 365d); implies status accepted",
  },
  sort: {
    type: "string",
    enum: SORTS,
    default: "created_at",
    description: "`due_date`: soonest first with `asc`, findings without one last; `sla_state`: by the running SLA's deadline, breached first with `asc`",
  },
  order: { type: "string", enum: ["asc", "desc"], default: "desc" },
} as const;

/** The filters as validated (sort and order defaulted). */
export type FilterQuery = FromSchema<{ type: "object"; properties: typeof filterQueryProps }>;
