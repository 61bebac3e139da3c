import { isDuplicateKey, outboxFields, pendingEvent, Topics, type Logger, type Outbox, type PendingEvent } from "@vulnscan/kit";
import type { Collection, Db, Document, Filter } from "mongodb";
import type { Change } from "../domain/changes.js";
import type { FindingDoc } from "../domain/types.js";
import { FINDING_LOG, FINDINGS } from "./indexes.js";

/*
 * Writes without lost updates on a server whose updates are read-modify-write.
 *
 * FerretDB v1 (our test database) applies every update as read document → change it in Go →
 * write the whole document back, outside a transaction: measured here, 50 concurrent `$push`es
 * to one document kept 6, and concurrent `$set`s of different fields lose each other too. Only a
 * duplicate-`_id` insert fails atomically. So every write to a finding is serialised by a
 * unique insert:
 *
 *   1. read the finding (revision n) and decide the change (pure domain code);
 *   2. claim revision n+1 by inserting `finding_log/<finding_id>#<n+1>`, a document that holds
 *      the change itself and its pending events (the kit's outbox fields). Exactly one writer
 *      wins; the others re-read and decide again on the new state;
 *   3. apply the change to the finding with `$set` (arrays are set whole, so applying twice
 *      gives the same document) and `rev: n+1`;
 *   4. publish the events from the log entry (kit Outbox.flush) and let the entry go.
 *
 * The log entry is the commit point: it records the state change and its events in one
 * single-document write, as the kit's outbox does, without writing the finding concurrently
 * with its writers. A writer that dies after 2 is rolled forward: by the next writer that finds
 * the claim older than STALE_CLAIM_MS, or by the relay before it publishes the events. A new
 * finding is claimed the same way under its fingerprint (`finding_log/<fingerprint>` holds the
 * whole first document and the vulnerability.found events), so two scans racing on one new
 * fingerprint create one finding and one set of events.
 */

export interface LogDoc {
  _id: string;
  kind: "create" | "change";
  finding_id: string;
  org_id: string;
  rev: number;
  /** create: the first document; change: the fields set. */
  doc?: FindingDoc;
  set?: Change["set"];
  created_at: Date;
  outbox: PendingEvent[];
  outbox_pending: boolean;
}

const STALE_CLAIM_MS = 5_000;
const MAX_ATTEMPTS = 400;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class FindingStore {
  readonly findings: Collection<FindingDoc>;
  readonly log: Collection<LogDoc>;

  constructor(
    readonly db: Db,
    private readonly outbox: Outbox,
    private readonly logger: Logger,
    private readonly eventsTopic: string = Topics.findingEvents,
  ) {
    this.findings = db.collection<FindingDoc>(FINDINGS);
    this.log = db.collection<LogDoc>(FINDING_LOG);
  }

  private events(findingId: string, change: { events: Change["events"] }, at: Date): PendingEvent[] {
    return change.events.map((e) => pendingEvent(this.eventsTopic, findingId, e, at));
  }

  async get(orgId: string, id: string): Promise<FindingDoc | null> {
    return this.findings.findOne({ _id: id, org_id: orgId });
  }

  /**
   * Creates the finding of a new fingerprint, or tells which finding already holds it.
   * Returns created=false with the existing finding id when another writer got there first.
   */
  async create(doc: FindingDoc, events: Change["events"]): Promise<{ created: boolean; findingId: string }> {
    const entry: LogDoc = {
      _id: doc.fingerprint,
      kind: "create",
      finding_id: doc._id,
      org_id: doc.org_id,
      rev: 1,
      doc,
      created_at: doc.created_at,
      ...outboxFields(this.events(doc._id, { events }, doc.created_at)),
    };
    try {
      await this.log.insertOne(entry);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const existing = await this.log.findOne({ _id: doc.fingerprint });
      if (!existing) throw err;
      await this.ensureCreated(existing);
      return { created: false, findingId: existing.finding_id };
    }
    await this.ensureCreated(entry);
    await this.outbox.flushSoon(FINDING_LOG, entry._id);
    return { created: true, findingId: doc._id };
  }

  /** The finding id of a fingerprint, if one was ever claimed (creating it if its writer died). */
  async byFingerprint(fp: string): Promise<string | undefined> {
    const entry = await this.log.findOne({ _id: fp });
    if (!entry) return undefined;
    await this.ensureCreated(entry);
    return entry.finding_id;
  }

  /** Inserting the first document twice is harmless: the second insert is a duplicate. */
  private async ensureCreated(entry: LogDoc): Promise<void> {
    if (!entry.doc) return;
    try {
      await this.findings.insertOne(entry.doc);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }

  private async applyEntry(entry: LogDoc): Promise<void> {
    if (entry.kind === "create") return this.ensureCreated(entry);
    // Conditional on the previous revision: a stale roll-forward never overwrites a newer one.
    await this.findings.updateOne({ _id: entry.finding_id, rev: entry.rev - 1 } as Filter<FindingDoc>, {
      $set: { ...entry.set, rev: entry.rev } as Document,
    });
  }

  /**
   * Applies `decide` to the current state of one finding of the organization, serialised with
   * every other writer (see above). `decide` may run several times (on contention) and returns
   * null for "no change". Resolves to the finding after the change, or null when the finding
   * does not exist in this organization.
   */
  async mutate(orgId: string, id: string, decide: (f: FindingDoc) => Change | null): Promise<{ doc: FindingDoc; changed: boolean } | null> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const current = await this.get(orgId, id);
      if (!current) return null;
      const change = decide(current);
      if (!change) return { doc: current, changed: false };
      const now = new Date();
      const rev = current.rev + 1;
      const entry: LogDoc = {
        _id: `${id}#${rev}`,
        kind: "change",
        finding_id: id,
        org_id: orgId,
        rev,
        set: change.set,
        created_at: now,
        ...outboxFields(this.events(id, change, now)),
      };
      try {
        await this.log.insertOne(entry);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        await this.waitOrRollForward(entry._id);
        continue;
      }
      await this.applyEntry(entry);
      if (entry.outbox_pending) await this.outbox.flushSoon(FINDING_LOG, entry._id);
      return { doc: { ...current, ...change.set, rev } as FindingDoc, changed: true };
    }
    throw new Error(`finding ${id}: too much write contention`);
  }

  /** Another writer holds the claim: give it time, and finish its change if it died. */
  private async waitOrRollForward(claimId: string): Promise<void> {
    const claim = await this.log.findOne({ _id: claimId });
    if (claim && Date.now() - claim.created_at.getTime() > STALE_CLAIM_MS) {
      this.logger.warn({ claim: claimId }, "rolling forward a change whose writer stopped");
      await this.applyEntry(claim);
      return;
    }
    await sleep(3 + Math.random() * 15);
  }

  /**
   * The relay: publishes events whose writer died before flushing, after making sure the change
   * they describe is applied (events never run ahead of the stored state). Young entries are
   * left to their writers' own flush.
   */
  async relayOnce(minAgeMs = 3_000): Promise<number> {
    const cutoff = new Date(Date.now() - minAgeMs);
    const pending = await this.log.find({ outbox_pending: true, created_at: { $lt: cutoff } }).limit(500).toArray();
    for (const entry of pending) {
      if (entry.kind === "change") {
        const f = await this.findings.findOne({ _id: entry.finding_id }, { projection: { rev: 1 } });
        if (f && f.rev < entry.rev) await this.applyEntry(entry);
      } else {
        await this.ensureCreated(entry);
      }
      await this.outbox.flush(FINDING_LOG, entry._id);
    }
    return pending.length;
  }

  /** Change entries are only needed until applied and published; fingerprint claims stay. */
  async pruneLog(olderThanMs = 3_600_000): Promise<number> {
    const res = await this.log.deleteMany({ kind: "change", outbox_pending: false, created_at: { $lt: new Date(Date.now() - olderThanMs) } });
    return res.deletedCount;
  }
}
