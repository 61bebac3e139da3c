import { validationError } from "@vulnscan/kit/core";

/** Framework ids a scan may map findings to (DESIGN.md §3). */
export const FRAMEWORK_IDS = ["soc2", "iso27001", "pci_dss", "hipaa", "gdpr", "nist_csf", "nist_800_53", "cis_controls"] as const;
export type FrameworkId = (typeof FRAMEWORK_IDS)[number];

/** Validates and de-duplicates (first occurrence kept); unknown ids are a VALIDATION_ERROR on `frameworks`. */
export function parseFrameworks(input: readonly string[]): FrameworkId[] {
  const out: FrameworkId[] = [];
  for (const raw of input) {
    const id = raw.trim();
    if (!(FRAMEWORK_IDS as readonly string[]).includes(id)) {
      throw validationError("frameworks", `Unknown framework "${raw}"; allowed: ${FRAMEWORK_IDS.join(", ")}`);
    }
    if (!out.includes(id as FrameworkId)) out.push(id as FrameworkId);
  }
  return out;
}
