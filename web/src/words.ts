// People's words for the values the API answers in its own spelling (ids, enums). Every page
// shows them through this module, so "soc2" reads "SOC 2" everywhere it appears.

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
export const choices = (values: readonly string[], words: (v: string) => string) => values.map((v) => [v, words(v)] as const);

/** A control's status (GET /api/v1/controls). */
export const CONTROL_STATUS_WORDS: Record<string, string> = {
  not_started: "Not started",
  in_progress: "In progress",
  implemented: "Implemented",
  not_applicable: "Not applicable",
  failing: "Failing",
};

export const controlStatusWords = (status: string) => CONTROL_STATUS_WORDS[status] ?? fallback(status);

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
