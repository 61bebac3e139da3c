import type { FindingDoc, Status } from "./types.js";

/*
 * The vulnerability.* events a change causes, as plain records: the finding as it stands after
 * the change (so an event and the document it describes never disagree), when, and for a status
 * change who moved it from what to what. events/finding-events.ts writes them as envelopes.
 */

export type FindingEventType =
  | "vulnerability.found"
  | "vulnerability.critical"
  | "vulnerability.high"
  | "vulnerability.status_changed"
  | "vulnerability.resolved"
  // Added to the spec's kinds: SLA deadlines and risk acceptance (domain/sla.ts, domain/acceptance.ts).
  | "finding.sla_breached"
  | "finding.acceptance_requested"
  | "finding.acceptance_expired";

export interface FindingEvent {
  type: FindingEventType;
  finding: FindingDoc;
  at: Date;
  /** status_changed and resolved: the move and who made it. */
  status?: { from: Status; to: Status; user: string };
}

/** A new finding: found, plus critical or high by its severity. */
export function foundEvents(f: FindingDoc): FindingEvent[] {
  const at = f.created_at;
  const events: FindingEvent[] = [{ type: "vulnerability.found", finding: f, at }];
  if (f.severity === "critical" || f.severity === "high") events.push({ type: `vulnerability.${f.severity}`, finding: f, at });
  return events;
}

/** A status change: status_changed, plus resolved when the new status is resolved. */
export function statusEvents(f: FindingDoc, from: Status, to: Status, user: string, at: Date): FindingEvent[] {
  const status = { from, to, user };
  const events: FindingEvent[] = [{ type: "vulnerability.status_changed", finding: f, at, status }];
  if (to === "resolved") events.push({ type: "vulnerability.resolved", finding: f, at, status });
  return events;
}
