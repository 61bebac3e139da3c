/*
 * Detections counted per severity: what the scanner reports after each phase
 * (scans.v1.FindingCounts) and what the orchestrator adds up and stores on the scan.
 */

export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export type SeverityName = (typeof SEVERITIES)[number];

export type FindingCounts = Record<"total" | SeverityName, number>;

export const zeroCounts = (): FindingCounts => ({ total: 0, critical: 0, high: 0, medium: 0, low: 0, info: 0 });
