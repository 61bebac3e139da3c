import { create, toBinary } from "@bufbuild/protobuf";
import { outboxFields, outboxIndexes, Topics, type IndexSpec, type PendingMessage } from "@vulnscan/kit";
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
  const id = `cmd_${randomUUID()}`;
  if (command.kind === "job") {
    const msg = create(ScanJobSchema, command.job);
    return {
      id,
      topic: Topics.scanJobs,
      key: msg.scanId,
      message_type: ScanJobSchema.typeName,
      value: new Binary(toBinary(ScanJobSchema, msg)),
      created_at: at,
    };
  }
  const msg = create(ScanCancellationSchema, command.cancellation);
  return {
    id,
    topic: Topics.scanCancellations,
    key: msg.scanId,
    message_type: ScanCancellationSchema.typeName,
    value: new Binary(toBinary(ScanCancellationSchema, msg)),
    created_at: at,
  };
}

export const commandFields = (commands: PendingMessage[]) => outboxFields(commands, COMMANDS_FIELD);

export const commandOutboxIndexes = (collection: string): IndexSpec[] => outboxIndexes(collection, COMMANDS_FIELD);
