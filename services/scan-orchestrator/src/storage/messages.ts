import { create, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { outboxFieldTypes, outboxFields, outboxIndexes, Topics, type FieldTypes, type IndexSpec, type PendingMessage } from "@vulnscan/kit";
import { ScanCancellationSchema, ScanJobSchema } from "@vulnscan/proto/vulnscan/scans/v1/jobs_pb.js";
import { Binary } from "mongodb";
import { randomUUID } from "node:crypto";
import type { ScanCommand } from "../domain/types.js";

/*
 * Records for the scanner (ScanJob, ScanCancellation) are not EventEnvelopes, so they travel
 * in a second outbox of the same document, `commands` (the kit's Outbox with that field),
 * written in the same single-document write as the state change and published after it
 * exactly like events. The scanner drops an attempt it has seen, so publishing twice is harmless.
 */
export const COMMANDS_FIELD = "commands";

export function pendingCommand(command: ScanCommand, at = new Date()): PendingMessage {
  if (command.kind === "job") {
    const job = create(ScanJobSchema, command.job);
    return pendingMessage(ScanJobSchema, job, Topics.scanJobs, job.scanId, at);
  }
  const cancellation = create(ScanCancellationSchema, command.cancellation);
  return pendingMessage(ScanCancellationSchema, cancellation, Topics.scanCancellations, cancellation.scanId, at);
}

/** One record for the scanner, keyed by its scan so a scan's records stay in order. */
function pendingMessage<S extends DescMessage>(schema: S, msg: MessageShape<S>, topic: string, key: string, at: Date): PendingMessage {
  return {
    id: `cmd_${randomUUID()}`,
    topic,
    key,
    message_type: schema.typeName,
    value: new Binary(toBinary(schema, msg)),
    created_at: at,
  };
}

export const commandFields = (commands: PendingMessage[]) => outboxFields(commands, COMMANDS_FIELD);

export const commandOutboxIndexes = (collection: string): IndexSpec[] => outboxIndexes(collection, COMMANDS_FIELD);

export const commandOutboxFieldTypes = (collection: string): FieldTypes => outboxFieldTypes(collection, COMMANDS_FIELD);
