import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ScanType } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { durationSeconds } from "./projection.js";
import { enumValue } from "@vulnscan/kit/enums";
import type { PhaseName } from "@vulnscan/scan-contract";
import type { ScanCommand, ScanEvent, ScanRecord } from "./types.js";

/*
 * The scan.* event payloads (vulnscan.events.v1, REST strings, no enums) and the scanner's
 * records, built from a scan as it is right after the transition they describe.
 */

export function scanCreatedEvent(scan: ScanRecord): ScanEvent {
  return {
    type: "scan.created",
    payload: {
      case: "scanCreated",
      value: {
        scanId: scan._id,
        target: scan.target,
        scanType: scan.scan_type,
        status: "pending",
        frameworks: scan.frameworks,
        ports: scan.ports,
        estimatedDurationSeconds: scan.estimated_duration_seconds,
        createdAt: timestampFromDate(scan.created_at),
        ...(scan.schedule_id ? { scheduleId: scan.schedule_id } : {}),
      },
    },
  };
}

export function scanStartedEvent(scan: ScanRecord): ScanEvent {
  return {
    type: "scan.started",
    payload: {
      case: "scanStarted",
      value: {
        scanId: scan._id,
        target: scan.target,
        scanType: scan.scan_type,
        status: "running",
        phases: scan.phases,
        startedAt: timestampFromDate(scan.started_at ?? scan.created_at),
      },
    },
  };
}

/** One per finished phase; `current_tool` is empty: the next phase has not started yet. */
export function scanProgressEvent(scan: ScanRecord, phase: string): ScanEvent {
  return {
    type: "scan.progress",
    payload: {
      case: "scanProgress",
      value: {
        scanId: scan._id,
        target: scan.target,
        status: "running",
        progress: scan.progress,
        phase,
        phasesCompleted: scan.phases_completed,
        phasesRemaining: scan.phases_remaining,
        currentTool: "",
      },
    },
  };
}

/** What both end events carry: the scan, its target and how long it ran. */
function endedFields(scan: ScanRecord) {
  return { scanId: scan._id, target: scan.target, durationSeconds: durationSeconds(scan, scan.completed_at ?? scan.created_at) };
}

/** Exactly the spec's data: scan_id, target, status, duration_seconds, findings (no info count). */
export function scanCompletedEvent(scan: ScanRecord): ScanEvent {
  const { total, critical, high, medium, low } = scan.counts;
  const value = { ...endedFields(scan), status: "completed", findings: { total, critical, high, medium, low } };
  return { type: "scan.completed", payload: { case: "scanCompleted", value } };
}

export function scanFailedEvent(scan: ScanRecord): ScanEvent {
  const value = { ...endedFields(scan), status: "failed", error: scan.error, phase: scan.started_at ? scan.phase : "" };
  return { type: "scan.failed", payload: { case: "scanFailed", value } };
}

export function jobCommand(scan: ScanRecord, attempt: number, phases: readonly PhaseName[], at: Date): ScanCommand {
  return {
    kind: "job",
    job: {
      scanId: scan._id,
      orgId: scan.org_id,
      target: scan.target,
      scanType: enumValue(ScanType, scan.scan_type),
      ports: scan.ports,
      frameworks: scan.frameworks,
      phases: [...phases],
      attempt,
      deadline: timestampFromDate(scan.deadline),
      createdAt: timestampFromDate(at),
    },
  };
}

export function cancellationCommand(scan: ScanRecord, at: Date): ScanCommand {
  return {
    kind: "cancellation",
    cancellation: { scanId: scan._id, orgId: scan.org_id, requestedAt: timestampFromDate(at) },
  };
}
