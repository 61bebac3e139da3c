import { GridFSBucket, ObjectId, type Collection, type Db, type Document, type Filter } from "mongodb";
import { insertOnce, outboxFields, pageOf, withOutbox, type Outbox } from "@vulnscan/kit";
import type { AuditStore, ControlStore, EvidenceStore, FileStore, LinkStore, ScanStore, StateStore } from "../domain/ports.js";
import type { AuditDoc, ComplianceScanDoc, ControlOverride, EvidenceDoc, FindingLink, GrcEvent, PublishedState } from "../domain/types.js";
import { Collections, EVIDENCE_BUCKET } from "./collections.js";
import { toPending } from "../events/envelopes.js";

/** One page, newest first (ids sort by creation), with the total of the filter. */
const newestPage = <T extends Document>(coll: Collection<T>, filter: Filter<T>, page: number, perPage: number) =>
  pageOf(coll, filter, { _id: -1 }, (page - 1) * perPage, perPage, NO_OUTBOX.projection);

/** Outbox fields never leave storage. */
const NO_OUTBOX = { projection: { outbox: 0, outbox_pending: 0 } } as const;
type Stored<T> = T & Document;

/**
 * The grc adapters on MongoDB (or FerretDB). Every query is by `_id` or an organization-scoped
 * equality with a declared index; events are written in the same document as the state they
 * describe (kit outbox) and flushed right after.
 */
export function mongoStores(db: Db, outbox: Outbox | undefined, topic: string) {
  const coll = <T extends Document>(name: string) => db.collection<Stored<T>>(name);
  const controls = coll<ControlOverride>(Collections.controls);
  const links = coll<FindingLink>(Collections.findingLinks);
  const evidence = coll<EvidenceDoc>(Collections.evidence);
  const audits = coll<AuditDoc>(Collections.auditRequests);
  const state = coll<PublishedState & { _id: string }>(Collections.state);
  const scans = coll<ComplianceScanDoc>(Collections.complianceScans);
  const versions = db.collection<{ _id: string; version: string }>(Collections.versions);
  const bucket = new GridFSBucket(db, { bucketName: EVIDENCE_BUCKET });
  const flush = async (collection: string, id: string, events: GrcEvent[]) => {
    if (events.length) await outbox?.flushSoon(collection, id);
  };
  const withEvents = (update: Document, events: GrcEvent[]) => withOutbox(update, toPending(topic, events));
  /** An update of one evidence item, made only where `guard` still holds, with its events; true when made. */
  const updateEvidence = async (id: string, guard: Filter<Stored<EvidenceDoc>>, set: Partial<EvidenceDoc>, events: GrcEvent[]) => {
    const made = (await evidence.updateOne({ ...guard, _id: id }, withEvents({ $set: set }, events))).modifiedCount === 1;
    if (made) await flush(Collections.evidence, id, events);
    return made;
  };

  const controlStore: ControlStore = {
    overrides: (orgId) => controls.find({ org_id: orgId }).toArray(),
    set: async (orgId, id, key, fields) => {
      await controls.updateOne({ _id: id }, { $set: fields, $setOnInsert: { org_id: orgId, key } } as Document, { upsert: true });
    },
    markTested: async (orgId, list, at) => {
      if (!list.length) return;
      await controls.bulkWrite(
        list.map((c) => ({
          updateOne: { filter: { _id: c.id }, update: { $set: { last_tested_at: at }, $setOnInsert: { org_id: orgId, key: c.key } } as Document, upsert: true },
        })),
        { ordered: false },
      );
    },
  };

  const linkStore: LinkStore = {
    openLinks: (orgId) => links.find({ org_id: orgId, open: true }).toArray(),
    get: (orgId, findingId) => links.findOne({ _id: `${orgId}:${findingId}` }),
    put: async (link) => {
      await links.replaceOne({ _id: link._id }, link, { upsert: true });
    },
  };

  const evidenceStore: EvidenceStore = {
    insert: async (doc, events) => {
      if (!(await insertOnce(evidence, { ...doc, ...outboxFields(toPending(topic, events)) }))) return false;
      await flush(Collections.evidence, doc._id, events);
      return true;
    },
    get: (orgId, id) => evidence.findOne({ _id: id, org_id: orgId }, NO_OUTBOX),
    list: (orgId, controlId, page, perPage) =>
      newestPage(evidence, controlId === undefined ? { org_id: orgId } : { org_id: orgId, control_ids: controlId }, page, perPage),
    cleanCounts: async (orgId) => {
      const counts = new Map<string, number>();
      for await (const d of evidence.find({ org_id: orgId, status: "clean" }, { projection: { control_ids: 1 } }))
        for (const c of d.control_ids as string[]) counts.set(c, (counts.get(c) ?? 0) + 1);
      return counts;
    },
    recordVerdict: (id, set, events) => updateEvidence(id, { status: "pending_scan" }, set, events),
    announceExpiry: (id, event) => updateEvidence(id, { expiring_notified: false }, { expiring_notified: true }, [event]),
    expire: async (id) => {
      await updateEvidence(id, { status: "clean" }, { status: "expired" }, []);
    },
    delete: async (orgId, id) => (await evidence.deleteOne({ _id: id, org_id: orgId })).deletedCount === 1,
    pendingScan: (limit) => evidence.find({ status: "pending_scan" }, NO_OUTBOX).limit(limit).toArray(),
    expiringUnannounced: (at, limit) =>
      evidence
        .find({ status: "clean", expiring_notified: false, expires_at: { $lte: at } }, NO_OUTBOX)
        .limit(limit)
        .toArray(),
    expiredClean: (now, limit) =>
      evidence
        .find({ status: "clean", expires_at: { $lte: now } }, NO_OUTBOX)
        .limit(limit)
        .toArray(),
  };

  const fileStore: FileStore = {
    put: (bytes, meta) =>
      new Promise((resolve, reject) => {
        const up = bucket.openUploadStream(meta.name, { metadata: { org_id: meta.orgId, evidence_id: meta.evidenceId, content_type: meta.contentType } });
        up.once("error", reject);
        up.once("finish", () => resolve(up.id.toHexString()));
        up.end(Buffer.from(bytes));
      }),
    get: async (fileId) => {
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of bucket.openDownloadStream(new ObjectId(fileId))) chunks.push(chunk as Buffer);
      } catch (err) {
        if ((err as { code?: string }).code === "ENOENT" || /FileNotFound|not found/i.test((err as Error).message)) return null;
        throw err;
      }
      return new Uint8Array(Buffer.concat(chunks));
    },
    delete: async (fileId) => {
      await bucket.delete(new ObjectId(fileId)).catch((err: Error) => {
        if (!/not found/i.test(err.message)) throw err;
      });
    },
  };

  const auditStore: AuditStore = {
    insert: async (doc, events) => {
      await audits.insertOne({ ...doc, ...outboxFields(toPending(topic, events)) });
      await flush(Collections.auditRequests, doc._id, events);
    },
    get: (orgId, id) => audits.findOne({ _id: id, org_id: orgId }, NO_OUTBOX),
    list: (orgId, status, page, perPage) => newestPage(audits, status === undefined ? { org_id: orgId } : { org_id: orgId, status }, page, perPage),
    update: async (orgId, id, set) => {
      await audits.updateOne({ _id: id, org_id: orgId }, { $set: set });
    },
  };

  const stateStore: StateStore = {
    // A document of its own: reading the version out of the state document (a status per control)
    // cost ~15 ms on FerretDB, which decodes the whole document before projecting.
    version: async (orgId) => (await versions.findOne({ _id: orgId }))?.version,
    get: (orgId) => state.findOne({ _id: orgId }, NO_OUTBOX),
    save: async (orgId, s, previous, events) => {
      const fields = { version: s.version, statuses: s.statuses, scores: s.scores };
      if (previous === undefined) {
        if (!(await insertOnce(state, { _id: orgId, ...fields, ...outboxFields(toPending(topic, events)) }))) return false;
      } else if ((await state.updateOne({ _id: orgId, version: previous }, withEvents({ $set: fields }, events))).modifiedCount === 0) return false;
      // After the state: a reader that sees the new version reloads a view that includes it.
      await versions.updateOne({ _id: orgId }, { $set: { version: s.version } }, { upsert: true });
      await flush(Collections.state, orgId, events);
      return true;
    },
  };

  const scanStore: ScanStore = {
    // The same document for a redelivered scan.created: storing it again changes nothing.
    remember: async (doc) => {
      await scans.replaceOne({ _id: doc._id }, doc, { upsert: true });
    },
    get: (scanId) => scans.findOne({ _id: scanId }),
  };

  return {
    controls: controlStore,
    links: linkStore,
    evidence: evidenceStore,
    files: fileStore,
    audits: auditStore,
    state: stateStore,
    scans: scanStore,
  };
}
