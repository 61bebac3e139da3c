import type { AuditRequest, Control, EvidenceItem, Framework } from "@vulnscan/proto/vulnscan/grc/v1/grc_service_pb.js";
import { iso } from "../../schemas.js";

/** proto → the REST JSON of the GRC routes (snake_case; empty strings and unset times as null). */

const orNull = (s: string) => s || null;
const timeOrNull = (t: Parameters<typeof iso>[0]) => iso(t) ?? null;

export function controlItem(c: Control) {
  return {
    id: c.id,
    name: c.name,
    requirement: c.description,
    status: c.status,
    frameworks: c.frameworks,
    evidence_count: c.evidenceCount,
    framework_refs: c.frameworkRefs.map((r) => ({ framework: r.framework, control_ref: r.controlRef })),
    owner: orNull(c.owner),
    last_tested_at: timeOrNull(c.lastTestedAt),
    open_finding_count: c.openFindingCount,
  };
}

export function controlDetail(c: Control) {
  return { ...controlItem(c), set_status: c.setStatus, notes: c.notes, finding_ids: c.findingIds, updated_at: timeOrNull(c.updatedAt) };
}

export function evidenceJson(e: EvidenceItem) {
  return {
    id: e.id,
    control_id: e.controlId,
    control_ids: e.controlIds,
    name: e.name,
    title: e.title,
    description: e.description,
    content_type: e.contentType,
    size_bytes: e.sizeBytes,
    sha256: e.sha256,
    status: e.status,
    threat: orNull(e.threat),
    source: e.source,
    scan_id: orNull(e.scanId),
    uploaded_by: e.uploadedBy,
    uploaded_at: iso(e.uploadedAt),
    expires_at: timeOrNull(e.expiresAt),
    observed_from: timeOrNull(e.observedFrom),
    observed_to: timeOrNull(e.observedTo),
  };
}

export function frameworkJson(f: Framework) {
  return {
    id: f.id,
    name: f.name,
    score: f.score,
    controls_total: f.controlsTotal,
    controls_implemented: f.controlsImplemented,
    controls_failing: f.controlsFailed,
    controls_in_progress: f.controlsInProgress,
    controls_not_started: f.controlsNotStarted,
    controls_not_applicable: f.controlsNotApplicable,
  };
}

export function auditJson(a: AuditRequest) {
  return {
    id: a.id,
    framework: a.framework,
    control_ids: a.controlIds,
    title: a.title,
    description: a.description,
    status: a.status,
    requested_by: a.requestedBy,
    due_date: timeOrNull(a.dueDate),
    created_at: iso(a.createdAt),
    answer: orNull(a.answer),
    answered_by: orNull(a.answeredBy),
    answered_at: timeOrNull(a.answeredAt),
    evidence_ids: a.evidenceIds,
  };
}
