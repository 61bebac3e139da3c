import type { FindingDoc } from "../domain/types.js";
import { Chunker } from "./chunker.js";

/*
 * The spec's JSON shapes of a finding, for the exports (the gateway maps the RPC messages to
 * the same shapes for the API; the export tests compare the two).
 */

export function listItemJson(f: FindingDoc) {
  return {
    id: f._id,
    title: f.title,
    severity: f.severity,
    status: f.status,
    cvss_score: f.cvss_score,
    epss_score: f.epss_score,
    target: f.target,
    affected_component: f.affected_component,
    tool: f.tool,
    template_id: f.template_id,
    cve_ids: f.cve_ids,
    cwe_ids: f.cwe_ids,
    scan_id: f.scan_id,
    detected_at: f.detected_at.toISOString(),
    frameworks: f.frameworks.map((m) => m.name),
  };
}

export function detailJson(f: FindingDoc) {
  return {
    ...listItemJson(f),
    frameworks: f.frameworks.map((m) => ({ name: m.name, controls: m.controls })),
    cvss_vector: f.cvss_vector,
    kev: f.kev,
    description: f.description,
    impact: f.impact,
    remediation: f.remediation,
    evidence: f.evidence,
    comments: f.comments.map((c) => ({ id: c.id, user: c.user, text: c.text, created_at: c.created_at.toISOString() })),
    history: f.history.map((h) => ({ action: h.action, from: h.from, to: h.to, user: h.user, timestamp: h.timestamp.toISOString() })),
    assignee: f.assignee,
    priority: f.priority || null,
    due_date: f.due_date ? f.due_date.toISOString() : null,
    notes: f.notes,
    last_seen_at: f.last_seen_at.toISOString(),
    created_at: f.created_at.toISOString(),
    updated_at: f.updated_at.toISOString(),
  };
}

/** JSON: an array of finding details, written one element at a time. */
export async function* jsonExport(rows: AsyncIterable<FindingDoc>): AsyncGenerator<Buffer> {
  const c = new Chunker();
  yield* c.push("[");
  let first = true;
  for await (const f of rows) {
    yield* c.push(`${first ? "\n" : ",\n"}${JSON.stringify(detailJson(f))}`);
    first = false;
  }
  yield* c.push(first ? "]\n" : "\n]\n");
  yield* c.flush();
}
