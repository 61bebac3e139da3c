import { envelopeSchema, pageQueryProperties } from "../../rest.js";
import { anySecurity, errorResponses, timestamp, input } from "../../schemas.js";

/** Each GRC route's schema: what ajv validates, what the handlers' types derive from, what OpenAPI shows. */

export const FRAMEWORKS = ["soc2", "iso27001", "pci_dss", "hipaa", "gdpr", "nist_csf", "nist_800_53", "cis_controls"] as const;
export const CONTROL_STATUSES = ["not_started", "in_progress", "implemented", "not_applicable", "failing"] as const;
const SET_STATUSES = ["not_started", "in_progress", "implemented", "not_applicable"] as const;
const EVIDENCE_STATUSES = ["clean", "quarantined", "pending_scan", "expired"] as const;
const AUDIT_STATUSES = ["open", "in_progress", "closed"] as const;
const strings = { type: "array", items: { type: "string" } } as const;
const nullableTime = { type: ["string", "null"], format: "date-time" } as const;
const id = (name: string) => ({ type: "object", required: [name], properties: { [name]: { type: "string", minLength: 1, maxLength: 128 } } }) as const;
const tags = ["compliance"];

export const controlItem = {
  type: "object",
  required: ["id", "name", "status", "frameworks", "evidence_count"],
  properties: {
    status: { type: "string", enum: CONTROL_STATUSES, description: "`failing` while open critical/high findings map to it" },
    frameworks: { ...strings, description: "Framework ids" },
    id: { type: "string", description: "`ctrl_<id>`" },
    name: { type: "string" },
    requirement: {
      type: "string",
      description: "What the control asks for, one or two sentences written by vulnscan (a paraphrase, not the framework's text); empty when not written yet",
    },
    evidence_count: { type: "integer", description: "Clean, unexpired evidence items" },
    framework_refs: {
      type: "array",
      items: { type: "object", properties: { framework: { type: "string" }, control_ref: { type: "string", description: "e.g. `CC6.1`, `A.8.8`, `6.3.3`" } } },
    },
    owner: { type: ["string", "null"] },
    last_tested_at: nullableTime,
    open_finding_count: { type: "integer" },
  },
} as const;

const controlDetail = {
  type: "object",
  required: controlItem.required,
  properties: {
    ...controlItem.properties,
    set_status: { type: "string", enum: SET_STATUSES, description: "The status people set; `status` shows it again once no open finding maps to the control" },
    notes: { type: "string" },
    finding_ids: { ...strings, description: "Open critical/high findings that make it failing (at most 100)" },
    updated_at: nullableTime,
  },
} as const;

export const evidenceItem = {
  type: "object",
  required: ["id", "control_id", "name", "status", "sha256", "size_bytes", "uploaded_at"],
  properties: {
    id: { type: "string", description: "`evidence_<id>`" },
    control_id: { type: "string" },
    control_ids: { ...strings, description: "Every control it supports (a compliance scan's report covers many)" },
    name: { type: "string", description: "File name" },
    title: { type: "string" },
    description: { type: "string" },
    content_type: { type: "string" },
    size_bytes: { type: "integer" },
    sha256: { type: "string", description: "Lowercase hex SHA-256 of the file" },
    status: { type: "string", enum: EVIDENCE_STATUSES, description: "Only clean and expired files can be downloaded" },
    threat: { type: ["string", "null"], description: "Signature found, for quarantined items" },
    source: {
      type: "string",
      enum: ["upload", "scan", "retest"],
      description: "`scan`: a compliance scan's report; `retest`: a verified fix (scan_id is then the retest id)",
    },
    scan_id: { type: ["string", "null"] },
    uploaded_by: { type: "string" },
    uploaded_at: timestamp,
    expires_at: nullableTime,
    observed_from: nullableTime,
    observed_to: nullableTime,
  },
} as const;

const frameworkItem = {
  type: "object",
  required: ["id", "name", "score", "controls_total"],
  properties: {
    id: { type: "string", enum: FRAMEWORKS },
    name: { type: "string" },
    score: { type: "number", description: "0–100: implemented / (controls − not_applicable)" },
    ...Object.fromEntries(
      ["total", "implemented", "failing", "in_progress", "not_started", "not_applicable"].map((k) => [`controls_${k}`, { type: "integer" } as const]),
    ),
  },
  examples: [
    {
      id: "soc2",
      name: "SOC 2",
      score: 62.3,
      controls_total: 61,
      controls_implemented: 38,
      controls_failing: 3,
      controls_in_progress: 6,
      controls_not_started: 14,
      controls_not_applicable: 0,
    },
  ],
} as const;

const auditItem = {
  type: "object",
  required: ["id", "framework", "title", "status", "created_at"],
  properties: {
    id: { type: "string", description: "`audit_<id>`" },
    framework: { type: "string", enum: FRAMEWORKS },
    control_ids: strings,
    title: { type: "string" },
    description: { type: "string" },
    status: { type: "string", enum: AUDIT_STATUSES },
    requested_by: { type: "string" },
    due_date: nullableTime,
    created_at: timestamp,
    answer: { type: ["string", "null"] },
    answered_by: { type: ["string", "null"] },
    answered_at: nullableTime,
    evidence_ids: strings,
  },
} as const;

/** What every listing shares: the spec's page envelope of `item`. */
function listing<I extends object>(summary: string, description: string, item: I) {
  return { tags, summary, description, security: anySecurity, response: { 200: envelopeSchema(item), ...errorResponses(403, 404, 422) } } as const;
}

/** A route about one resource by its id. */
const byId = <R extends object>(summary: string, description: string, param: string, ok: R, ...errors: Parameters<typeof errorResponses>) =>
  ({ tags, summary, description, security: anySecurity, params: id(param), response: { ...ok, ...errorResponses(403, 404, ...errors) } }) as const;

const pageQuery = <F extends object>(filters: F) => input({ ...pageQueryProperties, ...filters });

export const listControls = {
  ...listing(
    "List controls",
    "Every control of the organization's frameworks (all eight are enabled), in catalogue order. Filters combine with AND.",
    controlItem,
  ),
  querystring: pageQuery({ framework: { type: "string", enum: FRAMEWORKS }, status: { type: "string", enum: CONTROL_STATUSES } } as const),
} as const;

export const getControl = byId(
  "Control detail",
  "The control's requirement, status, owner and notes, with its evidence and the findings that make it fail.",
  "control_id",
  { 200: controlDetail },
);

export const updateControl = {
  tags,
  summary: "Set a control's status, owner or notes",
  description:
    "`failing` is not settable: it follows open critical/high findings mapped to the control. Emits control.status_changed and framework.score_changed on a real change.",
  security: anySecurity,
  params: id("control_id"),
  body: input(
    {
      status: { type: "string", enum: SET_STATUSES },
      owner: { type: ["string", "null"], maxLength: 320 },
      notes: { type: "string", maxLength: 10_000 },
    },
    { minProperties: 1 },
  ),
  response: { 200: controlDetail, ...errorResponses(403, 404, 422) },
} as const;

export const listFrameworks = {
  tags,
  summary: "Framework scores",
  description: "Each of the eight frameworks with its score (0–100: implemented controls out of the applicable ones) and its controls counted by status.",
  security: anySecurity,
  response: {
    200: { type: "object", required: ["items"], properties: { items: { type: "array", items: frameworkItem } } },
    ...errorResponses(403),
  },
} as const;

export const uploadEvidence = {
  tags,
  summary: "Upload evidence for a control",
  description:
    "`multipart/form-data` with a `file` part (1 byte to 10 MiB) and optional fields `title`, `description`, `expires_at`, `observed_from`, `observed_to` (ISO 8601). " +
    "The file is checked for malware: an infected file is `quarantined` (never downloadable; quarantine.threat_detected), a clean one emits evidence.uploaded; " +
    "while the malware scanner is unavailable the item is `pending_scan` and not downloadable until checked.",
  security: anySecurity,
  consumes: ["multipart/form-data"],
  params: id("control_id"),
  response: { 201: evidenceItem, ...errorResponses(400, 403, 404, 422) },
} as const;

/** A form field holding an RFC 3339 date or date-time; empty (a blank form input) means none. */
const formDate = {
  type: "string",
  anyOf: [{ format: "date" }, { format: "date-time" }, { maxLength: 0 }],
  description: "RFC 3339 date or date-time; empty means none",
} as const;

/**
 * The upload's text fields. Multipart parts skip Fastify's body validation (the handler streams
 * them), so the handler validates them against this schema with the app's validator: the same
 * formats as every other route, and what the document shows.
 */
export const uploadEvidenceFields = {
  type: "object",
  properties: {
    // No NUL characters either: upload.ts checks the parts as no-nul.ts checks JSON and URLs.
    title: { type: "string", maxLength: 200 },
    description: { type: "string", maxLength: 10000 },
    expires_at: formDate,
    observed_from: formDate,
    observed_to: formDate,
  },
} as const;

/**
 * The upload's multipart body as the OpenAPI document shows it (requestBody), so clients and
 * fuzzers know to send a `file` part. Documentation only: the handler reads the parts as a
 * stream (a body schema would make Fastify buffer and validate the whole file first).
 */
export const uploadEvidenceForm = {
  type: "object",
  required: ["file"],
  properties: {
    file: { type: "string", format: "binary", description: "The evidence file, 1 byte to 10 MiB" },
    ...uploadEvidenceFields.properties,
  },
} as const;

export const listEvidence = {
  ...listing("List evidence", "Newest first; `control_id` narrows to one control.", evidenceItem),
  querystring: pageQuery({ control_id: { type: "string", minLength: 1, maxLength: 128 } } as const),
} as const;

export const getEvidence = byId(
  "Evidence detail",
  "One evidence item: its file's name, size, hash and malware-check state, and the control it supports.",
  "evidence_id",
  { 200: evidenceItem },
);

export const downloadEvidence = {
  ...byId(
    "Download an evidence file",
    "",
    "evidence_id",
    { 200: { description: "The file, as an attachment", type: "string", format: "binary" } },
    "INVALID_STATE",
  ),
  description: "Quarantined and pending_scan items answer 400 INVALID_STATE. The file is served with the content type its uploader declared.",
  // Whatever type the uploader declared (errors stay JSON): the document must not promise JSON.
  produces: ["*/*"],
} as const;

export const deleteEvidence = byId("Delete evidence", "Removes the item and its file; the control keeps its other evidence.", "evidence_id", {
  204: { description: "Deleted", type: "null" },
});

export const createAuditRequest = {
  tags,
  summary: "Open an audit request",
  description: "Records an auditor's request for a framework (optionally naming controls) to answer later with evidence. Emits audit.request_created.",
  security: anySecurity,
  body: input(
    {
      framework: { type: "string", enum: FRAMEWORKS },
      title: { type: "string", minLength: 1, maxLength: 200 },
      description: { type: "string", maxLength: 10_000 },
      control_ids: { type: "array", maxItems: 100, items: { type: "string", minLength: 1, maxLength: 128 } },
      requested_by: { type: "string", maxLength: 320, description: "Auditor's name or email; default: you" },
      due_date: { type: "string", format: "date-time" },
    },
    {
      required: ["framework", "title"],
      examples: [
        {
          framework: "soc2",
          title: "Access reviews for Q4",
          description: "Show the quarterly access review of production systems.",
          requested_by: "auditor@audit-firm.example",
          due_date: "2026-12-15T17:00:00Z",
        },
      ],
    },
  ),
  response: { 201: auditItem, ...errorResponses(403, 422) },
} as const;

export const listAuditRequests = {
  ...listing("List audit requests", "Newest first.", auditItem),
  querystring: pageQuery({ status: { type: "string", enum: AUDIT_STATUSES } } as const),
} as const;

export const getAuditRequest = byId(
  "Audit request detail",
  "One auditor's request: what was asked, for which controls, and the answer and evidence once given.",
  "audit_request_id",
  { 200: auditItem },
);

export const answerAuditRequest = {
  tags,
  summary: "Answer an audit request",
  description: "Records the answer and the evidence offered; the status becomes `closed` unless `in_progress` is given.",
  security: anySecurity,
  params: id("audit_request_id"),
  body: input(
    {
      answer: { type: "string", minLength: 1, maxLength: 10_000 },
      evidence_ids: { type: "array", maxItems: 100, items: { type: "string", minLength: 1, maxLength: 128 } },
      status: { type: "string", enum: ["in_progress", "closed"] },
    },
    { required: ["answer"], examples: [{ answer: "Reviews are done quarterly; the Q4 review is attached.", status: "closed" }] },
  ),
  response: { 200: auditItem, ...errorResponses(403, 404, 422) },
} as const;
