import { isDuplicateKey, Topics, withOutbox, type KafkaBus, type Logger, type PendingEvent } from "@vulnscan/kit";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { LRUCache } from "lru-cache";
import { upTo } from "@vulnscan/kit/lru";
import type { Collection, Db, Document } from "mongodb";
import { setTimeout as sleep } from "node:timers/promises";
import type { Change } from "../domain/changes.js";
import { foundEvents, type FindingEvent } from "../domain/events.js";
import type { Changed, FindingRepository, Holder } from "../domain/ports.js";
import { contributionOf, deltaOf, type Delta } from "../domain/rollup.js";
import type { FindingDoc } from "../domain/types.js";
import { creationEvent, pendingFindingEvent } from "../events/finding-events.js";
import type { OrgVersions } from "@vulnscan/kit";
import { FINDINGS } from "./indexes.js";
import { Rollups, type Entry } from "./rollups.js";

/*
 * Findings on MongoDB. A write is one single-document update of the finding, holding its events
 * (the kit's outbox fields) and its rollup entry (rollups.ts), made only onto the state it was
 * decided on: the update is conditional on the revision read (`rev`), and a writer that finds
 * it moved reads again and decides again. Events are published right after the write and taken
 * out of the outbox; what a crash leaves there the kit's Outbox relay publishes (consumers
 * de-duplicate by envelope id). New findings are one unordered bulk insert; the unique
 * `fingerprint` index lets exactly one finding per fingerprint in.
 */

/** A finding as stored: the domain's document, its write revision, its pending events and rollup entries. */
export type StoredFinding = FindingDoc & { rev?: number; outbox?: PendingEvent[]; outbox_pending?: boolean; rollup_pending?: string[] };

/** What only storage reads (the domain gets the rest). */
export const STORAGE_FIELDS = { outbox: 0, outbox_pending: 0, rollup_pending: 0 } as const;
/**
 * Fingerprint → finding holders remembered in memory. The mapping never changes once written,
 * so a rescan of known targets goes straight to the update. 200,000 entries is about 40 MB at most.
 */
const HOLDER_CACHE_SIZE = 200_000;
const CONCURRENCY = 16;
const MAX_ROUNDS = 200;

/** `fn` over `items`, CONCURRENCY at a time: each one's result or error. */
async function each<T, R>(items: T[], fn: (x: T) => Promise<R>): Promise<(R | Error)[]> {
  const out: (R | Error)[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++)
      out[i] = await fn(items[i]!).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return out;
}

export class FindingStore implements FindingRepository {
  readonly findings: Collection<StoredFinding>;
  readonly rollups: Rollups;
  private readonly holders = new LRUCache<string, string>(upTo(HOLDER_CACHE_SIZE));
  /** The last creation's release (its rollup intent and guards going), in flight after its batch is answered. */
  private releasing: Promise<void> = Promise.resolve();

  constructor(
    db: Db,
    private readonly kafka: Pick<KafkaBus, "publishRawMany">,
    private readonly logger: Logger,
    private readonly topic: string = Topics.findingEvents,
    /** Moved after every write that changes what lists show (cached-lists.ts); none in tests that read no cached lists. */
    private readonly versions?: Pick<OrgVersions, "bump">,
  ) {
    this.findings = db.collection<StoredFinding>(FINDINGS);
    this.rollups = new Rollups(
      db,
      logger,
      (ids) => this.announce(ids),
      (orgIds) => this.moved(orgIds),
    );
  }

  async get(orgId: string, id: string): Promise<StoredFinding | null> {
    return this.findings.findOne({ _id: id, org_id: orgId }, { projection: STORAGE_FIELDS });
  }

  /** Waits for the release in flight and drops the released intents' guards, so a stopping service leaves no finished intent to a takeover. */
  async settle(): Promise<void> {
    await this.releasing;
    await this.rollups.dropReleased();
  }

  rememberedHolders(fps: string[]): Map<string, string> {
    return new Map(fps.flatMap((fp) => (this.holders.has(fp) ? [[fp, this.holders.get(fp)!] as const] : [])));
  }

  /**
   * One bulk insert; a fingerprint held already (the unique index refuses its insert) keeps its
   * holder. The new findings' events are published before their rollup intent is finished: until
   * then a takeover (rollups.ts) announces them again from the stored findings, with the same ids.
   */
  async create(found: { doc: FindingDoc; events: FindingEvent[] }[]): Promise<Map<string, Holder>> {
    const out = new Map<string, Holder>();
    if (found.length === 0) return out;
    const intent = this.rollups.intent();
    const entries = await intent.add(found.map(({ doc }) => ({ org: doc.org_id, f: doc._id, d: { add: contributionOf(doc) } })));
    const docs = found.map(({ doc }) => ({ ...doc, rev: 1 }));
    // Refused inserts (fingerprints held already): the holders say which.
    const refused = await this.findings.insertMany(docs, { ordered: false }).then(
      () => false,
      (err: unknown) => isDuplicateKey(err) || Promise.reject(err),
    );
    const fps = { $in: docs.map((d) => d.fingerprint) };
    const held = refused ? await this.findings.find({ fingerprint: fps }, { projection: { fingerprint: 1 } }).toArray() : docs;
    const holders = new Map(held.map((h) => [h.fingerprint, h._id]));
    for (const [i, { doc }] of found.entries()) {
      const holder = holders.get(doc.fingerprint);
      if (!holder) throw new Error(`finding ${doc._id} was neither stored nor refused for its fingerprint`);
      out.set(doc.fingerprint, { holder, created: holder === doc._id });
      this.holders.set(doc.fingerprint, holder);
      if (holder === doc._id) intent.committed.push(entries[i]!);
    }
    const created = found.filter(({ doc }) => out.get(doc.fingerprint)!.created);
    await this.moved(created.map(({ doc }) => doc.org_id));
    const events = created.flatMap((x) => x.events.map((e) => creationEvent(this.topic, e)));
    // Counted while the events go out; the intent goes only once both are done (rollups.ts).
    const [sent, counted] = await Promise.all([this.send(events), this.rollups.count(intent)]);
    if (sent && counted) {
      // Nothing waits on the release (the counts stand, a crash before it only leaves the intent to a
      // takeover): it runs while the next batch is read and inserted, one at a time. Chained, so
      // `settle` waits for every one of them when batches run side by side.
      const before = this.releasing;
      this.releasing = before.then(() =>
        this.rollups
          .release(intent)
          .catch((err: unknown) => this.logger.warn({ err: (err as Error).message, intent: intent.id }, "rollup intent left to the housekeeping pass")),
      );
      await before;
    }
    return out;
  }

  /** Announces created findings again from their stored state, through the outbox (a takeover of their intent). */
  private async announce(ids: string[]): Promise<void> {
    const docs = await this.findings.find({ _id: { $in: ids } }, { projection: STORAGE_FIELDS }).toArray();
    await Promise.all(
      docs.map((f) =>
        this.findings.updateOne(
          { _id: f._id },
          withOutbox(
            {},
            foundEvents(f).map((e) => creationEvent(this.topic, e)),
          ),
        ),
      ),
    );
  }

  async change(orgId: string, ids: string[], decide: (f: FindingDoc) => Change | null): Promise<Map<string, Changed>> {
    const out = new Map<string, Changed>();
    const published: { _id: string; outbox: PendingEvent[] }[] = [];
    let intent = this.rollups.intent();
    let todo = [...new Set(ids)];
    let wrote = false;
    for (let round = 1; todo.length > 0; round++) {
      if (round > MAX_ROUNDS) {
        for (const id of todo) out.set(id, new Error(`finding ${id}: too much write contention`));
        break;
      }
      if (round > 1) await sleep(3 + Math.random() * 15);
      if (!intent.live()) {
        await this.rollups.finish(intent);
        intent = this.rollups.intent();
      }
      const plans: { f: StoredFinding; c: Change; d: Delta | null; entry?: Entry }[] = [];
      for (const [i, f] of (await each(todo, (id) => this.get(orgId, id))).entries()) {
        const c = f && !(f instanceof Error) ? decide(f) : null;
        if (c && f && !(f instanceof Error)) plans.push({ f, c, d: deltaOf(contributionOf(f), contributionOf({ ...f, ...c.set })) });
        else out.set(todo[i]!, f);
      }
      const moving = plans.filter((p) => p.d);
      for (const [i, entry] of (await intent.add(moving.map((p) => ({ org: orgId, f: p.f._id, d: p.d! })))).entries()) moving[i]!.entry = entry;
      const written = await each(plans, async ({ f, c, entry }) => {
        if (!intent.live()) return false; // the next round writes under a new intent
        const events = c.events.map((e) => pendingFindingEvent(this.topic, e));
        const update: Document = { $set: { ...c.set, rev: (f.rev ?? 0) + 1 }, ...(entry ? { $push: { rollup_pending: entry.id } } : {}) };
        // A document stored without a revision (seeded in bulk) is revision 0: `null` matches the missing field.
        const res = await this.findings.updateOne({ _id: f._id, rev: (f.rev ?? null) as number }, withOutbox(update, events));
        if (res.modifiedCount === 1 && events.length > 0) published.push({ _id: f._id, outbox: events });
        return res.modifiedCount === 1;
      });
      todo = [];
      for (const [i, { f, c, entry }] of plans.entries()) {
        const ok = written[i]!;
        if (ok === false) todo.push(f._id);
        else out.set(f._id, ok instanceof Error ? ok : ({ ...f, ...c.set, rev: (f.rev ?? 0) + 1 } as StoredFinding));
        if (ok === true) wrote = true;
        if (ok === true && entry) intent.committed.push(entry);
        if (ok instanceof Error && entry) intent.unsure = true;
      }
    }
    await this.rollups.finish(intent);
    if (wrote) await this.moved([orgId]);
    await this.publish(published);
    return out;
  }

  /** Moves the organizations' list versions before the write is answered (read-your-writes on every replica). */
  private async moved(orgIds: string[]): Promise<void> {
    if (!this.versions || orgIds.length === 0) return;
    // A failed bump leaves cached pages at most their maximum age (cached-lists.ts); the write stands.
    await this.versions.bump(orgIds).catch((err: unknown) => this.logger.warn({ err: (err as Error).message }, "list version not moved"));
  }

  /** Publishes events now; false when the broker refused (the caller leaves them to a relay). */
  private async send(events: PendingEvent[]): Promise<boolean> {
    if (events.length === 0) return true;
    try {
      await this.kafka.publishRawMany(
        events.map((e) => ({ topic: e.topic, key: e.key, value: Buffer.from(e.envelope.buffer), messageType: EventEnvelopeSchema.typeName })),
      );
      return true;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, "event publish failed; a relay will publish them");
      return false;
    }
  }

  /** Publishes the changed findings' new events and takes them out of their outboxes (else the kit's relay publishes them). */
  private async publish(docs: { _id: string; outbox: PendingEvent[] }[]): Promise<void> {
    if (!(await this.send(docs.flatMap((d) => d.outbox)))) return;
    const ids = { $in: docs.map((d) => d._id) };
    await this.findings.updateMany({ _id: ids }, { $pullAll: { outbox: docs.flatMap((d) => d.outbox) } });
    await this.findings.updateMany({ _id: ids, outbox: { $size: 0 } }, { $set: { outbox_pending: false } });
  }
}
