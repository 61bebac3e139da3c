import type { FrameworkId } from "@vulnscan/compliance-catalogue";

/** Statuses people set (UpdateControl). */
export const SET_STATUSES = ["not_started", "in_progress", "implemented", "not_applicable"] as const;
export type SetStatus = (typeof SET_STATUSES)[number];
/** What a control shows: the status set by people, or `failing` while open critical/high findings map to it. */
export const CONTROL_STATUSES = [...SET_STATUSES, "failing"] as const;
export type ControlStatus = (typeof CONTROL_STATUSES)[number];

/** Severities that make a mapped control failing. */
export const FAILING_SEVERITIES = ["critical", "high"] as const;
/** Finding statuses that still count against a control. */
export const OPEN_FINDING_STATUSES = ["open", "in_progress"] as const;

/** What people changed on a control (the catalogue gives the rest). Absent: never changed. */
export interface ControlOverride {
  _id: string;
  org_id: string;
  key: string;
  set_status?: SetStatus;
  owner?: string;
  notes?: string;
  updated_at?: Date;
  last_tested_at?: Date;
}

/** A finding mapped to controls, remembered from vulnerability.found; `open` follows its status. */
export interface FindingLink {
  _id: string;
  org_id: string;
  finding_id: string;
  severity: string;
  control_ids: string[];
  open: boolean;
  updated_at: Date;
}

/** One control of an organization as shown: the catalogue entry with the organization's state. */
export interface ControlView {
  id: string;
  key: string;
  framework: FrameworkId;
  ref: string;
  name: string;
  /** What the control asks for, in our words (the catalogue's); "" when not written yet. */
  requirement: string;
  setStatus: SetStatus;
  status: ControlStatus;
  owner: string;
  notes: string;
  evidenceCount: number;
  findingIds: string[];
  openFindingCount: number;
  lastTestedAt?: Date;
  updatedAt?: Date;
}

export interface FrameworkScore {
  id: FrameworkId;
  name: string;
  /** 0–100, one decimal: implemented / (controls − not_applicable). */
  score: number;
  total: number;
  implemented: number;
  failing: number;
  notApplicable: number;
  inProgress: number;
  notStarted: number;
}

export const EVIDENCE_STATUSES = ["clean", "quarantined", "pending_scan", "expired"] as const;
export type EvidenceStatus = (typeof EVIDENCE_STATUSES)[number];

export interface EvidenceDoc {
  _id: string;
  org_id: string;
  control_id: string;
  control_ids: string[];
  name: string;
  title: string;
  description: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  status: EvidenceStatus;
  threat: string;
  /** `retest`: a verified fix (scan_id holds the retest id). */
  source: "upload" | "scan" | "retest";
  scan_id: string;
  uploaded_by: string;
  uploaded_at: Date;
  expires_at: Date | null;
  observed_from: Date | null;
  observed_to: Date | null;
  /** Set once evidence.expiring was emitted for it. */
  expiring_notified: boolean;
  /** The file in GridFS. */
  file_id: string;
}

export const AUDIT_STATUSES = ["open", "in_progress", "closed"] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

export interface AuditDoc {
  _id: string;
  org_id: string;
  framework: FrameworkId;
  control_ids: string[];
  title: string;
  description: string;
  status: AuditStatus;
  requested_by: string;
  due_date: Date | null;
  created_at: Date;
  answer: string;
  answered_by: string;
  answered_at: Date | null;
  evidence_ids: string[];
}

/** A compliance scan seen at scan.created, waiting for its scan.completed. */
export interface ComplianceScanDoc {
  _id: string;
  org_id: string;
  target: string;
  frameworks: string[];
  created_at: Date;
}

/** Statuses and scores last published for an organization: what events are diffed against. */
export interface PublishedState {
  version: string;
  statuses: Record<string, ControlStatus>;
  scores: Record<string, number>;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
}

/**
 * What grc announces (vulnscan.grc.events), as the domain sees it: each is stored with the state
 * change it describes and published after it (events/envelopes.ts maps them to their payloads).
 */
export type GrcEvent =
  | { type: "control.status_changed"; orgId: string; control: ControlView; from: ControlStatus; user: string }
  | { type: "framework.score_changed"; orgId: string; score: FrameworkScore; previousScore: number }
  | { type: "evidence.uploaded"; evidence: EvidenceDoc }
  | { type: "evidence.expiring"; evidence: EvidenceDoc; daysRemaining: number }
  | { type: "quarantine.threat_detected"; evidence: EvidenceDoc; threat: string; detectedAt: Date }
  | { type: "audit.request_created"; audit: AuditDoc };
