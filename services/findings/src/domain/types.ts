/**
 * The findings domain in REST vocabulary: severities, statuses and priorities are the spec's
 * lowercase strings everywhere below the RPC mappers, so stored documents, exports and events
 * read the same as the API.
 */
export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export type Severity = (typeof SEVERITIES)[number];
/** How far a finding can be trusted without checking it by hand (proto Confidence); "" on findings stored before it existed. */
export const CONFIDENCES = ["confirmed", "version_match", "version_match_unverified_backport"] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export const STATUSES = ["open", "in_progress", "resolved", "false_positive", "accepted"] as const;
export type Status = (typeof STATUSES)[number];

/** DESIGN.md §3. */
export const PRIORITIES = ["critical", "high", "medium", "low"] as const;
export type Priority = (typeof PRIORITIES)[number];

export const SORT_FIELDS = ["severity", "created_at", "cvss_score", "due_date", "sla_state"] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export type SortOrder = "asc" | "desc";

/** 1 = critical … 5 = info (the proto enum numbers), so "most severe first" is ascending rank. */
export const severityRank = (s: Severity): number => SEVERITIES.indexOf(s) + 1;

export interface Remediation {
  summary: string;
  steps: string[];
  code_example: string;
  references: string[];
}

export interface Evidence {
  request: string;
  response: string;
  screenshot_url: string | null;
}

export interface FrameworkMapping {
  name: string;
  controls: string[];
}

export interface CommentDoc {
  id: string;
  user: string;
  user_id: string;
  text: string;
  created_at: Date;
}

export interface HistoryEntry {
  action: string;
  from: string | null;
  to: string;
  user: string;
  timestamp: Date;
}

/** The facts a scanner reports about one detection (proto Detection, validated). */
export interface DetectionFacts {
  detection_id: string;
  org_id: string;
  scan_id: string;
  target: string;
  template_id: string;
  title: string;
  severity: Severity;
  cvss_score: number;
  cvss_vector: string;
  cwe_ids: string[];
  cve_ids: string[];
  tool: string;
  affected_component: string;
  description: string;
  impact: string;
  remediation: Remediation;
  evidence: Evidence;
  frameworks: FrameworkMapping[];
  epss_score: number | null;
  kev: boolean;
  /** The earliest CISA KEV due date of its CVEs (absent from older scanners). */
  kev_due_date?: Date | null;
  /** Absent or "" when the scanner did not say (older scanners). */
  confidence?: Confidence | "";
  detected_at: Date;
}

/** One stored finding: one document per fingerprint. */
export interface FindingDoc {
  _id: string;
  org_id: string;
  /** sha256 of (org, target, template_id, affected_component); unique. */
  fingerprint: string;
  title: string;
  severity: Severity;
  severity_rank: number;
  status: Status;
  cvss_score: number;
  cvss_vector: string;
  epss_score: number | null;
  kev: boolean;
  /** Of the latest detection; absent on findings stored before it existed. */
  confidence?: Confidence | "";
  target: string;
  affected_component: string;
  tool: string;
  template_id: string;
  cve_ids: string[];
  /** Upper-cased cve_ids: the case-insensitive `cve` filter is an indexed equality. */
  cve_keys: string[];
  /** The `search` filter's fields (domain/search.ts); absent on findings stored before it until `npm run admin -- index-search`. */
  search_text?: string;
  search_keys?: string[];
  cwe_ids: string[];
  /** The scan that first detected it. */
  scan_id: string;
  /** Every scan that detected it (the scan-findings list and the scan_id filter). */
  scan_ids: string[];
  detected_at: Date;
  last_seen_at: Date;
  /** Scans whose detection reopened it from resolved (the latest few): the scan comparison's `regressed`. Absent on older findings. */
  regressed_in?: string[];
  /** The latest detections applied (at most RECENT_DETECTIONS), the first one included: a redelivered one changes nothing. */
  detection_ids: string[];
  description: string;
  impact: string;
  remediation: Remediation;
  evidence: Evidence;
  frameworks: FrameworkMapping[];
  comments: CommentDoc[];
  history: HistoryEntry[];
  assignee: string;
  priority: Priority | "";
  due_date: Date | null;
  notes: string;
  created_at: Date;
  updated_at: Date;
  /** Set while resolved: when it became resolved, and minutes from detection to then. */
  resolved_at: Date | null;
  resolution_minutes: number | null;
  /**
   * How it was resolved when the system resolved it: `verified_fixed` (a retest ran the check and it
   * no longer matched), `not_detected` (auto-resolution: a later scan covered the check and did not
   * match); null while not resolved or when a person resolved it. Absent on older findings.
   */
  resolution?: Resolution | null;
  /** SLA upkeep (domain/sla.ts); absent on findings stored before it, filled at their next change. */
  kev_due_date?: Date | null;
  due_source?: DueSource;
  due_sort?: Date;
  sla_at_risk_at?: Date;
  sla_breach_at?: Date;
  sla_breach_pending_at?: Date | null;
  sla_breach_announced?: Date | null;
  /** The latest risk acceptance (domain/acceptance.ts). */
  acceptance?: AcceptanceDoc | null;
  /** While accepted (approved): when the acceptance runs out; null otherwise. */
  accepted_until?: Date | null;
}

export type Resolution = "verified_fixed" | "not_detected";

/** Where a finding's due_date came from: a person (PATCH), the organization's SLA policy, CISA KEV, or none. */
export type DueSource = "user" | "policy" | "kev" | "";

export const ACCEPTANCE_STATES = ["pending", "approved", "rejected", "expired", "withdrawn"] as const;
export type AcceptanceState = (typeof ACCEPTANCE_STATES)[number];

export interface AcceptanceDoc {
  state: AcceptanceState;
  justification: string;
  expires_at: Date;
  requested_by: string;
  /** user id or API key id of who asked: the approver must be someone else. */
  requested_by_id: string;
  requested_at: Date;
  decided_by: string;
  decided_at: Date | null;
  decision_note: string;
}

/** Who makes a change, as the gateway authenticated them. */
export interface Actor {
  user_id: string;
  api_key_id: string;
  display_name: string;
}

export const SYSTEM = "system";

export function actorName(a: Actor | undefined): string {
  return a?.display_name || a?.user_id || a?.api_key_id || "unknown";
}
