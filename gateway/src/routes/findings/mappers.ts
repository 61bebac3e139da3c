import type { MessageInitShape } from "@bufbuild/protobuf";
import type { FromSchema } from "json-schema-to-ts";
import {
  Confidence,
  FindingSortField,
  FindingStatus,
  Priority,
  Severity,
  SlaState,
  SortOrder,
  type BulkUpdateResponse,
  type Comment,
  type Finding,
  type FindingFilterSchema,
  type GetAiAnalysisResponse,
  type GetStatsResponse,
} from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { enumName, enumValue, findingDetailJson, findingListItemJson } from "@vulnscan/kit";
import { dateParam } from "../../rest.js";
import { iso } from "../../schemas.js";
import { SEVERITIES, STATUSES, type FilterQuery } from "./resources.js";
import type { bulkUpdate, updateFinding } from "./schemas.js";

/** proto ⇄ JSON for the findings routes; enums by name through the kit's enumName/enumValue. */

export function filterOf(q: FilterQuery): MessageInitShape<typeof FindingFilterSchema> {
  const f: MessageInitShape<typeof FindingFilterSchema> = {};
  if (q.severity) f.severity = enumValue(Severity, q.severity);
  if (q.status) f.status = enumValue(FindingStatus, q.status);
  if (q.scan_id) f.scanId = q.scan_id;
  if (q.target) f.target = q.target;
  if (q.tool) f.tool = q.tool;
  if (q.cve) f.cve = q.cve;
  if (q.search) f.search = q.search;
  if (q.confidence) f.confidence = enumValue(Confidence, q.confidence);
  if (q.sla_state) f.slaState = enumValue(SlaState, q.sla_state);
  if (q.due_before) f.dueBefore = dateParam(q.due_before, "due_before");
  if (q.due_after) f.dueAfter = dateParam(q.due_after, "due_after");
  if (q.accepted_expiring_within) f.acceptedExpiringWithinDays = Number.parseInt(q.accepted_expiring_within, 10);
  return f;
}

export const sortOf = (q: FilterQuery) => ({ sort: enumValue(FindingSortField, q.sort), order: enumValue(SortOrder, q.order) });

/** A finding as a list item and in full: the kit's one mapping, shared with findings' exports. */
export const listItem = findingListItemJson;
export const detail = findingDetailJson;

/** A PATCH body's changes: absent fields stay, `null` clears assignee, priority or due date. */
export function changesOf(body: FromSchema<typeof updateFinding.body>) {
  return {
    ...(body.status !== undefined ? { status: enumValue(FindingStatus, body.status) } : {}),
    ...(body.assignee !== undefined ? { assignee: body.assignee ?? "" } : {}),
    ...(body.priority !== undefined ? { priority: body.priority === null ? Priority.UNSPECIFIED : enumValue(Priority, body.priority) } : {}),
    ...(typeof body.due_date === "string" ? { dueDate: dateParam(body.due_date, "due_date") } : {}),
    clearDueDate: body.due_date === null,
    ...(body.notes !== undefined ? { notes: body.notes } : {}),
    ...acceptanceOf(body.acceptance, "acceptance"),
  };
}

/** A move to accepted's expiry and justification (findings checks them: required with status accepted, refused without). */
function acceptanceOf(a: { expires_at: string; justification: string } | undefined, field: string) {
  return a ? { acceptance: { expiresAt: dateParam(a.expires_at, `${field}.expires_at`), justification: a.justification } } : {};
}

/** A bulk body's one update, for every id. */
export function bulkChangesOf(update: FromSchema<typeof bulkUpdate.body>["update"]) {
  return {
    ...(update.status !== undefined ? { status: enumValue(FindingStatus, update.status) } : {}),
    ...(update.notes !== undefined ? { notes: update.notes } : {}),
    ...acceptanceOf(update.acceptance, "update.acceptance"),
  };
}

export const bulkJson = (res: BulkUpdateResponse) => ({
  updated: res.updated,
  failed: res.failed.map((f) => ({ finding_id: f.findingId, error_code: f.errorCode, detail: f.detail })),
});

/** The short answer of a PATCH. */
export const updated = (f: Finding) => ({ id: f.id, status: enumName(FindingStatus, f.status), assignee: f.assignee || null, updated_at: iso(f.updatedAt) });

export const commentJson = (c: Comment) => ({ id: c.id, finding_id: c.findingId, user: c.user, text: c.text, created_at: iso(c.createdAt) });

/** A finding as `GET /api/v1/scans/{scan_id}/findings` lists it. */
export function scanFinding(f: Finding) {
  return {
    id: f.id,
    title: f.title,
    severity: enumName(Severity, f.severity),
    cvss_score: f.cvssScore,
    status: enumName(FindingStatus, f.status),
    tool: f.tool,
    affected_component: f.affectedComponent,
    description: f.description,
    remediation: f.remediation?.summary ?? "",
    cve_ids: f.cveIds,
    detected_at: iso(f.detectedAt),
    // As the findings list says it (added to the spec's fields); null for findings stored before the scanner said.
    confidence: f.confidence === Confidence.UNSPECIFIED ? null : enumName(Confidence, f.confidence),
  };
}

/** Counts under their REST names, read from the proto message's fields (the camelCase of them). */
function countsByName<K extends string>(names: readonly K[], counts: object | undefined): Record<K, number> {
  const byField = (counts ?? {}) as Record<string, number | undefined>;
  return Object.fromEntries(names.map((n) => [n, byField[n.replace(/_(.)/g, (_, c: string) => c.toUpperCase())] ?? 0])) as Record<K, number>;
}

export function statsJson(s: GetStatsResponse) {
  return {
    total: s.total,
    by_severity: countsByName(SEVERITIES, s.bySeverity),
    by_status: countsByName(STATUSES, s.byStatus),
    by_tool: s.byTool,
    trends: {
      new_this_week: s.trends?.newThisWeek ?? 0,
      resolved_this_week: s.trends?.resolvedThisWeek ?? 0,
      average_resolution_days: s.trends?.averageResolutionDays ?? 0,
    },
    sla: { breached: s.sla?.breached ?? 0, at_risk: s.sla?.atRisk ?? 0 },
  };
}

export function aiAnalysisJson(res: GetAiAnalysisResponse) {
  const a = res.aiAnalysis!;
  return {
    finding_id: res.findingId,
    ai_analysis: {
      risk_assessment: a.riskAssessment,
      attack_scenarios: a.attackScenarios,
      remediation_priority: a.remediationPriority,
      recommended_actions: a.recommendedActions,
      automation_available: a.automationAvailable,
      ansible_playbook_id: a.ansiblePlaybookId,
      category: a.category,
      source: a.source,
      source_detail: a.sourceDetail,
    },
    ai_credits_used: res.aiCreditsUsed,
    ai_credits_remaining: res.aiCreditsRemaining,
  };
}
