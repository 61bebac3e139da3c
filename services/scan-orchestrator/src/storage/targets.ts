import {
  pendingEvent,
  Topics,
  mergeFieldTypes,
  outboxFieldTypes,
  outboxIndexes,
  pageOf,
  withOutbox,
  type FieldTypes,
  type IndexSpec,
  type Outbox,
} from "@vulnscan/kit";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { MongoServerError, type Collection, type Db, type Document } from "mongodb";
import type { TargetStore } from "../domain/targets.js";
import type { AttemptRecord, TargetEvent, TargetFilter, TargetRecord } from "../domain/targets-types.js";
import type { Page, PageRequest } from "../domain/types.js";
import { changes, clean } from "./documents.js";

/*
 * Collections of the `scans` database for targets (issue 29):
 *   targets          one document per organization and target: the verification state, its
 *                    version and pending events (`outbox`)
 *   target_attempts  every verification attempt: who, when, method, answer
 */
export const TargetCollections = { targets: "targets", attempts: "target_attempts" } as const;

/*
 * Target inventories (issue 29, storage/inventory.ts):
 *   target_scans  one document per target: its last scan (only ever replaced by a later one)
 *   target_ports  one document per target, address and port: first and last seen ($min/$max)
 * Apart from `targets` so the inventory's writes, which follow events, never race the
 * verification's version-guarded writes.
 */
export const InventoryCollections = { scans: "target_scans", ports: "target_ports" } as const;

export const targetIndexes: IndexSpec[] = [
  { collection: TargetCollections.targets, key: { org_id: 1, target: 1 }, options: { name: "org_target", unique: true } },
  { collection: TargetCollections.targets, key: { org_id: 1, created_at: -1, _id: -1 }, options: { name: "org_newest_id" } },
  { collection: TargetCollections.targets, key: { org_id: 1, status: 1, created_at: -1, _id: -1 }, options: { name: "org_status_newest_id" } },
  { collection: TargetCollections.targets, key: { org_id: 1, kind: 1, created_at: -1, _id: -1 }, options: { name: "org_kind_newest_id" } },
  { collection: TargetCollections.targets, key: { org_id: 1, kind: 1, status: 1, created_at: -1, _id: -1 }, options: { name: "org_kind_status_newest_id" } },
  { collection: TargetCollections.targets, key: { status: 1, next_check_at: 1 }, options: { name: "status_next_check" } },
  { collection: TargetCollections.attempts, key: { org_id: 1, target_id: 1, at: -1 }, options: { name: "org_target_newest" } },
  { collection: InventoryCollections.ports, key: { org_id: 1, target_id: 1, address: 1, port: 1 }, options: { name: "org_target_address_port" } },
  ...outboxIndexes(TargetCollections.targets),
];

export const targetFields: FieldTypes = mergeFieldTypes(
  {
    [TargetCollections.targets]: {
      _id: "string",
      org_id: "string",
      target: "string",
      kind: "string",
      status: "string",
      created_at: "date",
      next_check_at: "date",
      version: "number",
    },
    [TargetCollections.attempts]: { _id: "string", org_id: "string", target_id: "string", at: "date" },
    [InventoryCollections.scans]: { _id: "string", org_id: "string", "last_scan.ended_at": "date" },
    [InventoryCollections.ports]: {
      _id: "string",
      org_id: "string",
      target_id: "string",
      address: "string",
      port: "number",
      last_seen_at: "date",
    },
  },
  outboxFieldTypes(TargetCollections.targets),
);

interface IdDoc extends Document {
  _id: string;
}

const HIDDEN = { outbox: 0, outbox_pending: 0 } as const;

/** The event as it travels: target.verification_expired on the scan events topic, keyed by the target. */
export const pendingTargetEvents = (events: TargetEvent[], at: Date) =>
  events.map((e) =>
    pendingEvent(
      Topics.scanEvents,
      e.target._id,
      {
        type: e.type,
        orgId: e.target.org_id,
        payload: {
          case: "targetVerificationExpired",
          value: {
            targetId: e.target._id,
            target: e.target.target,
            method: e.target.method ?? "",
            status: "expired",
            error: e.target.last_error,
            ...(e.target.verified_at ? { verifiedAt: timestampFromDate(e.target.verified_at) } : {}),
            expiredAt: timestampFromDate(e.target.expired_at ?? at),
          },
        },
      },
      at,
    ),
  );

export class MongoTargetStore implements TargetStore {
  private readonly targets: Collection<IdDoc>;
  private readonly attemptsOf: Collection<IdDoc>;

  constructor(
    db: Db,
    /** Absent in the operator CLI, which stores no events (an attestation emits none). */
    private readonly outbox?: Outbox,
  ) {
    this.targets = db.collection<IdDoc>(TargetCollections.targets);
    this.attemptsOf = db.collection<IdDoc>(TargetCollections.attempts);
  }

  async insert(t: TargetRecord): Promise<boolean> {
    try {
      await this.targets.insertOne({ ...t });
      return true;
    } catch (err) {
      if (err instanceof MongoServerError && err.code === 11000) return false;
      throw err;
    }
  }

  async get(orgId: string, id: string): Promise<TargetRecord | null> {
    return clean<TargetRecord>(await this.targets.findOne({ _id: id, org_id: orgId }, { projection: HIDDEN }));
  }

  async list(orgId: string, filter: TargetFilter, page: PageRequest): Promise<Page<TargetRecord>> {
    const q: Document = { org_id: orgId };
    if (filter.kind) q.kind = filter.kind;
    if (filter.status) q.status = filter.status;
    const { items: docs, total } = await pageOf(this.targets, q, { created_at: -1, _id: -1 }, (page.page - 1) * page.perPage, page.perPage, HIDDEN);
    return { items: docs.map((d) => clean<TargetRecord>(d)!), total };
  }

  async delete(orgId: string, id: string): Promise<boolean> {
    return (await this.targets.deleteOne({ _id: id, org_id: orgId })).deletedCount > 0;
  }

  async update(from: TargetRecord, to: TargetRecord, events: TargetEvent[]): Promise<boolean> {
    const base = changes(from, to);
    const update = events.length ? withOutbox(base, pendingTargetEvents(events, new Date())) : base;
    return (await this.targets.updateOne({ _id: from._id, version: from.version }, update)).modifiedCount === 1;
  }

  async provedOf(orgId: string): Promise<TargetRecord[]> {
    const docs = await this.targets
      .find({ org_id: orgId, status: { $in: ["verified", "expired"] } }, { projection: HIDDEN })
      .limit(1000)
      .toArray();
    return docs.map((d) => clean<TargetRecord>(d)!);
  }

  async dueForRecheck(now: Date, limit: number): Promise<TargetRecord[]> {
    const docs = await this.targets
      .find({ status: "verified", next_check_at: { $lte: now } }, { projection: HIDDEN })
      .sort({ next_check_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => clean<TargetRecord>(d)!);
  }

  async recordAttempt(a: AttemptRecord): Promise<void> {
    await this.attemptsOf.insertOne({ ...a });
  }

  async attempts(orgId: string, targetId: string, limit: number): Promise<AttemptRecord[]> {
    const docs = await this.attemptsOf.find({ org_id: orgId, target_id: targetId }).sort({ at: -1 }).limit(limit).toArray();
    return docs.map((d) => clean<AttemptRecord>(d)!);
  }

  async publish(targetId: string): Promise<void> {
    await this.outbox?.flushSoon(TargetCollections.targets, targetId);
  }
}
