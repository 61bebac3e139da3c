import type { FromSchema } from "json-schema-to-ts";
import { idParams, timestamp } from "../../schemas.js";

/** The JSON shapes of findings and comments, shared by the routes' schemas and the OpenAPI document. */

export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export const STATUSES = ["open", "in_progress", "resolved", "false_positive", "accepted"] as const;
export const PRIORITIES = ["critical", "high", "medium", "low"] as const;
export const FORMATS = ["csv", "json", "pdf"] as const;
export const CONFIDENCES = ["confirmed", "version_match", "version_match_unverified_backport"] as const;

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
} as const;

export const findingListItem = {
  type: "object",
  required: [...Object.keys(listItemProps), "frameworks"],
  properties: { ...listItemProps, frameworks: { ...strings, description: "Framework ids the finding maps to" } },
} as const;

/** An item of a scan's findings (the spec's shape): the list's fields it names, with the texts. */
const { id, title, severity, cvss_score, status, tool, affected_component, cve_ids, detected_at } = listItemProps;
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
            description: "created, status_changed, reopened, assignee_changed, priority_changed, due_date_changed, notes_changed, commented",
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
  confidence: { type: "string", enum: CONFIDENCES, description: "Only findings of this confidence (added to the spec's filters)" },
  sort: { type: "string", enum: ["severity", "created_at", "cvss_score"], default: "created_at" },
  order: { type: "string", enum: ["asc", "desc"], default: "desc" },
} as const;

/** The filters as validated (sort and order defaulted). */
export type FilterQuery = FromSchema<{ type: "object"; properties: typeof filterQueryProps }>;
