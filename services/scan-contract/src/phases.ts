/*
 * The phases each scan type runs, in order (DESIGN.md §3: the 11th phase of a full scan is
 * `compliance_mapping`, between `correlation` and `ai_analysis`). This module imports nothing;
 * the orchestrator dispatches, the scanner runs and the gateway documents these same lists.
 */

export const SCAN_TYPES = ["quick", "full", "compliance"] as const;
export type ScanTypeName = (typeof SCAN_TYPES)[number];

/** Every phase of a full scan, in order. */
export const FULL_PHASES = [
  "discovery",
  "enumeration",
  "vulnerability_scanning",
  "web_analysis",
  "cloud_analysis",
  "threat_intelligence",
  "correlation",
  "compliance_mapping",
  "ai_analysis",
  "remediation_planning",
  "reporting",
] as const;
export type PhaseName = (typeof FULL_PHASES)[number];

/** Top vulnerabilities on common ports: no cloud, correlation, compliance or AI phases. */
export const QUICK_PHASES: readonly PhaseName[] = ["discovery", "enumeration", "vulnerability_scanning", "web_analysis", "threat_intelligence", "reporting"];

/** Framework-specific checks: enough discovery to find the controls' evidence, then mapping. */
export const COMPLIANCE_PHASES: readonly PhaseName[] = [
  "discovery",
  "enumeration",
  "vulnerability_scanning",
  "web_analysis",
  "compliance_mapping",
  "remediation_planning",
  "reporting",
];

export const PHASES_BY_TYPE: Readonly<Record<ScanTypeName, readonly PhaseName[]>> = {
  quick: QUICK_PHASES,
  full: FULL_PHASES,
  compliance: COMPLIANCE_PHASES,
};

/** `phase` of a scan once it completed. */
export const COMPLETE_PHASE = "complete";

export function phasesFor(type: ScanTypeName): PhaseName[] {
  return [...PHASES_BY_TYPE[type]];
}

export function isPhaseName(name: string): name is PhaseName {
  return (FULL_PHASES as readonly string[]).includes(name);
}
