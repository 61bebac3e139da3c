import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { Actor } from "@vulnscan/proto/vulnscan/common/v1/actor_pb.js";
import type { Pagination } from "@vulnscan/proto/vulnscan/common/v1/pagination_pb.js";
import type { AuditRequestSchema, ControlSchema, EvidenceItemSchema, FrameworkSchema } from "@vulnscan/proto/vulnscan/grc/v1/grc_service_pb.js";
import type { AuditDoc, ControlView, EvidenceDoc, FrameworkScore } from "../domain/types.js";

const ts = (d: Date | null | undefined) => (d ? timestampFromDate(d) : undefined);
export const dateOf = (t: Timestamp | undefined) => (t ? timestampDate(t) : undefined);

/** Pagination defaults of common/v1: page 0 → 1, per_page 0 → 20, above 100 → 100. */
export function pageOf(p: Pagination | undefined) {
  const page = Math.max(1, p?.page || 1);
  const perPage = Math.min(100, Math.max(1, p?.perPage || 20));
  return { page, perPage };
}

export function pageInfo(total: number, page: number, perPage: number) {
  return { total, page, perPage, pages: Math.ceil(total / perPage) };
}

/** The display name the spec's `user` fields show. */
export const userOf = (a: Actor | undefined) => a?.displayName || a?.userId || a?.apiKeyId || "unknown";

/** A listing carries what list items show; detail-only fields (notes, finding ids) stay out of the hot path's encoding. */
export function controlListMsg(c: ControlView): MessageInitShape<typeof ControlSchema> {
  return {
    id: c.id,
    name: c.name,
    // The proto's description: what the control asks for (the catalogue's text, "" when not written yet).
    description: c.requirement,
    status: c.status,
    frameworks: [c.framework],
    evidenceCount: c.evidenceCount,
    frameworkRefs: [{ framework: c.framework, controlRef: c.ref }],
    owner: c.owner,
    openFindingCount: c.openFindingCount,
    lastTestedAt: ts(c.lastTestedAt),
  };
}

export function controlMsg(orgId: string, c: ControlView): MessageInitShape<typeof ControlSchema> {
  const detail = { notes: c.notes, findingIds: c.findingIds, setStatus: c.setStatus, updatedAt: ts(c.updatedAt) };
  return { ...controlListMsg(c), orgId, ...detail };
}

export function evidenceMsg(d: EvidenceDoc): MessageInitShape<typeof EvidenceItemSchema> {
  return {
    id: d._id,
    orgId: d.org_id,
    controlId: d.control_id,
    controlIds: d.control_ids,
    name: d.name,
    title: d.title,
    description: d.description,
    contentType: d.content_type,
    sizeBytes: d.size_bytes,
    sha256: d.sha256,
    status: d.status,
    threat: d.threat,
    source: d.source,
    scanId: d.scan_id,
    uploadedBy: d.uploaded_by,
    uploadedAt: ts(d.uploaded_at),
    expiresAt: ts(d.expires_at),
    observedFrom: ts(d.observed_from),
    observedTo: ts(d.observed_to),
  };
}

export function frameworkMsg(f: FrameworkScore): MessageInitShape<typeof FrameworkSchema> {
  return {
    id: f.id,
    name: f.name,
    score: f.score,
    controlsTotal: f.total,
    controlsImplemented: f.implemented,
    controlsFailed: f.failing,
    controlsNotApplicable: f.notApplicable,
    controlsInProgress: f.inProgress,
    controlsNotStarted: f.notStarted,
  };
}

export function auditMsg(d: AuditDoc): MessageInitShape<typeof AuditRequestSchema> {
  return {
    id: d._id,
    orgId: d.org_id,
    framework: d.framework,
    controlIds: d.control_ids,
    title: d.title,
    description: d.description,
    status: d.status,
    requestedBy: d.requested_by,
    dueDate: ts(d.due_date),
    createdAt: ts(d.created_at),
    answer: d.answer,
    answeredBy: d.answered_by,
    answeredAt: ts(d.answered_at),
    evidenceIds: d.evidence_ids,
  };
}
