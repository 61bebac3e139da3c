import {
  OrgVersions,
  VersionedCache,
  mergeFieldTypes,
  outboxFieldTypes,
  outboxFields,
  outboxIndexes,
  pageOf,
  withOutbox,
  type FieldTypes,
  type IndexSpec,
  type Outbox,
  type ScanAllowance,
} from "@vulnscan/kit";
import type { Collection, Db, Document } from "mongodb";
import type { Activity, ScanFilter, ScanStore, ScheduleStore } from "../domain/ports.js";
import type { Page, PageRequest, ScanAnchor, ScanCommand, ScanEvent, ScanPage, ScanRecord, ScheduleRecord } from "../domain/types.js";
import { placesFields, placesScanAllowances } from "./limits.js";
import { changes, clean } from "./documents.js";
import { COMMANDS_FIELD, pendingCommands, pendingEvents } from "../events/messages.js";
import { targetFields, targetIndexes } from "./targets.js";

interface IdDoc extends Document {
  _id: string;
}

/*
 * Collections of the `scans` database:
 *   scans        one document per scan: request, state, version, pending events (`outbox`) and
 *                scanner records (`commands`)
 *   schedules    recurring scans
 *   scan_places  `<org_id>`: the scans holding a place among the plan's concurrent scans (limits.ts)
 *   scan_months  `<org_id>:<YYYY-MM>`: scans counted in the month (limits.ts)
 *   scan_durations `<org_id>|<scan_type>`: the latest measured durations (durations.ts)
 *   list_versions `<org_id>`: moved by every write to the organization's scans, for the list pages kept in memory
 */
export const Collections = {
  scans: "scans",
  schedules: "schedules",
  places: "scan_places",
  months: "scan_months",
  durations: "scan_durations",
  listVersions: "list_versions",
} as const;

/** Collections whose documents carry pending events (`outbox`) and scanner records (`commands`). */
export const outboxCollections = [Collections.scans];

export const scanIndexes: IndexSpec[] = [
  // Lists are newest first with `_id` as the tie-breaker (and the keyset cursor's second key), so
  // each list filter has an index ending in created_at, _id: no in-memory sort, cursor pages are ranges.
  // (Index names changed with the keys: createIndex refuses a known name with another key.)
  { collection: Collections.scans, key: { org_id: 1, created_at: -1, _id: -1 }, options: { name: "org_newest_id" } },
  { collection: Collections.scans, key: { org_id: 1, target: 1, created_at: -1, _id: -1 }, options: { name: "org_target_newest_id" } },
  { collection: Collections.scans, key: { org_id: 1, status: 1, created_at: -1, _id: -1 }, options: { name: "org_status_newest_id" } },
  { collection: Collections.scans, key: { status: 1, _id: 1 }, options: { name: "status_id" } },
  { collection: Collections.schedules, key: { org_id: 1, created_at: 1, _id: 1 }, options: { name: "org_oldest_id" } },
  { collection: Collections.schedules, key: { next_run_at: 1 }, options: { name: "next_run_at" } },
  ...outboxIndexes(Collections.scans),
  ...outboxIndexes(Collections.scans, COMMANDS_FIELD),
  // Verified targets (storage/targets.ts), in the same database.
  ...targetIndexes,
];

/** Queries that read a whole collection on purpose, each with its reason. */
export const scanAllowances: ScanAllowance[] = placesScanAllowances(Collections.places);

/*
 * The type class of every field the queries and indexes above use (field-types.ts), as this
 * file and limits.ts write them (ScanRecord, ScheduleRecord in domain/types.ts): ids are
 * strings, `created_at`, `next_run_at` and `last_taken_run` Dates, versions and counts numbers.
 */
export const scanFields: FieldTypes = mergeFieldTypes(
  {
    [Collections.scans]: { _id: "string", org_id: "string", target: "string", status: "string", created_at: "date", version: "number", attempt: "number" },
    [Collections.schedules]: { _id: "string", org_id: "string", created_at: "date", next_run_at: "date", last_taken_run: "date" },
    [Collections.months]: { _id: "string", count: "number" },
    [Collections.durations]: { _id: "string" },
    [Collections.listVersions]: { _id: "string", v: "number" },
  },
  outboxFieldTypes(Collections.scans),
  outboxFieldTypes(Collections.scans, COMMANDS_FIELD),
  placesFields(Collections.places),
  targetFields,
);

const HIDDEN = { outbox: 0, outbox_pending: 0, commands: 0, commands_pending: 0 } as const;

/** Pages of scan lists kept in memory in all (about 20 scans of a few KB each). */
const LIST_CACHE_PAGES = 2_000;
/** Scans (details) kept in memory in all, a few KB each. */
const DETAIL_CACHE_SCANS = 10_000;

export class MongoScanStore implements ScanStore {
  private readonly scans: Collection<IdDoc>;
  private readonly versions: OrgVersions;
  /** Scan list pages kept while the organization's scans do not change (kit versioned-cache.ts); none when off. */
  private readonly lists?: VersionedCache;
  /** Scans as the API shows them, kept the same way (`view`). */
  private readonly details?: VersionedCache;

  constructor(
    db: Db,
    private readonly outbox: Outbox,
    private readonly commands: Outbox,
    /** LIST_CACHE_MS: how long a list page may be answered from memory; 0 reads every page. */
    listCacheMs = 0,
  ) {
    this.scans = db.collection<IdDoc>(Collections.scans);
    this.versions = new OrgVersions(db, Collections.listVersions);
    if (listCacheMs > 0) {
      this.lists = new VersionedCache(this.versions, { maxAgeMs: listCacheMs, maxEntries: LIST_CACHE_PAGES });
      this.details = new VersionedCache(this.versions, { maxAgeMs: listCacheMs, maxEntries: DETAIL_CACHE_SCANS });
    }
  }

  /**
   * Moves the organization's list version before a write is answered (read-your-writes on every
   * replica). A failure reaches the caller like the write's own would (the write is then retried
   * or its effect read again); a version never moved leaves pages at most LIST_CACHE_MS old.
   */
  private async moved(orgId: string): Promise<void> {
    // Moved even where this replica keeps no pages: another replica (or a later start) may keep them.
    await this.versions.bump([orgId]);
  }

  async insert(scan: ScanRecord, events: ScanEvent[], commands: ScanCommand[]): Promise<void> {
    const at = scan.created_at;
    await this.scans.insertOne({
      ...scan,
      ...outboxFields(pendingEvents(events, at)),
      ...outboxFields(pendingCommands(commands, at), COMMANDS_FIELD),
    });
    await this.moved(scan.org_id);
  }

  async get(orgId: string, scanId: string): Promise<ScanRecord | null> {
    return clean<ScanRecord>(await this.scans.findOne({ _id: scanId, org_id: orgId }, { projection: HIDDEN }));
  }

  /** `get` kept by the organization's version: every write to a scan moves it (`moved`), another organization's id stays null. */
  view(orgId: string, scanId: string): Promise<ScanRecord | null> {
    return this.details ? this.details.get(orgId, scanId, () => this.get(orgId, scanId)) : this.get(orgId, scanId);
  }

  list(orgId: string, filter: ScanFilter, page: PageRequest, after?: ScanAnchor): Promise<ScanPage> {
    const read = () => this.readList(orgId, filter, page, after);
    return this.lists ? this.lists.get(orgId, JSON.stringify([filter, page, after]), read) : read();
  }

  private async readList(orgId: string, filter: ScanFilter, page: PageRequest, after?: ScanAnchor): Promise<ScanPage> {
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
    return { items: docs.slice(0, page.perPage).map((d) => clean<ScanRecord>(d)!), total, more: docs.length > page.perPage };
  }

  async transition(from: ScanRecord, to: ScanRecord, events: ScanEvent[], commands: ScanCommand[]): Promise<boolean> {
    const at = new Date();
    const update = withOutbox(withOutbox(changes(from, to), pendingEvents(events, at)), pendingCommands(commands, at), COMMANDS_FIELD);
    const moved = (await this.scans.updateOne({ _id: from._id, version: from.version }, update)).modifiedCount === 1;
    if (moved) await this.moved(from.org_id);
    return moved;
  }

  async recordActivity(scan: Pick<ScanRecord, "_id" | "org_id" | "attempt">, activity: Activity): Promise<void> {
    const res = await this.scans.updateOne({ _id: scan._id, attempt: scan.attempt, status: "running" }, { $set: activity });
    if (res.modifiedCount === 1) await this.moved(scan.org_id);
  }

  async activeAcrossOrganizations(limit: number, afterId?: string): Promise<ScanRecord[]> {
    const q: Document = { status: { $in: ["pending", "running"] } };
    if (afterId) q._id = { $gt: afterId };
    const docs = await this.scans.find(q, { projection: HIDDEN }).sort({ _id: 1 }).limit(limit).toArray();
    return docs.map((d) => clean<ScanRecord>(d)!);
  }

  async publish(scanId: string): Promise<void> {
    await this.outbox.flushSoon(Collections.scans, scanId);
    await this.commands.flushSoon(Collections.scans, scanId);
  }
}

export class MongoScheduleStore implements ScheduleStore {
  private readonly schedules: Collection<IdDoc>;

  constructor(db: Db) {
    this.schedules = db.collection<IdDoc>(Collections.schedules);
  }

  async insert(schedule: ScheduleRecord): Promise<void> {
    await this.schedules.insertOne({ ...schedule });
  }

  async list(orgId: string, page: PageRequest): Promise<Page<ScheduleRecord>> {
    const { items: docs, total } = await pageOf(this.schedules, { org_id: orgId }, { created_at: 1, _id: 1 }, (page.page - 1) * page.perPage, page.perPage);
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

  // `last_taken_run` remembers the run last taken, so a run put back to a time already taken is never taken again.
  async takeRun(scheduleId: string, runAt: Date, next: Date): Promise<boolean> {
    const taken = await this.schedules.updateOne(
      { _id: scheduleId, next_run_at: runAt, last_taken_run: { $ne: runAt } },
      { $set: { next_run_at: next, last_taken_run: runAt } },
    );
    return taken.modifiedCount === 1;
  }

  async returnRun(scheduleId: string, runAt: Date, next: Date): Promise<void> {
    await this.schedules.updateOne(
      { _id: scheduleId, next_run_at: next, last_taken_run: runAt },
      { $set: { next_run_at: runAt }, $unset: { last_taken_run: "" } },
    );
  }

  async skipRun(scheduleId: string, runAt: Date, next: Date): Promise<void> {
    await this.schedules.updateOne({ _id: scheduleId, next_run_at: runAt, last_taken_run: runAt }, { $set: { next_run_at: next } });
  }

  async recordRun(scheduleId: string, outcome: { scanId?: string; error?: string }, at: Date): Promise<void> {
    const fields: Document = { last_run_at: at, last_error: outcome.error ?? "" };
    if (outcome.scanId) fields.last_scan_id = outcome.scanId;
    await this.schedules.updateOne({ _id: scheduleId }, { $set: fields });
  }
}
