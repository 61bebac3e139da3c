// People's words for the values the API answers in its own spelling (ids, enums, timestamps).
// Every page shows them through this module, so "soc2" reads "SOC 2", "in_progress" "In progress"
// and a timestamp a date in the reader's own locale, wherever they appear.

/** The frameworks' short names (GET /api/v1/frameworks has the long ones with their versions). */
export const FRAMEWORK_NAMES: Record<string, string> = {
  soc2: "SOC 2",
  iso27001: "ISO 27001",
  pci_dss: "PCI DSS",
  hipaa: "HIPAA",
  gdpr: "GDPR",
  nist_csf: "NIST CSF",
  nist_800_53: "NIST SP 800-53",
  cis_controls: "CIS Controls",
};

/** A value the console has no words for: underscores become spaces, so it still reads. */
const fallback = (value: string) => value.replace(/_/g, " ");

export const frameworkName = (id: string) => FRAMEWORK_NAMES[id] ?? fallback(id);

/** "1 finding", "2 findings", "0 findings": a count with its noun (regular plurals, or the one given). */
export const count = (n: number, noun: string, plural = `${noun}s`) => `${n.toLocaleString()} ${n === 1 ? noun : plural}`;

/** Options for a select of enum values: the value sent to the API, the words shown. */
export const choices = (values: readonly string[], wordsOf: (v: string) => string) => values.map((v) => [v, wordsOf(v)] as const);

/** A control's status (GET /api/v1/controls). */
export const CONTROL_STATUS_WORDS: Record<string, string> = {
  not_started: "Not started",
  in_progress: "In progress",
  implemented: "Implemented",
  not_applicable: "Not applicable",
  failing: "Failing",
};

export const controlStatusWords = (status: string) => words("controlStatus", status);

interface SeverityCounts {
  vulnerabilities_found: number;
  critical_count: number;
  high_count: number;
  medium_count: number;
  low_count: number;
  info_count?: number | undefined;
}

/**
 * "1 finding: 1 high", "45 findings: 2 critical, 5 high, 3 medium, 30 low, 5 info": every
 * severity with a count, so the parts add up to the total (info included; the list of scans has no
 * info count, the scan's own page has).
 */
export function scanSummary(s: SeverityCounts): string {
  const parts: [number, string][] = [
    [s.critical_count, "critical"],
    [s.high_count, "high"],
    [s.medium_count, "medium"],
    [s.low_count, "low"],
    [s.info_count ?? s.vulnerabilities_found - s.critical_count - s.high_count - s.medium_count - s.low_count, "info"],
  ];
  const shown = parts.filter(([n]) => n > 0).map(([n, sev]) => `${n.toLocaleString()} ${sev}`);
  return `${count(s.vulnerabilities_found, "finding")}${shown.length ? `: ${shown.join(", ")}` : ""}`;
}

/** Words for each enum the console shows, by the API's value. */
const WORDS = {
  severity: { critical: "Critical", high: "High", medium: "Medium", low: "Low", info: "Info" },
  findingStatus: { open: "Open", in_progress: "In progress", resolved: "Resolved", false_positive: "False positive", accepted: "Risk accepted" },
  priority: { critical: "Critical", high: "High", medium: "Medium", low: "Low" },
  confidence: {
    confirmed: "Confirmed",
    version_match: "Version match",
    version_match_unverified_backport: "Version match, backport not ruled out",
  },
  scanStatus: { pending: "Pending", running: "Running", completed: "Completed", failed: "Failed", cancelled: "Cancelled" },
  scanType: { quick: "Quick", full: "Full", compliance: "Compliance" },
  phase: {
    discovery: "Discovering hosts",
    enumeration: "Finding services",
    vulnerability_scanning: "Checking for vulnerabilities",
    web_analysis: "Analysing web applications",
    cloud_analysis: "Analysing cloud configuration",
    threat_intelligence: "Checking threat intelligence",
    correlation: "Correlating findings",
    compliance_mapping: "Mapping to compliance controls",
    ai_analysis: "Writing the AI analysis",
    remediation_planning: "Planning remediation",
    reporting: "Writing the report",
    complete: "Finished",
  },
  controlStatus: CONTROL_STATUS_WORDS,
  evidenceStatus: { clean: "Clean", quarantined: "Quarantined", pending_scan: "Waiting for the malware check", expired: "Expired" },
  retestVerdict: { fixed: "Fixed", still_vulnerable: "Still vulnerable", inconclusive: "Inconclusive" },
  retestReason: { unreachable: "host unreachable", timeout: "no answer in time", refused: "connection refused" },
  deliveryStatus: { pending: "Pending", success: "Delivered", failed: "Failed" },
  webhookState: { active: "Active", disabled: "Disabled" },
  plan: { startup: "Startup", professional: "Professional", enterprise: "Enterprise" },
  permission: {
    "read:scans": "Read scans",
    "write:scans": "Start and cancel scans",
    "read:findings": "Read findings",
    "write:findings": "Triage findings",
    "read:grc": "Read compliance",
    "write:grc": "Change compliance",
  },
  historyAction: {
    created: "Created",
    reopened: "Reopened",
    commented: "Commented",
    status_changed: "Status",
    assignee_changed: "Assignee",
    priority_changed: "Priority",
    due_date_changed: "Due date",
    notes_changed: "Notes",
    // Risk acceptance (issue 28): the value is the day it runs until.
    acceptance_requested: "Acceptance asked for, until",
    acceptance_set: "Accepted until",
    acceptance_approved: "Acceptance approved, until",
    acceptance_rejected: "Acceptance rejected (asked until)",
    acceptance_expired: "Acceptance expired",
  },
} satisfies Record<string, Record<string, string>>;

export type WordKind = keyof typeof WORDS;

/** The words for `value` of the given kind; a value without words still reads (underscores as spaces). */
export function words(kind: WordKind, value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  return (WORDS[kind] as Record<string, string>)[value] ?? fallback(value);
}

/** A timestamp as a date and time in the reader's locale and time zone; "—" when there is none. */
export function when(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** A date (a due date, an expiry day) in the reader's locale, without the time. */
export function day(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString(undefined, { dateStyle: "medium", timeZone: "UTC" });
}

/** One line of a finding's history in words: "Status: Open → In progress", "Commented". */
export function historyLine(h: { action: string; from: string | null; to: string }): string {
  const value = (v: string | null) => {
    if (!v) return "none";
    if (h.action === "status_changed" || h.action === "reopened" || h.action === "created") return words("findingStatus", v);
    if (h.action === "priority_changed") return words("priority", v);
    if (h.action === "due_date_changed") return day(v);
    if (h.action === "acceptance_expired") return words("findingStatus", v);
    if (h.action.startsWith("acceptance_")) return day(v);
    return v;
  };
  if (h.action === "commented") return "Commented";
  if (h.action === "created") return `Created as ${value(h.to)}`;
  if (h.action === "reopened") return `Reopened: ${value(h.from)} → ${value(h.to)}`;
  // An acceptance names one day (its expiry): "Accepted until: 4 Jan 2027".
  if (h.action.startsWith("acceptance_") && h.action !== "acceptance_expired" && !h.from) return `${words("historyAction", h.action)}: ${value(h.to)}`;
  return `${words("historyAction", h.action)}: ${value(h.from)} → ${value(h.to)}`;
}

/** Options for a select of one kind of enum: `optionsOf("findingStatus", FINDING_STATUSES)`. */
export const optionsOf = (kind: WordKind, values: readonly string[]) => choices(values, (v) => words(kind, v));
