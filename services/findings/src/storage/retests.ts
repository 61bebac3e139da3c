import { randomUUID } from "node:crypto";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  isDuplicateKey,
  mergeFieldTypes,
  Outbox,
  outboxFields,
  outboxFieldTypes,
  outboxIndexes,
  pendingEvent,
  Topics,
  upsertOrUpdate,
  withOutbox,
  type FieldTypes,
  type IndexSpec,
  type KafkaBus,
  type Logger,
  type PendingMessage,
} from "@vulnscan/kit";
import { RetestJobSchema } from "@vulnscan/proto/vulnscan/findings/v1/retest_pb.js";
import { Binary, type Collection, type Db } from "mongodb";
import type { RetestBudget, RetestDoc, RetestStore } from "../domain/retest.js";
import type { FindingDoc } from "../domain/types.js";

/** Retests of findings (domain/retest.ts), with the scanner job (`commands`) and finding.retested (`outbox`) they send. */
export const RETESTS = "retests";
/** `_id` = finding id: the one pending retest of a finding (deleted when it completes). */
export const RETEST_LOCKS = "retest_locks";
/** `<org>:retest:<YYYY-MM>`: the retests started that month. */
export const RETEST_BUDGET = "retest_budget";
export const COMMANDS_FIELD = "commands";

export const retestIndexes: IndexSpec[] = [
  // The finding's retests, newest first (GET /api/v1/findings/{id}/retests): one range, no sort stage.
  { collection: RETESTS, key: { org_id: 1, finding_id: 1, requested_at: -1, _id: -1 }, options: { name: "org_finding_requested" } },
  // Pending retests past their deadline (workers lost): the sweep's range.
  { collection: RETESTS, key: { status: 1, deadline: 1 }, options: { name: "status_deadline" } },
  ...outboxIndexes(RETESTS),
  ...outboxIndexes(RETESTS, COMMANDS_FIELD),
  { collection: RETEST_BUDGET, key: { expires_at: 1 }, options: { name: "expires" } },
];

export const retestFields: FieldTypes = mergeFieldTypes(
  {
    [RETESTS]: { _id: "string", org_id: "string", finding_id: "string", status: "string", requested_at: "date", deadline: "date" },
    [RETEST_LOCKS]: { _id: "string", org_id: "string", retest_id: "string" },
    [RETEST_BUDGET]: { _id: "string", n: "number", expires_at: "date" },
  },
  outboxFieldTypes(RETESTS),
  outboxFieldTypes(RETESTS, COMMANDS_FIELD),
);

type LockDoc = { _id: string; org_id: string; retest_id: string; until: Date };

export class MongoRetestStore implements RetestStore {
  private readonly coll: Collection<RetestDoc>;
  private readonly locks: Collection<LockDoc>;
  readonly events: Outbox;
  readonly commands: Outbox;

  constructor(
    db: Db,
    kafka: KafkaBus,
    logger: Logger,
    private readonly topics: { events: string; jobs: string } = { events: Topics.findingEvents, jobs: Topics.retestJobs },
    relayIntervalMs = 2000,
  ) {
    this.coll = db.collection<RetestDoc>(RETESTS);
    this.locks = db.collection<LockDoc>(RETEST_LOCKS);
    this.events = new Outbox(db, kafka, logger, [RETESTS], { intervalMs: relayIntervalMs });
    this.commands = new Outbox(db, kafka, logger, [RETESTS], { intervalMs: relayIntervalMs, field: COMMANDS_FIELD });
  }

  async create(doc: RetestDoc): Promise<void> {
    const job = create(RetestJobSchema, {
      retestId: doc._id,
      orgId: doc.org_id,
      findingId: doc.finding_id,
      target: doc.target,
      templateId: doc.template_id,
      tool: doc.tool,
      affectedComponent: doc.affected_component,
      port: doc.port,
      deadline: timestampFromDate(doc.deadline),
      requestedAt: timestampFromDate(doc.requested_at),
    });
    const command: PendingMessage = {
      id: `cmd_${randomUUID()}`,
      topic: this.topics.jobs,
      key: doc.finding_id,
      message_type: RetestJobSchema.typeName,
      value: new Binary(toBinary(RetestJobSchema, job)),
      created_at: doc.requested_at,
    };
    // The job is stored with the retest (one write) and sent right after; the relay sends what a crash left.
    await this.coll.insertOne({ ...doc, ...outboxFields([command], COMMANDS_FIELD) } as RetestDoc);
    await this.commands.flushSoon(RETESTS, doc._id);
  }

  async get(orgId: string, id: string): Promise<RetestDoc | null> {
    return this.coll.findOne({ _id: id, org_id: orgId }, { projection: { outbox: 0, commands: 0 } });
  }

  async lock(orgId: string, findingId: string, retestId: string, until: Date): Promise<boolean> {
    try {
      await this.locks.insertOne({ _id: findingId, org_id: orgId, retest_id: retestId, until });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  async lockHolder(orgId: string, findingId: string): Promise<{ retest_id: string; until: Date } | null> {
    const l = await this.locks.findOne({ _id: findingId, org_id: orgId });
    return l && { retest_id: l.retest_id, until: l.until };
  }

  async unlock(findingId: string, retestId: string): Promise<void> {
    await this.locks.deleteOne({ _id: findingId, retest_id: retestId });
  }

  async complete(
    doc: RetestDoc,
    done: Pick<RetestDoc, "verdict" | "reason" | "detail" | "evidence" | "completed_at" | "finding_status" | "worker_id">,
    f: FindingDoc,
  ): Promise<boolean> {
    const at = done.completed_at ?? new Date();
    const event = pendingEvent(
      this.topics.events,
      f._id,
      {
        type: "finding.retested",
        orgId: doc.org_id,
        payload: {
          case: "findingRetested",
          value: {
            findingId: f._id,
            retestId: doc._id,
            title: f.title,
            severity: f.severity,
            target: f.target,
            affectedComponent: f.affected_component,
            templateId: doc.template_id,
            verdict: done.verdict,
            reason: done.reason,
            status: f.status,
            requestedBy: doc.requested_by,
            requestedAt: timestampFromDate(doc.requested_at),
            completedAt: timestampFromDate(at),
            frameworks: f.frameworks.map((m) => ({ name: m.name, controls: m.controls })),
          },
        },
      },
      at,
    );
    const res = await this.coll.updateOne({ _id: doc._id, status: "pending" }, withOutbox({ $set: { status: "completed", ...done } }, [event]));
    if (res.modifiedCount === 0) return false;
    await this.events.flushSoon(RETESTS, doc._id);
    return true;
  }

  async list(orgId: string, findingId: string, offset: number, limit: number): Promise<RetestDoc[]> {
    return this.coll
      .find({ org_id: orgId, finding_id: findingId }, { projection: { outbox: 0, commands: 0 }, sort: { requested_at: -1, _id: -1 }, skip: offset, limit })
      .toArray();
  }

  async count(orgId: string, findingId: string): Promise<number> {
    return this.coll.countDocuments({ org_id: orgId, finding_id: findingId });
  }

  async overdue(before: Date, limit: number): Promise<RetestDoc[]> {
    return this.coll.find({ status: "pending", deadline: { $lt: before } }, { projection: { outbox: 0, commands: 0 }, sort: { deadline: 1 }, limit }).toArray();
  }

  start(): void {
    this.events.start();
    this.commands.start();
  }

  async stop(): Promise<void> {
    await this.events.stop();
    await this.commands.stop();
  }
}

/** Retests per organization and month: a conditional `$inc` below the plan's limit (exact under concurrency, like AI credits). */
export class MongoRetestBudget implements RetestBudget {
  private readonly coll: Collection<{ _id: string; n: number; expires_at: Date }>;
  constructor(db: Db) {
    this.coll = db.collection(RETEST_BUDGET);
  }

  async take(orgId: string, month: string, max: number): Promise<number | undefined> {
    if (max <= 0) return undefined;
    const [year, mon] = month.split("-").map(Number) as [number, number];
    const expires_at = new Date(Date.UTC(year, mon + 1, 1));
    const doc = await upsertOrUpdate((upsert) =>
      this.coll.findOneAndUpdate(
        { _id: `${orgId}:retest:${month}`, n: { $lt: max } },
        { $inc: { n: 1 }, $setOnInsert: { expires_at } },
        { upsert, returnDocument: "after" },
      ),
    );
    return doc?.n;
  }

  async prune(now = new Date()): Promise<number> {
    return (await this.coll.deleteMany({ expires_at: { $lt: now } })).deletedCount;
  }
}
