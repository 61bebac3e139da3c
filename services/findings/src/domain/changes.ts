import { foundEvents, statusEvents, type FindingEvent } from "./events.js";
import { searchFields } from "./search.js";
import {
  SYSTEM,
  actorName,
  severityRank,
  type Actor,
  type CommentDoc,
  type DetectionFacts,
  type FindingDoc,
  type HistoryEntry,
  type Priority,
  type Status,
} from "./types.js";

/**
 * A change to one finding: the fields to set (arrays such as history are set whole) and the
 * events it causes. Pure functions below decide the change on the state storage read; storage
 * writes it only onto that same state (else it reads again and asks again).
 */
export interface Change {
  set: Partial<Omit<FindingDoc, "_id" | "org_id" | "fingerprint">>;
  events: FindingEvent[];
}

/** How many of the latest detection ids a finding keeps: far more than a redelivery can span. */
export const RECENT_DETECTIONS = 50;

/** How many of the scans that reopened a finding it keeps (a comparison asks about recent scans). */
export const RECENT_REGRESSIONS = 20;

/** Evidence is capped so a chatty response cannot push a finding towards the 16 MB document limit. */
export const EVIDENCE_MAX_CHARS = 64 * 1024;
const cap = (s: string) => (s.length > EVIDENCE_MAX_CHARS ? `${s.slice(0, EVIDENCE_MAX_CHARS)}\n[truncated]` : s);

/** The detection facts a later scan refreshes on a known finding. */
function detectionFields(d: DetectionFacts) {
  const cveIds = [...new Set(d.cve_ids.map((c) => c.trim()).filter(Boolean))];
  return {
    title: d.title,
    severity: d.severity,
    severity_rank: severityRank(d.severity),
    cvss_score: d.cvss_score,
    cvss_vector: d.cvss_vector,
    epss_score: d.epss_score,
    kev: d.kev,
    kev_due_date: d.kev_due_date ?? null,
    confidence: d.confidence ?? "",
    tool: d.tool,
    cve_ids: cveIds,
    cve_keys: cveIds.map((c) => c.toUpperCase()),
    ...searchFields({ title: d.title, affected_component: d.affected_component, cve_ids: cveIds, template_id: d.template_id }),
    cwe_ids: [...new Set(d.cwe_ids)],
    description: d.description,
    impact: d.impact,
    remediation: d.remediation,
    evidence: { request: cap(d.evidence.request), response: cap(d.evidence.response), screenshot_url: d.evidence.screenshot_url },
    frameworks: d.frameworks,
  };
}

/** A new finding: open, with the spec's first history entry (from null to open, by system). */
export function newFinding(d: DetectionFacts, fp: string, id: string, now: Date): { doc: FindingDoc; events: FindingEvent[] } {
  const doc: FindingDoc = {
    _id: id,
    org_id: d.org_id,
    fingerprint: fp,
    ...detectionFields(d),
    status: "open",
    target: d.target,
    affected_component: d.affected_component,
    template_id: d.template_id,
    scan_id: d.scan_id,
    scan_ids: [d.scan_id],
    detected_at: d.detected_at,
    last_seen_at: d.detected_at,
    detection_ids: [d.detection_id],
    comments: [],
    history: [{ action: "created", from: null, to: "open", user: SYSTEM, timestamp: now }],
    assignee: "",
    priority: "",
    due_date: null,
    notes: "",
    created_at: now,
    updated_at: now,
    resolved_at: null,
    resolution_minutes: null,
  };
  return { doc, events: foundEvents(doc) };
}

/** Fields that move with the status: resolution time is kept only while resolved. */
function statusFields(f: FindingDoc, to: Status, now: Date): Change["set"] {
  if (to === "resolved") {
    // A person's resolution names no kind; retests and auto-resolution set theirs after this.
    return { status: to, resolved_at: now, resolution_minutes: Math.max(0, Math.round((now.getTime() - f.detected_at.getTime()) / 60_000)), resolution: null };
  }
  return { status: to, resolved_at: null, resolution_minutes: null, resolution: null };
}

/**
 * A known finding seen again. A detection it has recorded already (a redelivery) is no change.
 * Open and in-progress findings record the scan and last_seen; a resolved one reopens (history
 * by system, status event); false_positive and accepted keep their status but record last_seen.
 */
export function applyDetection(f: FindingDoc, d: DetectionFacts, now: Date): Change | null {
  const seen = f.detection_ids ?? [];
  if (seen.includes(d.detection_id)) return null;
  const set: Change["set"] = {
    ...detectionFields(d),
    detection_ids: [...seen, d.detection_id].slice(-RECENT_DETECTIONS),
    last_seen_at: d.detected_at > f.last_seen_at ? d.detected_at : f.last_seen_at,
  };
  if (!f.scan_ids.includes(d.scan_id)) set.scan_ids = [...f.scan_ids, d.scan_id];
  const events: FindingEvent[] = [];
  if (f.status === "resolved") {
    Object.assign(set, statusFields(f, "open", now));
    set.regressed_in = [...(f.regressed_in ?? []), d.scan_id].slice(-RECENT_REGRESSIONS);
    set.history = [...f.history, { action: "reopened", from: "resolved", to: "open", user: SYSTEM, timestamp: now }];
    set.updated_at = now;
    events.push(...statusEvents({ ...f, ...set } as FindingDoc, "resolved", "open", SYSTEM, now));
  }
  return { set, events };
}

/** Several detections of one finding, in order, as one change (null when none changes it). */
export function applyDetections(f: FindingDoc, ds: DetectionFacts[], now: Date): Change | null {
  let current = f;
  const all: Change = { set: {}, events: [] };
  for (const d of ds) {
    const c = applyDetection(current, d, now);
    if (!c) continue;
    Object.assign(all.set, c.set);
    all.events.push(...c.events);
    current = { ...current, ...c.set };
  }
  return Object.keys(all.set).length > 0 ? all : null;
}

export interface FindingUpdate {
  status?: Status;
  /** "" unassigns. */
  assignee?: string;
  /** "" clears. */
  priority?: Priority | "";
  /** null clears. */
  due_date?: Date | null;
  /** "" clears. */
  notes?: string;
}

const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A triage change by a person (or API key): each field that really changes gets a history
 * entry with the actor's display name; a status change emits status_changed (and resolved).
 * Setting a field to the value it has is no change: no history, no event.
 */
export function applyUpdate(f: FindingDoc, u: FindingUpdate, actor: Actor | undefined, now: Date): Change | null {
  const user = actorName(actor);
  const history: HistoryEntry[] = [];
  const set: Change["set"] = {};
  const events: FindingEvent[] = [];
  const entry = (action: string, from: string | null, to: string) => history.push({ action, from, to, user, timestamp: now });

  if (u.status !== undefined && u.status !== f.status) {
    Object.assign(set, statusFields(f, u.status, now));
    entry("status_changed", f.status, u.status);
  }
  if (u.assignee !== undefined && u.assignee !== f.assignee) {
    set.assignee = u.assignee;
    entry("assignee_changed", f.assignee || null, u.assignee);
  }
  if (u.priority !== undefined && u.priority !== f.priority) {
    set.priority = u.priority;
    entry("priority_changed", f.priority || null, u.priority);
  }
  if (u.due_date !== undefined && isoOrNull(u.due_date) !== isoOrNull(f.due_date)) {
    set.due_date = u.due_date;
    entry("due_date_changed", isoOrNull(f.due_date), isoOrNull(u.due_date) ?? "");
  }
  if (u.notes !== undefined && u.notes !== f.notes) {
    set.notes = u.notes;
    entry("notes_changed", f.notes || null, u.notes);
  }
  if (history.length === 0) return null;
  set.history = [...f.history, ...history];
  set.updated_at = now;
  if (set.status !== undefined) events.push(...statusEvents({ ...f, ...set } as FindingDoc, f.status, set.status, user, now));
  return { set, events };
}

export const COMMENT_MAX_CHARS = 10_000;

/** A comment, with a `commented` history entry naming the comment. */
export function addComment(f: FindingDoc, comment: CommentDoc): Change {
  return {
    set: {
      comments: [...f.comments, comment],
      history: [...f.history, { action: "commented", from: null, to: comment.id, user: comment.user, timestamp: comment.created_at }],
      updated_at: comment.created_at,
    },
    events: [],
  };
}
