import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { pendingEvent, type EnvelopeInit, type PendingEvent } from "@vulnscan/kit";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { Binary } from "mongodb";
import { createHash } from "node:crypto";
import type { FindingEvent } from "../domain/events.js";

/*
 * The domain's vulnerability.* records as envelopes for the outbox (topic vulnscan.finding.events,
 * key = finding id, so one finding's events stay in order). vulnerability.critical and .high
 * carry exactly the spec's data (finding_id, title, severity, cvss_score, target,
 * affected_component, cve_ids, scan_id), plus confidence.
 */

export function envelopeOf(e: FindingEvent): EnvelopeInit {
  const f = e.finding;
  const orgId = f.org_id;
  const base = {
    findingId: f._id,
    title: f.title,
    severity: f.severity,
    cvssScore: f.cvss_score,
    target: f.target,
    affectedComponent: f.affected_component,
    cveIds: [...f.cve_ids],
    scanId: f.scan_id,
    // Added to the spec's data: how far the finding can be trusted ("" for findings stored before it).
    confidence: f.confidence ?? "",
  };
  const who = { findingId: f._id, title: f.title, severity: f.severity, target: f.target, user: e.status?.user ?? "" };
  switch (e.type) {
    case "vulnerability.found": {
      // grc maps the finding to its controls from these (the catalogue's mapping the scanner applied).
      const more = {
        tool: f.tool,
        templateId: f.template_id,
        cweIds: [...f.cwe_ids],
        frameworks: f.frameworks.map((m) => ({ name: m.name, controls: [...m.controls] })),
      };
      return { type: e.type, orgId, payload: { case: "vulnerabilityFound", value: { ...base, ...more } } };
    }
    case "vulnerability.critical":
      return { type: e.type, orgId, payload: { case: "vulnerabilityCritical", value: base } };
    case "vulnerability.high":
      return { type: e.type, orgId, payload: { case: "vulnerabilityHigh", value: base } };
    case "vulnerability.status_changed":
      return { type: e.type, orgId, payload: { case: "vulnerabilityStatusChanged", value: { ...who, from: e.status?.from, to: e.status?.to } } };
    case "vulnerability.resolved": {
      const value = { ...who, affectedComponent: f.affected_component, scanId: f.scan_id, resolvedAt: timestampFromDate(e.at) };
      return { type: e.type, orgId, payload: { case: "vulnerabilityResolved", value } };
    }
    case "finding.sla_breached": {
      const due = f.due_date ? timestampFromDate(f.due_date) : undefined;
      const value = {
        ...who,
        affectedComponent: f.affected_component,
        status: f.status,
        dueDate: due,
        dueDateSource: f.due_source ?? "",
        assignee: f.assignee,
      };
      return { type: e.type, orgId, payload: { case: "findingSlaBreached", value } };
    }
    case "finding.acceptance_requested":
    case "finding.acceptance_expired": {
      const a = f.acceptance;
      const value = {
        findingId: f._id,
        title: f.title,
        severity: f.severity,
        target: f.target,
        justification: a?.justification ?? "",
        expiresAt: a ? timestampFromDate(a.expires_at) : undefined,
        requestedBy: a?.requested_by ?? "",
      };
      const payload =
        e.type === "finding.acceptance_requested"
          ? { case: "findingAcceptanceRequested" as const, value }
          : { case: "findingAcceptanceExpired" as const, value };
      return { type: e.type, orgId, payload };
    }
  }
}

/** The outbox record of one event (its id fixed now, so a republish repeats it). */
export const pendingFindingEvent = (topic: string, e: FindingEvent): PendingEvent => pendingEvent(topic, e.finding._id, envelopeOf(e), e.at);

/**
 * A new finding's event, with an id derived from the finding and the type: announcing a creation
 * again (after a crash, from the stored finding) repeats the ids, which consumers de-duplicate.
 */
export function creationEvent(topic: string, e: FindingEvent): PendingEvent {
  const h = createHash("sha256").update(`${e.finding._id}:${e.type}`).digest("hex");
  const id = `evt_${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
  const envelope = create(EventEnvelopeSchema, { ...envelopeOf(e), id, occurredAt: timestampFromDate(e.at) });
  return { id, topic, key: e.finding._id, type: e.type, envelope: new Binary(toBinary(EventEnvelopeSchema, envelope)), created_at: e.at };
}
