import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EnvelopeInit } from "@vulnscan/kit";
import type { FindingDoc, Status } from "./types.js";

/*
 * The vulnerability.* events a change causes, built from the stored state so an event and the
 * document it describes never disagree. vulnerability.critical and .high carry exactly the
 * spec's data (finding_id, title, severity, cvss_score, target, affected_component, cve_ids,
 * scan_id).
 */

export function foundEvents(f: FindingDoc): EnvelopeInit[] {
  const base = {
    findingId: f._id,
    title: f.title,
    severity: f.severity,
    cvssScore: f.cvss_score,
    target: f.target,
    affectedComponent: f.affected_component,
    cveIds: [...f.cve_ids],
    scanId: f.scan_id,
  };
  const events: EnvelopeInit[] = [
    {
      type: "vulnerability.found",
      orgId: f.org_id,
      payload: {
        case: "vulnerabilityFound",
        value: {
          ...base,
          tool: f.tool,
          templateId: f.template_id,
          // grc maps the finding to its controls from these (the catalogue's mapping the scanner applied).
          cweIds: [...f.cwe_ids],
          frameworks: f.frameworks.map((m) => ({ name: m.name, controls: [...m.controls] })),
        },
      },
    },
  ];
  if (f.severity === "critical") events.push({ type: "vulnerability.critical", orgId: f.org_id, payload: { case: "vulnerabilityCritical", value: base } });
  if (f.severity === "high") events.push({ type: "vulnerability.high", orgId: f.org_id, payload: { case: "vulnerabilityHigh", value: base } });
  return events;
}

/** A status change: status_changed, plus resolved when the new status is resolved. */
export function statusEvents(f: FindingDoc, from: Status, to: Status, user: string, at: Date): EnvelopeInit[] {
  const events: EnvelopeInit[] = [
    {
      type: "vulnerability.status_changed",
      orgId: f.org_id,
      payload: {
        case: "vulnerabilityStatusChanged",
        value: { findingId: f._id, title: f.title, severity: f.severity, target: f.target, from, to, user },
      },
    },
  ];
  if (to === "resolved") {
    events.push({
      type: "vulnerability.resolved",
      orgId: f.org_id,
      payload: {
        case: "vulnerabilityResolved",
        value: {
          findingId: f._id,
          title: f.title,
          severity: f.severity,
          target: f.target,
          affectedComponent: f.affected_component,
          scanId: f.scan_id,
          user,
          resolvedAt: timestampFromDate(at),
        },
      },
    });
  }
  return events;
}
