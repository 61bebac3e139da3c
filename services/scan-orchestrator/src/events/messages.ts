import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { enumValue, pendingEvent, Topics, type EnvelopeInit, type PendingEvent, type PendingMessage } from "@vulnscan/kit";
import { ScanCancellationSchema, ScanJobSchema } from "@vulnscan/proto/vulnscan/scans/v1/jobs_pb.js";
import { ScanType } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { Binary } from "mongodb";
import { randomUUID } from "node:crypto";
import { durationSeconds } from "../domain/transitions.js";
import type { ScanCommand, ScanEvent, ScanRecord } from "../domain/types.js";

/*
 * The domain's scan.* events and scanner records as they travel: event payloads of
 * vulnscan.events.v1 (REST strings, no enums) and the scanner's ScanJob / ScanCancellation.
 */

/** What both end events carry: the scan, its target and how long it ran. */
function endedFields(scan: ScanRecord) {
  return { scanId: scan._id, target: scan.target, durationSeconds: durationSeconds(scan, scan.completed_at ?? scan.created_at) };
}

export function eventPayload(e: ScanEvent): EnvelopeInit["payload"] {
  const { scan } = e;
  switch (e.type) {
    case "scan.created":
      return {
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
      };
    case "scan.started":
      return {
        case: "scanStarted",
        value: {
          scanId: scan._id,
          target: scan.target,
          scanType: scan.scan_type,
          status: "running",
          phases: scan.phases,
          startedAt: timestampFromDate(scan.started_at ?? scan.created_at),
        },
      };
    // One per finished phase; `current_tool` is empty: the next phase has not started yet.
    case "scan.progress":
      return {
        case: "scanProgress",
        value: {
          scanId: scan._id,
          target: scan.target,
          status: "running",
          progress: scan.progress,
          phase: e.phase,
          phasesCompleted: scan.phases_completed,
          phasesRemaining: scan.phases_remaining,
          currentTool: "",
        },
      };
    // Exactly the spec's data: scan_id, target, status, duration_seconds, findings (no info count).
    // The comparison with the target's previous completed scan is an addition (issue 28), when known.
    case "scan.completed": {
      const { total, critical, high, medium, low } = scan.counts;
      const c = scan.comparison;
      const comparison = c
        ? { againstScanId: c.against_scan_id, new: c.new, fixed: c.fixed, regressed: c.regressed, unchanged: c.unchanged, notCovered: c.not_covered }
        : undefined;
      return {
        case: "scanCompleted",
        value: { ...endedFields(scan), status: "completed", findings: { total, critical, high, medium, low }, ...(comparison ? { comparison } : {}) },
      };
    }
    case "scan.failed":
      return { case: "scanFailed", value: { ...endedFields(scan), status: "failed", error: scan.error, phase: scan.started_at ? scan.phase : "" } };
  }
}

export type CommandInit =
  | { kind: "job"; job: MessageInitShape<typeof ScanJobSchema> }
  | { kind: "cancellation"; cancellation: MessageInitShape<typeof ScanCancellationSchema> };

export function commandInit(c: ScanCommand): CommandInit {
  const { scan } = c;
  if (c.kind === "cancellation") return { kind: "cancellation", cancellation: { scanId: scan._id, orgId: scan.org_id, requestedAt: timestampFromDate(c.at) } };
  return {
    kind: "job",
    job: {
      scanId: scan._id,
      orgId: scan.org_id,
      target: scan.target,
      scanType: enumValue(ScanType, scan.scan_type),
      ports: scan.ports,
      frameworks: scan.frameworks,
      phases: [...c.phases],
      attempt: c.attempt,
      deadline: timestampFromDate(scan.deadline),
      createdAt: timestampFromDate(c.at),
    },
  };
}

/*
 * Records for the scanner are not EventEnvelopes, so they travel in a second outbox of the same
 * document, `commands` (the kit's Outbox with that field), written in the same single-document
 * write as the state change and published after it exactly like events. The scanner drops an
 * attempt it has seen, so publishing twice is harmless.
 */
export const COMMANDS_FIELD = "commands";

/** Events of a scan, keyed by it so its events stay in order. */
export const pendingEvents = (events: ScanEvent[], at: Date): PendingEvent[] =>
  events.map((e) => pendingEvent(Topics.scanEvents, e.scan._id, { type: e.type, orgId: e.scan.org_id, payload: eventPayload(e) }, at));

/** Records for the scanner, keyed by their scan. */
export const pendingCommands = (commands: ScanCommand[], at: Date): PendingMessage[] =>
  commands.map((c) => {
    const init = commandInit(c);
    const [schema, topic, bytes] =
      init.kind === "job"
        ? [ScanJobSchema, Topics.scanJobs, toBinary(ScanJobSchema, create(ScanJobSchema, init.job))]
        : [ScanCancellationSchema, Topics.scanCancellations, toBinary(ScanCancellationSchema, create(ScanCancellationSchema, init.cancellation))];
    return { id: `cmd_${randomUUID()}`, topic, key: c.scan._id, message_type: schema.typeName, value: new Binary(bytes), created_at: at };
  });
