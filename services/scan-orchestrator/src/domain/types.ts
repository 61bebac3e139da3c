import type { MessageInitShape } from "@bufbuild/protobuf";
import type { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import type { ScanCancellationSchema, ScanJobSchema } from "@vulnscan/proto/vulnscan/scans/v1/jobs_pb.js";
import type { Frequency } from "./schedule-time.js";
import { zeroCounts, type FindingCounts, type PhaseName, type ScanTypeName } from "@vulnscan/scan-contract";

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
 * A scan as stored. The request fields never change; the progress fields are a projection of
 * the scan's transitions (see projection.ts) plus the volatile phase/current_tool/last report.
 */
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
  error: string;
  attempt: number;
  /** When the current attempt was dispatched. */
  attempt_dispatched_at: Date;
  /** Last report of any kind (heartbeats included) of the current attempt. */
  last_report_at?: Date;
}

/*
 * Transitions are the facts that must happen once: each is a document inserted under a unique
 * id (`<scan_id>:<what>`), which is atomic even where updates are not (FerretDB v1). Whoever
 * inserts it performed the transition and owns its events; the scan document is re-projected
 * from all of them afterwards, so a lost or stale projection heals on the next write or read.
 */
interface TransitionBase {
  _id: string;
  scan_id: string;
  org_id: string;
  at: Date;
}
export type Transition =
  | (TransitionBase & { kind: "started"; attempt: number })
  | (TransitionBase & { kind: "phase"; attempt: number; phase: PhaseName; progress: number; counts: Counts })
  | (TransitionBase & { kind: "attempt"; attempt: number; phases: PhaseName[]; reason: string })
  | (TransitionBase & {
      kind: "terminal";
      status: "completed" | "failed" | "cancelled";
      error: string;
      /** Phase the scan was in when it ended. */
      phase: string;
    });

export const transitionId = {
  started: (scanId: string) => `${scanId}:started`,
  phase: (scanId: string, phase: string) => `${scanId}:phase:${phase}`,
  attempt: (scanId: string, attempt: number) => `${scanId}:attempt:${attempt}`,
  terminal: (scanId: string) => `${scanId}:terminal`,
};

/** A scan.* event, stored with the state change and published after (kit outbox). */
export interface ScanEvent {
  type: string;
  payload: MessageInitShape<typeof EventEnvelopeSchema>["payload"];
}

/** A record for the scanner, stored with the state change like events. */
export type ScanCommand =
  | { kind: "job"; job: MessageInitShape<typeof ScanJobSchema> }
  | { kind: "cancellation"; cancellation: MessageInitShape<typeof ScanCancellationSchema> };

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
