// Response shapes of the public API the console reads (gateway/src/routes/*/schemas.ts).

export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export const FINDING_STATUSES = ["open", "in_progress", "resolved", "false_positive", "accepted"] as const;
/** How far a finding can be trusted without checking it by hand (gateway/src/routes/findings/resources.ts). */
export const CONFIDENCES = ["confirmed", "version_match", "version_match_unverified_backport"] as const;
export const PRIORITIES = ["critical", "high", "medium", "low"] as const;
export const SCAN_STATUSES = ["pending", "running", "completed", "failed", "cancelled"] as const;
export const SCAN_TYPES = ["quick", "full", "compliance"] as const;
export const FRAMEWORKS = ["soc2", "iso27001", "pci_dss", "hipaa", "gdpr", "nist_csf", "nist_800_53", "cis_controls"] as const;
export const PERMISSIONS = ["read:scans", "write:scans", "read:findings", "write:findings", "read:grc", "write:grc"] as const;
export const WEBHOOK_EVENTS = [
  "scan.created",
  "scan.started",
  "scan.progress",
  "scan.completed",
  "scan.failed",
  "vulnerability.found",
  "vulnerability.critical",
  "vulnerability.high",
  "vulnerability.status_changed",
  "vulnerability.resolved",
  "control.status_changed",
  "evidence.uploaded",
  "evidence.expiring",
  "framework.score_changed",
  "audit.request_created",
  "quarantine.threat_detected",
  "user.login_failed",
  "user.mfa_disabled",
] as const;

export type Severity = (typeof SEVERITIES)[number];
export type FindingStatus = (typeof FINDING_STATUSES)[number];

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
  next_cursor?: string | null;
}

export interface Scan {
  id: string;
  target: string;
  scan_type: string;
  status: string;
  progress: number;
  phase: string;
  created_at: string;
  completed_at?: string;
  vulnerabilities_found: number;
  critical_count: number;
  high_count: number;
  medium_count: number;
  low_count: number;
}

export interface ScanDetail extends Scan {
  current_tool: string;
  started_at?: string;
  phases_completed: string[];
  phases_remaining: string[];
  info_count?: number;
  frameworks?: string[];
  ports?: string;
  estimated_duration?: number;
  error?: string;
}

export interface Quota {
  plan: string;
  monthly_limit: number | null;
  used_this_month: number;
  remaining: number | null;
  resets_at: string;
  unlimited?: boolean;
}

export interface Finding {
  id: string;
  title: string;
  severity: Severity;
  status: FindingStatus;
  cvss_score: number;
  epss_score: number | null;
  target: string;
  affected_component: string;
  tool: string;
  template_id: string;
  cve_ids: string[];
  cwe_ids: string[];
  scan_id: string;
  detected_at: string;
  frameworks: string[];
  /** null for findings stored before the scanner reported it. */
  confidence: (typeof CONFIDENCES)[number] | null;
}

export interface FindingDetail extends Omit<Finding, "frameworks"> {
  frameworks: { name: string; controls: string[] }[];
  cvss_vector: string;
  kev?: boolean;
  description: string;
  impact: string;
  remediation: { summary: string; steps: string[]; code_example: string; references: string[] };
  evidence: { request: string; response: string; screenshot_url: string | null };
  comments: { id: string; user: string; text: string; created_at: string }[];
  history: { action: string; from: string | null; to: string; user: string; timestamp: string }[];
  assignee?: string;
  priority?: string | null;
  due_date?: string | null;
  notes?: string;
}

/** GET /api/v1/findings/stats: counts per severity, status and tool, and the week's movement. */
export type Stats = { total: number; trends: Trends } & {
  [K in "by_severity" | "by_status" | "by_tool"]: Record<K extends "by_severity" ? Severity : K extends "by_status" ? FindingStatus : string, number>;
};

export interface Trends {
  new_this_week: number;
  resolved_this_week: number;
  average_resolution_days: number;
}

export interface AiAnalysis {
  finding_id: string;
  ai_analysis: {
    risk_assessment: string;
    attack_scenarios: string[];
    remediation_priority: string;
    recommended_actions: string[];
    automation_available: boolean;
    ansible_playbook_id: string;
    /** The one category the finding was classified in. */
    category: string;
    /** Which path wrote it: the built-in rules, the model, or the rules after the model's answer was refused. */
    source: "builtin" | "model" | "builtin_fallback";
    source_detail: string;
  };
  ai_credits_used: number;
  ai_credits_remaining?: number;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  permissions: string[];
  created_at: string;
  expires_at?: string | null;
  last_used_at?: string | null;
  revoked: boolean;
  key?: string;
}

export interface Session {
  id: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  ip: string;
  user_agent: string;
  current: boolean;
}

export interface Webhook {
  id: string;
  name: string;
  url: string;
  events: string[];
  active: boolean;
  created_at: string;
  updated_at?: string;
  has_secret: boolean;
  /** Why the dispatcher disabled it (failures for days); absent otherwise. */
  disabled_reason?: string;
}

export const DELIVERY_STATUSES = ["pending", "success", "failed"] as const;

export interface Delivery {
  id: string;
  event: string;
  status: (typeof DELIVERY_STATUSES)[number];
  response_code: number;
  response_time_ms: number;
  attempts: number;
  error?: string;
  created_at: string;
  delivered_at?: string;
  next_retry?: string;
  deferred_until?: string;
}

/** POST /api/v1/webhooks/{id}/test: one synchronous attempt. */
export interface WebhookTest {
  delivery_id: string;
  status: "success" | "failed";
  response_code: number;
  response_time_ms: number;
  error?: string;
}

export const CONTROL_STATUSES = ["not_started", "in_progress", "implemented", "not_applicable", "failing"] as const;
/** `failing` follows open critical/high findings; people set only these. */
export const SETTABLE_CONTROL_STATUSES = ["not_started", "in_progress", "implemented", "not_applicable"] as const;

export interface Control {
  id: string;
  name: string;
  /** What the control asks for, written by us; "" when not written yet. */
  requirement?: string;
  status: (typeof CONTROL_STATUSES)[number];
  frameworks: string[];
  evidence_count: number;
  framework_refs?: { framework: string; control_ref: string }[];
  owner?: string | null;
  last_tested_at?: string | null;
  open_finding_count?: number;
}

export interface ControlDetail extends Control {
  set_status?: (typeof SETTABLE_CONTROL_STATUSES)[number];
  notes?: string;
  /** Open critical/high findings that make it failing. */
  finding_ids?: string[];
  updated_at?: string | null;
}

export interface FrameworkScore {
  id: string;
  name: string;
  score: number;
  controls_total: number;
  controls_implemented?: number;
  controls_failing?: number;
  controls_in_progress?: number;
  controls_not_started?: number;
  controls_not_applicable?: number;
}

export interface Evidence {
  id: string;
  control_id: string;
  name: string;
  title?: string;
  description?: string;
  content_type?: string;
  size_bytes: number;
  sha256: string;
  status: "clean" | "quarantined" | "pending_scan" | "expired";
  threat?: string | null;
  source?: "upload" | "scan";
  uploaded_by?: string;
  uploaded_at: string;
  expires_at?: string | null;
}
