import { zeroCounts, type FindingCounts, type PhaseName, type ScanTypeName } from "@vulnscan/scan-contract";
import type { Frequency } from "./schedule-time.js";

export const SCAN_STATUSES = ["pending", "running", "completed", "failed", "cancelled"] as const;
export type ScanStatusName = (typeof SCAN_STATUSES)[number];
export const TERMINAL_STATUSES: readonly ScanStatusName[] = ["completed", "failed", "cancelled"];
export const isTerminal = (s: ScanStatusName) => TERMINAL_STATUSES.includes(s);

/** Stored on the scan as the scanner reports them: the contract's per-severity counts. */
export type Counts = FindingCounts;
export { zeroCounts };
export const addCounts = (a: Counts, b: Counts): Counts => ({
  total: a.total + b.total,
  critical: a.critical + b.critical,
  high: a.high + b.high,
  medium: a.medium + b.medium,
  low: a.low + b.low,
  info: a.info + b.info,
});

export interface ActorRecord {
  user_id: string;
  api_key_id: string;
  display_name: string;
}

/**
 * A scan as stored. The request fields never change; the state fields change only through the
 * steps of transitions.ts, each write guarded by `version`, except the last report's
 * phase/current_tool/last_report_at, which the one consumer of the scan's reports records.
 */
/** Bucket counts of a scan against an earlier one of its target, as findings' diff counts them (issue 28). */
export interface ScanComparison {
  against_scan_id: string;
  new: number;
  fixed: number;
  regressed: number;
  unchanged: number;
  not_covered: number;
}

export interface ScanRecord {
  _id: string;
  org_id: string;
  target: string;
  scan_type: ScanTypeName;
  frameworks: string[];
  /** Normalized port list; empty = default common ports. */
  ports: string;
  /** Phases this scan runs, in order. */
  phases: PhaseName[];
  estimated_duration_seconds: number;
  schedule_id?: string;
  created_by?: ActorRecord;
  created_at: Date;
  /** created_at + the type's maximum duration; the scan fails when it passes. */
  deadline: Date;

  status: ScanStatusName;
  progress: number;
  phase: string;
  current_tool: string;
  started_at?: Date;
  completed_at?: Date;
  phases_completed: string[];
  phases_remaining: string[];
  counts: Counts;
  /** A completed scan against the target's previous completed scan (scan.completed's `comparison`). */
  comparison?: ScanComparison;
  error: string;
  attempt: number;
  /** When the current attempt was dispatched. */
  attempt_dispatched_at: Date;
  /** Last report of any kind (heartbeats included) of the current attempt. */
  last_report_at?: Date;
  /** Bumped by every transition: a write that expects another version lost to a concurrent one. */
  version: number;
}

/** A scan.* event, stored with the transition that caused it and published after (the outbox). */
export type ScanEvent =
  | { type: "scan.created" | "scan.started" | "scan.completed" | "scan.failed"; scan: ScanRecord }
  | { type: "scan.progress"; scan: ScanRecord; phase: PhaseName };

/** A record for the scanner, stored with its transition like events. */
export type ScanCommand =
  | { kind: "job"; scan: ScanRecord; attempt: number; phases: PhaseName[]; at: Date }
  | { kind: "cancellation"; scan: ScanRecord; at: Date };

export interface ScheduleRecord {
  _id: string;
  org_id: string;
  target: string;
  scan_type: ScanTypeName;
  frequency: Frequency;
  day_of_week?: number;
  day_of_month?: number;
  hour: number;
  timezone: string;
  frameworks: string[];
  ports: string;
  created_by?: ActorRecord;
  created_at: Date;
  next_run_at: Date;
  last_scan_id: string;
  last_run_at?: Date;
  /** Why the last run created no scan (quota, concurrency, policy); empty after a successful run. */
  last_error: string;
}

export interface Page<T> {
  items: T[];
  total: number;
}

export interface PageRequest {
  page: number;
  perPage: number;
}

/** Where a keyset page of scans starts: strictly after this scan in the newest-first order. */
export interface ScanAnchor {
  createdAt: Date;
  id: string;
}

/** A page of scans, and whether any scan follows it in the same order. */
export interface ScanPage extends Page<ScanRecord> {
  more: boolean;
}
