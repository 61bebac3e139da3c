import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { enumNameIn, enumValue, validationError } from "@vulnscan/kit";
import type { Actor as ActorMsg } from "@vulnscan/proto/vulnscan/common/v1/actor_pb.js";
import type { Detection } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import {
  CommentSchema,
  Confidence,
  ExportFormat,
  FindingSchema,
  FindingSortField,
  FindingStatus,
  Priority,
  Severity,
  SlaState,
  SortOrder,
  type Comment,
  type Finding,
  type FindingFilter,
} from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import type { ExportFormat as Format } from "../domain/exports.js";
import type { ListFilter } from "../domain/list.js";
import { searchPlan } from "../domain/search.js";
import { SLA_STATES, slaRunning, slaStateAt } from "../domain/sla.js";
import {
  CONFIDENCES,
  PRIORITIES,
  SEVERITIES,
  STATUSES,
  type Actor,
  type CommentDoc,
  type Confidence as ConfidenceName,
  type DetectionFacts,
  type FindingDoc,
  type Priority as PriorityName,
  type Severity as SeverityName,
  type SortField,
  type SortOrder as Order,
  type Status,
} from "../domain/types.js";

/*
 * Proto ⇄ domain. Enums map by name (the kit's enums.ts); a present enum of UNSPECIFIED or an
 * unknown number is a VALIDATION_ERROR naming the field, as findings_service.proto says.
 */
export const severityOf = (n: number, field = "severity"): SeverityName => enumNameIn(Severity, n, SEVERITIES, field);
export const statusOf = (n: number, field = "status"): Status => enumNameIn(FindingStatus, n, STATUSES, field);
export const priorityOf = (n: number): PriorityName | "" => (n === Priority.UNSPECIFIED ? "" : enumNameIn(Priority, n, PRIORITIES, "priority"));
export const sortOf = (n: number | undefined): SortField | undefined =>
  n === undefined ? undefined : enumNameIn(FindingSortField, n, ["severity", "created_at", "cvss_score", "due_date", "sla_state"] as const, "sort");
export const orderOf = (n: number | undefined): Order | undefined =>
  n === undefined ? undefined : enumNameIn(SortOrder, n, ["asc", "desc"] as const, "order");
export const confidenceOf = (n: number, field = "confidence"): ConfidenceName => enumNameIn(Confidence, n, CONFIDENCES, field);
/** A detection's confidence; UNSPECIFIED (a scanner from before the field) is stored as "". */
const detectionConfidence = (n: number): ConfidenceName | "" => (n === Confidence.UNSPECIFIED ? "" : confidenceOf(n));
export const formatOf = (n: number): Format => enumNameIn(ExportFormat, n, ["csv", "json", "pdf"] as const, "format");

export function filterOf(f: FindingFilter | undefined): ListFilter {
  if (!f) return {};
  const out: ListFilter = {};
  if (f.severity !== undefined) out.severity = severityOf(f.severity);
  if (f.status !== undefined) out.status = statusOf(f.status);
  if (f.scanId !== undefined) out.scan_id = f.scanId;
  if (f.target !== undefined) out.target = f.target;
  if (f.tool !== undefined) out.tool = f.tool;
  if (f.cve !== undefined) out.cve = f.cve;
  if (f.search !== undefined) out.search = searchPlan(f.search);
  if (f.confidence !== undefined) out.confidence = confidenceOf(f.confidence);
  if (f.slaState !== undefined) out.sla_state = enumNameIn(SlaState, f.slaState, SLA_STATES, "sla_state");
  if (f.dueBefore) out.due_before = timestampDate(f.dueBefore);
  if (f.dueAfter) out.due_after = timestampDate(f.dueAfter);
  if (f.acceptedExpiringWithinDays !== undefined) {
    const n = f.acceptedExpiringWithinDays;
    if (!Number.isInteger(n) || n < 1 || n > 365) throw validationError("accepted_expiring_within", "accepted_expiring_within must be 1d to 365d");
    out.accepted_expiring_within_days = n;
  }
  return out;
}

export function actorOf(a: ActorMsg | undefined): Actor | undefined {
  return a ? { user_id: a.userId, api_key_id: a.apiKeyId, display_name: a.displayName } : undefined;
}

export const ts = (d: Date): Timestamp => timestampFromDate(d);
export const dateOf = (t: Timestamp): Date => timestampDate(t);

export function commentMsg(c: CommentDoc, findingId: string): Comment {
  return create(CommentSchema, { id: c.id, findingId, user: c.user, userId: c.user_id, text: c.text, createdAt: ts(c.created_at) });
}

/** A finding with its SLA state at `now` (the service's clock). */
export const findingMsgAt =
  (now: Date) =>
  (f: FindingDoc): Finding => {
    const m = findingMsg(f);
    m.slaState = slaStateAt(f, now) ?? "";
    return m;
  };

export function findingMsg(f: FindingDoc): Finding {
  const init: MessageInitShape<typeof FindingSchema> = {
    id: f._id,
    orgId: f.org_id,
    title: f.title,
    severity: enumValue(Severity, f.severity),
    status: enumValue(FindingStatus, f.status),
    cvssScore: f.cvss_score,
    cvssVector: f.cvss_vector,
    kev: f.kev,
    confidence: f.confidence ? enumValue(Confidence, f.confidence) : Confidence.UNSPECIFIED,
    target: f.target,
    affectedComponent: f.affected_component,
    tool: f.tool,
    templateId: f.template_id,
    cveIds: f.cve_ids,
    cweIds: f.cwe_ids,
    scanId: f.scan_id,
    detectedAt: ts(f.detected_at),
    lastSeenAt: ts(f.last_seen_at),
    description: f.description,
    impact: f.impact,
    remediation: f.remediation
      ? { summary: f.remediation.summary, steps: f.remediation.steps, codeExample: f.remediation.code_example, references: f.remediation.references }
      : undefined,
    evidence: f.evidence
      ? {
          request: f.evidence.request,
          response: f.evidence.response,
          ...(f.evidence.screenshot_url !== null ? { screenshotUrl: f.evidence.screenshot_url } : {}),
        }
      : undefined,
    frameworks: f.frameworks.map((m) => ({ name: m.name, controls: m.controls })),
    comments: (f.comments ?? []).map((c) => commentMsg(c, f._id)),
    history: (f.history ?? []).map((h) => ({
      action: h.action,
      to: h.to,
      user: h.user,
      timestamp: ts(h.timestamp),
      ...(h.from !== null ? { from: h.from } : {}),
    })),
    assignee: f.assignee,
    priority: f.priority ? enumValue(Priority, f.priority) : Priority.UNSPECIFIED,
    dueDate: f.due_date ? ts(f.due_date) : undefined,
    notes: f.notes,
    createdAt: ts(f.created_at),
    updatedAt: ts(f.updated_at),
    dueDateSource: f.due_source ?? (f.due_date ? "user" : ""),
    slaState: slaStateAt(f, new Date()) ?? "",
    resolution: f.status === "resolved" ? (f.resolution ?? "") : "",
  };
  // Optional parts after the literal, and conditional spreads last in theirs: V8 defines every
  // property a literal lists after a spread through its runtime (24.7 → 6.7 µs a finding;
  // docs/decisions.md, "Response objects").
  if (f.sla_at_risk_at && slaRunning(f)) init.slaAtRiskAt = ts(f.sla_at_risk_at);
  if (f.acceptance) {
    const a = f.acceptance;
    init.acceptance = {
      state: a.state,
      justification: a.justification,
      expiresAt: ts(a.expires_at),
      requestedBy: a.requested_by,
      requestedAt: ts(a.requested_at),
      decidedBy: a.decided_by,
      decisionNote: a.decision_note,
      ...(a.decided_at ? { decidedAt: ts(a.decided_at) } : {}),
    };
  }
  if (f.epss_score !== null) init.epssScore = f.epss_score;
  return create(FindingSchema, init);
}

const finite = (x: number, lo: number, hi: number) => (Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : lo);

/**
 * Scanner text (banners, raw responses) can hold NUL characters. They are shown as the visible
 * escape `\x00`: an analyst still sees them, and PostgreSQL's jsonb (FerretDB's backend), CSV and
 * PDF cannot carry a NUL (PostgreSQL refuses the whole insert: "unsupported Unicode escape sequence").
 */
export function visibleNuls<T>(v: T): T {
  if (typeof v === "string") return (v.includes("\u0000") ? v.replaceAll("\u0000", "\\x00") : v) as T;
  if (Array.isArray(v)) return v.map(visibleNuls) as T;
  if (v && typeof v === "object" && !(v instanceof Date)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visibleNuls(x)])) as T;
  }
  return v;
}

/** A Detection record as domain facts; throws a validation error for records that can never apply. */
export function detectionFacts(d: Detection): DetectionFacts {
  return visibleNuls(factsFrom(d));
}

function factsFrom(d: Detection): DetectionFacts {
  for (const [field, v] of [
    ["detection_id", d.detectionId],
    ["org_id", d.orgId],
    ["scan_id", d.scanId],
    ["target", d.target],
    ["template_id", d.templateId],
  ] as const) {
    if (!v.trim()) throw validationError(field, `${field} is required`);
  }
  return {
    detection_id: d.detectionId,
    org_id: d.orgId,
    scan_id: d.scanId,
    target: d.target,
    template_id: d.templateId,
    title: d.title || d.templateId,
    severity: severityOf(d.severity),
    cvss_score: finite(d.cvssScore, 0, 10),
    cvss_vector: d.cvssVector,
    cwe_ids: d.cweIds,
    cve_ids: d.cveIds,
    tool: d.tool,
    affected_component: d.affectedComponent,
    description: d.description,
    impact: d.impact,
    remediation: {
      summary: d.remediation?.summary ?? "",
      steps: d.remediation?.steps ?? [],
      code_example: d.remediation?.codeExample ?? "",
      references: d.remediation?.references ?? [],
    },
    evidence: {
      request: d.evidence?.request ?? "",
      response: d.evidence?.response ?? "",
      screenshot_url: d.evidence?.screenshotUrl ?? null,
    },
    frameworks: d.frameworks.map((m) => ({ name: m.name, controls: [...m.controls] })),
    epss_score: d.epssScore === undefined ? null : finite(d.epssScore, 0, 1),
    kev: d.kev,
    kev_due_date: d.kev && d.kevDueDate ? timestampDate(d.kevDueDate) : null,
    confidence: detectionConfidence(d.confidence),
    detected_at: d.detectedAt ? timestampDate(d.detectedAt) : new Date(),
  };
}
