import { create, toBinary } from "@bufbuild/protobuf";
import type { IndexSpec, KafkaBus, Logger } from "@vulnscan/kit";
import { Topics } from "@vulnscan/kit";
import { ScanCancellationSchema, ScanJobSchema } from "@vulnscan/proto/vulnscan/scans/v1/jobs_pb.js";
import { Binary, type Db, type Document } from "mongodb";
import { randomUUID } from "node:crypto";
import type { ScanCommand } from "../domain/types.js";

/*
 * The kit's outbox carries EventEnvelopes only. Records for the scanner (ScanJob,
 * ScanCancellation) are not envelopes, so they travel in a second array of the same document,
 * `commands`, written in the same single-document write as the state change and published
 * after it exactly like events: "stored before published", relayed after a crash. The scanner
 * drops an attempt it has seen, so publishing twice is harmless.
 */

export interface PendingCommand {
  id: string;
  topic: string;
  key: string;
  /** Protobuf type name, for the `message-type` header. */
  type: string;
  value: Binary;
  created_at: Date;
}

export function pendingCommand(command: ScanCommand, at = new Date()): PendingCommand {
  const id = `cmd_${randomUUID()}`;
  if (command.kind === "job") {
    const msg = create(ScanJobSchema, command.job);
    return { id, topic: Topics.scanJobs, key: msg.scanId, type: ScanJobSchema.typeName, value: new Binary(toBinary(ScanJobSchema, msg)), created_at: at };
  }
  const msg = create(ScanCancellationSchema, command.cancellation);
  return {
    id,
    topic: Topics.scanCancellations,
    key: msg.scanId,
    type: ScanCancellationSchema.typeName,
    value: new Binary(toBinary(ScanCancellationSchema, msg)),
    created_at: at,
  };
}

export function commandFields(commands: PendingCommand[]): { commands: PendingCommand[]; commands_pending: boolean } {
  return { commands, commands_pending: commands.length > 0 };
}

export const commandOutboxIndexes = (collection: string): IndexSpec[] => [
  { collection, key: { commands_pending: 1 }, options: { name: "commands_pending" } },
];

export class CommandOutbox {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly kafka: KafkaBus,
    private readonly logger: Logger,
    private readonly collections: string[],
    private readonly intervalMs = 2000,
  ) {}

  /** Publishes a document's pending commands (only those stored before `olderThan`, when given). */
  async flush(collection: string, docId: unknown, olderThan?: Date): Promise<void> {
    const coll = this.db.collection(collection);
    const doc = await coll.findOne({ _id: docId } as Document, { projection: { commands: 1 } });
    const all = (doc?.commands ?? []) as PendingCommand[];
    const commands = olderThan ? all.filter((c) => c.created_at < olderThan) : all;
    if (commands.length === 0) return;
    for (const c of commands) {
      await this.kafka.publishRaw(c.topic, c.key, Buffer.from(c.value.buffer), c.type);
      // Whole-value $pull: FerretDB v1 matches $pull by equality only (see the kit's outbox).
      await coll.updateOne({ _id: docId } as Document, { $pull: { commands: c } } as Document);
    }
    await coll.updateOne({ _id: docId, commands: { $size: 0 } } as Document, { $set: { commands_pending: false } });
  }

  async flushSoon(collection: string, docId: unknown): Promise<void> {
    await this.flush(collection, docId).catch((err) =>
      this.logger.warn({ err: (err as Error).message, collection }, "command flush failed; relay will retry"),
    );
  }

  /**
   * One pass over documents with pending commands. Commands younger than one interval are left
   * to the writer's own flush, which is normally under way: fewer duplicates for the scanner.
   */
  async relayOnce(): Promise<number> {
    const olderThan = new Date(Date.now() - this.intervalMs);
    let n = 0;
    for (const collection of this.collections) {
      const pending = this.db.collection(collection).find({ commands_pending: true }, { projection: { _id: 1 } }).limit(500);
      for await (const doc of pending) {
        await this.flush(collection, doc._id, olderThan);
        n++;
      }
    }
    return n;
  }

  start(): void {
    const tick = () => {
      this.running = this.relayOnce()
        .then(() => undefined)
        .catch((err) => this.logger.warn({ err: (err as Error).message }, "command relay pass failed"))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    this.timer = setTimeout(tick, this.intervalMs);
  }

  async stop(): Promise<void> {
    const t = this.timer;
    this.timer = undefined;
    if (t) clearTimeout(t);
    await this.running;
  }
}
