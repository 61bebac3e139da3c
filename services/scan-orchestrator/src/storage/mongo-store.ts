import {
  insertOnce,
  isDuplicateKey,
  mergeFieldTypes,
  outboxFieldTypes,
  outboxFields,
  outboxIndexes,
  pendingEvent,
  slotFieldTypes,
  slotIndexes,
  slotPoolFieldTypes,
  slotPoolIndexes,
  Topics,
} from "@vulnscan/kit";
import type { FieldTypes, IndexSpec, Outbox } from "@vulnscan/kit";
import type { Collection, Db, Document } from "mongodb";

interface IdDoc extends Document {
  _id: string;
}
import type { ProjectedFields } from "../domain/projection.js";
import type { ScanFilter, ScanStore, ScheduleStore, Volatile } from "../domain/ports.js";
import type { Page, PageRequest, ScanAnchor, ScanCommand, ScanEvent, ScanPage, ScanRecord, ScheduleRecord, Transition } from "../domain/types.js";
import { commandFields, commandOutboxFieldTypes, commandOutboxIndexes, pendingCommand } from "./commands.js";

/*
 * Collections of the `scans` database:
 *   scans             one document per scan: request, projection, outbox + commands
 *   scan_activity     `<scan_id>`: phase, current_tool, last_report_at of the last report
 *   scan_transitions  `<scan_id>:<what>`, unique-insert facts (started, phase, attempt, terminal)
 *                     with their own outbox + commands
 *   schedules         recurring scans
 *   schedule_runs     `<schedule_id>@<run time>`, one per claimed run
 *   scan_slots        concurrency slots (kit SlotPool), `<org_id>:concurrent#n`
 *   quota_slots       monthly positions (kit SlotCounter), `<org_id>:month:<YYYY-MM>#n`
 */
export const Collections = {
  scans: "scans",
  activity: "scan_activity",
  transitions: "scan_transitions",
  schedules: "schedules",
  scheduleRuns: "schedule_runs",
  scanSlots: "scan_slots",
  quotaSlots: "quota_slots",
} as const;

/** Collections whose documents carry pending events (`outbox`) and scanner records (`commands`). */
export const outboxCollections = [Collections.scans, Collections.transitions];

export const scanIndexes: IndexSpec[] = [
  // Lists are newest first with `_id` as the tie-breaker (and the keyset cursor's second key), so
  // each list filter has an index ending in created_at, _id: no in-memory sort, cursor pages are ranges.
  // (Index names changed with the keys: createIndex refuses a known name with another key.)
  { collection: Collections.scans, key: { org_id: 1, created_at: -1, _id: -1 }, options: { name: "org_newest_id" } },
  { collection: Collections.scans, key: { org_id: 1, target: 1, created_at: -1, _id: -1 }, options: { name: "org_target_newest_id" } },
  { collection: Collections.scans, key: { org_id: 1, status: 1, created_at: -1, _id: -1 }, options: { name: "org_status_newest_id" } },
  { collection: Collections.scans, key: { status: 1, _id: 1 }, options: { name: "status_id" } },
  { collection: Collections.transitions, key: { scan_id: 1, at: 1, _id: 1 }, options: { name: "scan_at" } },
  { collection: Collections.schedules, key: { org_id: 1, created_at: 1, _id: 1 }, options: { name: "org_oldest_id" } },
  { collection: Collections.schedules, key: { next_run_at: 1 }, options: { name: "next_run_at" } },
  { collection: Collections.scheduleRuns, key: { claimed_at: 1 }, options: { name: "claimed_at" } },
  ...outboxCollections.flatMap((c) => [...outboxIndexes(c), ...commandOutboxIndexes(c)]),
  ...slotPoolIndexes(Collections.scanSlots),
  ...slotIndexes(Collections.quotaSlots),
];

/*
 * The type class of every field the queries and indexes above use (field-types.ts), as this
 * file writes them (ScanRecord, Transition, ScheduleRecord in domain/types.ts): ids are
 * strings, `created_at`, `at`, `next_run_at` and `claimed_at` Dates.
 */
export const scanFields: FieldTypes = mergeFieldTypes(
  {
    [Collections.scans]: { _id: "string", org_id: "string", target: "string", status: "string", created_at: "date" },
    [Collections.activity]: { _id: "string" },
    [Collections.transitions]: { _id: "string", scan_id: "string", at: "date" },
    [Collections.schedules]: { _id: "string", org_id: "string", created_at: "date", next_run_at: "date" },
    [Collections.scheduleRuns]: { _id: "string", claimed_at: "date" },
  },
  ...outboxCollections.flatMap((c) => [outboxFieldTypes(c), commandOutboxFieldTypes(c)]),
  slotPoolFieldTypes(Collections.scanSlots),
  slotFieldTypes(Collections.quotaSlots),
);

const HIDDEN = { outbox: 0, outbox_pending: 0, commands: 0, commands_pending: 0 } as const;

/** Drops nulls (a $set of undefined stores null) so records compare as the domain built them. */
function clean<T>(doc: Document | null): T | null {
  if (!doc) return null;
  const out: Document = {};
  for (const [k, v] of Object.entries(doc)) if (v !== null && v !== undefined) out[k] = v;
  return out as T;
}

/** $set for the defined fields, $unset for the undefined ones. */
function setUnset(fields: Record<string, unknown>): Document {
  const $set: Document = {};
  const $unset: Document = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) $unset[k] = "";
    else $set[k] = v;
  }
  return Object.keys($unset).length ? { $set, $unset } : { $set };
}

function pending(events: ScanEvent[], commands: ScanCommand[], orgId: string, key: string, at: Date) {
  return {
    ...outboxFields(events.map((e) => pendingEvent(Topics.scanEvents, key, { type: e.type, orgId, payload: e.payload }, at))),
    ...commandFields(commands.map((c) => pendingCommand(c, at))),
  };
}

export class MongoScanStore implements ScanStore {
  private readonly scans: Collection<IdDoc>;
  private readonly activity: Collection<IdDoc>;
  private readonly transitionsColl: Collection<IdDoc>;

  constructor(
    db: Db,
    private readonly outbox: Outbox,
    private readonly commands: Outbox,
  ) {
    this.scans = db.collection<IdDoc>(Collections.scans);
    this.activity = db.collection<IdDoc>(Collections.activity);
    this.transitionsColl = db.collection<IdDoc>(Collections.transitions);
  }

  async insert(scan: ScanRecord, events: ScanEvent[], commands: ScanCommand[]): Promise<void> {
    await this.scans.insertOne({ ...scan, ...pending(events, commands, scan.org_id, scan._id, scan.created_at) });
  }

  /** Merges each scan's activity record (the last report's phase, tool and time). */
  private async withActivity(docs: Document[]): Promise<ScanRecord[]> {
    if (docs.length === 0) return [];
    const ids = docs.map((d) => d._id as string);
    const activity = new Map<string, Document>();
    for (const a of await this.activity.find(ids.length === 1 ? { _id: ids[0]! } : { _id: { $in: ids } }).toArray()) {
      activity.set(a._id, a);
    }
    return docs.map((d) => {
      const { _id, ...a } = activity.get(d._id as string) ?? {};
      return clean<ScanRecord>({ ...d, ...a })!;
    });
  }

  async get(orgId: string, scanId: string): Promise<ScanRecord | null> {
    const doc = await this.scans.findOne({ _id: scanId, org_id: orgId }, { projection: HIDDEN });
    return doc ? ((await this.withActivity([doc]))[0] ?? null) : null;
  }

  async list(orgId: string, filter: ScanFilter, page: PageRequest, after?: ScanAnchor): Promise<ScanPage> {
    const q: Document = { org_id: orgId };
    if (filter.status) q.status = filter.status;
    if (filter.target !== undefined) q.target = filter.target;
    if (filter.from || filter.to) {
      q.created_at = {};
      if (filter.from) q.created_at.$gte = filter.from;
      if (filter.to) q.created_at.$lt = filter.to;
    }
    // A keyset page is the rows after the anchor on the list's index (…, created_at desc, _id desc):
    // older, or as old (same millisecond) with a smaller id. The top-level `created_at <= anchor`
    // bounds the index scan on any planner (an $or alone is pushed into index bounds only by
    // newer MongoDB planners); the $or then drops just the anchor millisecond's rows at or before
    // the anchor id. No skip. One row more than the page tells whether another page follows.
    const range = after
      ? { ...q, created_at: { ...q.created_at, $lte: after.createdAt }, $or: [{ created_at: { $lt: after.createdAt } }, { _id: { $lt: after.id } }] }
      : q;
    const found = this.scans.find(range, { projection: HIDDEN }).sort({ created_at: -1, _id: -1 });
    if (!after) found.skip((page.page - 1) * page.perPage);
    const [docs, total] = await Promise.all([found.limit(page.perPage + 1).toArray(), this.scans.countDocuments(q)]);
    return { items: await this.withActivity(docs.slice(0, page.perPage)), total, more: docs.length > page.perPage };
  }

  async transitions(scanId: string): Promise<Transition[]> {
    const docs = await this.transitionsColl.find({ scan_id: scanId }, { projection: HIDDEN }).sort({ at: 1, _id: 1 }).toArray();
    return docs.map((d) => clean<Transition>(d)!);
  }

  async transitionsOf(scanIds: string[]): Promise<Map<string, Transition[]>> {
    const out = new Map<string, Transition[]>(scanIds.map((id) => [id, []]));
    if (scanIds.length === 0) return out;
    const docs = await this.transitionsColl
      .find({ scan_id: { $in: scanIds } }, { projection: HIDDEN })
      .sort({ at: 1, _id: 1 })
      .toArray();
    for (const d of docs) out.get(d.scan_id as string)?.push(clean<Transition>(d)!);
    return out;
  }

  claim(t: Transition, events: ScanEvent[], commands: ScanCommand[]): Promise<boolean> {
    return insertOnce(this.transitionsColl, { ...t, ...pending(events, commands, t.org_id, t.scan_id, t.at) });
  }

  async save(scanId: string, fields: ProjectedFields): Promise<void> {
    await this.scans.updateOne({ _id: scanId }, setUnset({ ...fields }));
  }

  async touch(scanId: string, fields: Volatile): Promise<void> {
    const $set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    if (Object.keys($set).length === 0) return;
    try {
      await this.activity.updateOne({ _id: scanId }, { $set }, { upsert: true });
    } catch (err) {
      // Two first upserts raced (a consumer rebalance); the document exists now.
      if (!isDuplicateKey(err)) throw err;
      await this.activity.updateOne({ _id: scanId }, { $set });
    }
  }

  async activeAcrossOrganizations(limit: number, afterId?: string): Promise<ScanRecord[]> {
    const q: Document = { status: { $in: ["pending", "running"] } };
    if (afterId) q._id = { $gt: afterId };
    const docs = await this.scans.find(q, { projection: HIDDEN }).sort({ _id: 1 }).limit(limit).toArray();
    return this.withActivity(docs);
  }

  async publishScan(scanId: string): Promise<void> {
    await this.outbox.flushSoon(Collections.scans, scanId);
    await this.commands.flushSoon(Collections.scans, scanId);
  }

  async publishTransition(transitionId: string): Promise<void> {
    await this.outbox.flushSoon(Collections.transitions, transitionId);
    await this.commands.flushSoon(Collections.transitions, transitionId);
  }
}

const runId = (scheduleId: string, runAt: Date) => `${scheduleId}@${runAt.toISOString()}`;

export class MongoScheduleStore implements ScheduleStore {
  private readonly schedules: Collection<IdDoc>;
  private readonly runs: Collection<IdDoc>;

  constructor(db: Db) {
    this.schedules = db.collection<IdDoc>(Collections.schedules);
    this.runs = db.collection<IdDoc>(Collections.scheduleRuns);
  }

  async insert(schedule: ScheduleRecord): Promise<void> {
    await this.schedules.insertOne({ ...schedule });
  }

  async list(orgId: string, page: PageRequest): Promise<Page<ScheduleRecord>> {
    const q = { org_id: orgId };
    const [docs, total] = await Promise.all([
      this.schedules
        .find(q)
        .sort({ created_at: 1, _id: 1 })
        .skip((page.page - 1) * page.perPage)
        .limit(page.perPage)
        .toArray(),
      this.schedules.countDocuments(q),
    ]);
    return { items: docs.map((d) => clean<ScheduleRecord>(d)!), total };
  }

  async delete(orgId: string, scheduleId: string): Promise<boolean> {
    return (await this.schedules.deleteOne({ _id: scheduleId, org_id: orgId })).deletedCount > 0;
  }

  async dueAcrossOrganizations(now: Date, limit: number): Promise<ScheduleRecord[]> {
    const docs = await this.schedules
      .find({ next_run_at: { $lte: now } })
      .sort({ next_run_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => clean<ScheduleRecord>(d)!);
  }

  claimRun(schedule: ScheduleRecord, runAt: Date, claimedAt: Date): Promise<boolean> {
    return insertOnce(this.runs, {
      _id: runId(schedule._id, runAt),
      schedule_id: schedule._id,
      org_id: schedule.org_id,
      run_at: runAt,
      claimed_at: claimedAt,
    });
  }

  async releaseRun(schedule: ScheduleRecord, runAt: Date): Promise<void> {
    await this.runs.deleteOne({ _id: runId(schedule._id, runAt) });
  }

  async runClaimedAt(schedule: ScheduleRecord, runAt: Date): Promise<Date | undefined> {
    const doc = await this.runs.findOne({ _id: runId(schedule._id, runAt) });
    return doc?.claimed_at instanceof Date ? doc.claimed_at : undefined;
  }

  async finishRun(schedule: ScheduleRecord, runAt: Date, outcome: { scanId?: string; error?: string }, at: Date, next: Date): Promise<void> {
    await this.runs.updateOne(
      { _id: runId(schedule._id, runAt) },
      {
        $set: { scan_id: outcome.scanId ?? "", error: outcome.error ?? "", finished_at: at },
      },
    );
    const fields: Document = { last_run_at: at, last_error: outcome.error ?? "", next_run_at: next };
    if (outcome.scanId) fields.last_scan_id = outcome.scanId;
    await this.schedules.updateOne({ _id: schedule._id }, { $set: fields });
  }

  async advance(scheduleId: string, runAt: Date, next: Date): Promise<void> {
    await this.schedules.updateOne({ _id: scheduleId, next_run_at: runAt }, { $set: { next_run_at: next } });
  }
}
