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
