import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { pendingEvent, type EnvelopeInit, type PendingEvent } from "@vulnscan/kit";
import type { GrcEvent } from "../domain/types.js";

/** A domain event as its vulnscan.events.v1 envelope content (type, organization, payload). */
export function envelopeOf(e: GrcEvent): EnvelopeInit {
  switch (e.type) {
    case "control.status_changed": {
      const c = e.control;
      const value = { controlId: c.id, name: c.name, frameworks: [c.framework], from: e.from, to: c.status, user: e.user };
      return { type: e.type, orgId: e.orgId, payload: { case: "controlStatusChanged", value } };
    }
    case "framework.score_changed": {
      const s = e.score;
      const value = { framework: s.id, name: s.name, previousScore: e.previousScore, score: s.score };
      return { type: e.type, orgId: e.orgId, payload: { case: "frameworkScoreChanged", value } };
    }
    case "evidence.uploaded": {
      const d = e.evidence;
      const value = {
        evidenceId: d._id,
        controlId: d.control_id,
        name: d.name,
        contentType: d.content_type,
        sizeBytes: d.size_bytes,
        uploadedBy: d.uploaded_by,
        source: d.source,
        sha256: d.sha256,
        scanId: d.scan_id,
        ...(d.expires_at ? { expiresAt: timestampFromDate(d.expires_at) } : {}),
      };
      return { type: e.type, orgId: d.org_id, payload: { case: "evidenceUploaded", value } };
    }
    case "evidence.expiring": {
      const d = e.evidence;
      const value = {
        evidenceId: d._id,
        controlId: d.control_id,
        name: d.name,
        ...(d.expires_at ? { expiresAt: timestampFromDate(d.expires_at) } : {}),
        daysRemaining: e.daysRemaining,
      };
      return { type: e.type, orgId: d.org_id, payload: { case: "evidenceExpiring", value } };
    }
    case "quarantine.threat_detected": {
      const d = e.evidence;
      const value = {
        evidenceId: d._id,
        controlId: d.control_id,
        fileName: d.name,
        sha256: d.sha256,
        threat: e.threat,
        uploadedBy: d.uploaded_by,
        detectedAt: timestampFromDate(e.detectedAt),
      };
      return { type: e.type, orgId: d.org_id, payload: { case: "quarantineThreatDetected", value } };
    }
    case "audit.request_created": {
      const a = e.audit;
      const value = {
        auditRequestId: a._id,
        framework: a.framework,
        controlIds: a.control_ids,
        title: a.title,
        requestedBy: a.requested_by,
        ...(a.due_date ? { dueDate: timestampFromDate(a.due_date) } : {}),
      };
      return { type: e.type, orgId: a.org_id, payload: { case: "auditRequestCreated", value } };
    }
  }
}

/** The Kafka key of a grc event: the id of the entity it is about, so its events stay in order. */
function keyOf(e: GrcEvent): string {
  switch (e.type) {
    case "control.status_changed":
      return e.control.id;
    case "framework.score_changed":
      return e.score.id;
    case "audit.request_created":
      return e.audit._id;
    default:
      return e.evidence._id;
  }
}

export const toPending = (topic: string, events: GrcEvent[]): PendingEvent[] => events.map((e) => pendingEvent(topic, keyOf(e), envelopeOf(e)));
