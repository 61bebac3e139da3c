import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { Confidence, FindingStatus, Priority, Severity, type Finding } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { enumName } from "./enums.js";
import { extend } from "./extend.js";

/*
 * The spec's JSON of a finding, from its RPC message. One mapping for the two places that write
 * it: the gateway's findings routes and the findings service's JSON and CSV exports (which turn
 * their documents into the same message first), so an export can never disagree with the API.
 */

/** A timestamp as ISO 8601, or undefined when the message has none. */
export function isoOf(ts: Timestamp | undefined): string | undefined {
  return ts ? timestampDate(ts).toISOString() : undefined;
}

/** A finding's latest risk acceptance, or null. */
function acceptanceJson(a: Finding["acceptance"]) {
  if (!a) return null;
  return {
    state: a.state,
    justification: a.justification,
    expires_at: isoOf(a.expiresAt),
    requested_by: a.requestedBy,
    requested_at: isoOf(a.requestedAt),
    decided_by: a.decidedBy,
    decided_at: isoOf(a.decidedAt) ?? null,
    decision_note: a.decisionNote,
  };
}

/** A finding as a list item (the spec's shape plus template, CWE and scan ids). */
export function findingListItemJson(f: Finding) {
  return {
    id: f.id,
    title: f.title,
    severity: enumName(Severity, f.severity),
    status: enumName(FindingStatus, f.status),
    cvss_score: f.cvssScore,
    epss_score: f.epssScore ?? null,
    target: f.target,
    affected_component: f.affectedComponent,
    tool: f.tool,
    template_id: f.templateId,
    cve_ids: f.cveIds,
    cwe_ids: f.cweIds,
    scan_id: f.scanId,
    detected_at: isoOf(f.detectedAt),
    frameworks: f.frameworks.map((m) => m.name),
    // Added to the spec's fields: confirmed, version_match or version_match_unverified_backport;
    // null for findings stored before the scanner said.
    confidence: f.confidence === Confidence.UNSPECIFIED ? null : enumName(Confidence, f.confidence),
    // Added to the spec's fields (issue 28): the deadline and where its SLA stands now.
    due_date: isoOf(f.dueDate) ?? null,
    sla_state: f.slaState || null,
  };
}

/** A finding in full, as `GET /api/v1/findings/{finding_id}` and the JSON export write it. */
export function findingDetailJson(f: Finding) {
  const r = f.remediation;
  const e = f.evidence;
  return extend(findingListItemJson(f), {
    frameworks: f.frameworks.map((m) => ({ name: m.name, controls: m.controls })),
    cvss_vector: f.cvssVector,
    kev: f.kev,
    description: f.description,
    impact: f.impact,
    remediation: { summary: r?.summary ?? "", steps: r?.steps ?? [], code_example: r?.codeExample ?? "", references: r?.references ?? [] },
    evidence: { request: e?.request ?? "", response: e?.response ?? "", screenshot_url: e?.screenshotUrl ?? null },
    comments: f.comments.map((c) => ({ id: c.id, user: c.user, text: c.text, created_at: isoOf(c.createdAt) })),
    history: f.history.map((h) => ({ action: h.action, from: h.from ?? null, to: h.to, user: h.user, timestamp: isoOf(h.timestamp) })),
    assignee: f.assignee,
    priority: f.priority === Priority.UNSPECIFIED ? null : enumName(Priority, f.priority),
    due_date: isoOf(f.dueDate) ?? null,
    notes: f.notes,
    last_seen_at: isoOf(f.lastSeenAt),
    created_at: isoOf(f.createdAt),
    updated_at: isoOf(f.updatedAt),
    due_date_source: f.dueDateSource || null,
    sla_at_risk_at: isoOf(f.slaAtRiskAt) ?? null,
    acceptance: acceptanceJson(f.acceptance),
    // Added to the spec's fields (issue 28): verified_fixed (a retest) or not_detected (auto-resolution); null otherwise.
    resolution: f.resolution || null,
  });
}
