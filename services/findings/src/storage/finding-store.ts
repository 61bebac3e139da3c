import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { isDuplicateKey, outboxFields, pendingEvent, Topics, type KafkaBus, type Logger, type PendingEvent } from "@vulnscan/kit";
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { Binary, type Collection, type Db, type Document } from "mongodb";
import type { Change } from "../domain/changes.js";
import type { FindingRepository } from "../domain/ports.js";
import { foundEvents } from "../domain/events.js";
import { contributionOf, deltaOf, type Delta } from "../domain/rollup.js";
import type { FindingDoc } from "../domain/types.js";
import { FINDING_LOG, FINDINGS, FINGERPRINTS } from "./indexes.js";
import { duplicateIndexes, Rollups } from "./rollups.js";

/*
 * Writes without lost updates on a server whose updates are read-modify-write.
 *
 * FerretDB v1 (our test database) applies every update as read document → change it in Go →
 * write the whole document back, outside a transaction: measured here, 50 concurrent `$push`es
 * to one document kept 6, and concurrent `$set`s of different fields lose each other too. Only
 * duplicate-key inserts fail atomically. It also pushes only a plain `{_id: …}` filter down to
 * SQLite; any other filter scans the collection in Go (150 ms at 5,000 documents). So every
 * point read and write here is by `_id` alone, and every write to a finding is serialised by a
 * unique insert:
 *
 *   1. read the finding (revision n) and decide the change (pure domain code);
 *   2. claim revision n+1 by inserting `finding_log/<finding_id>#<n+1>`: the change itself and
 *      its pending events (the kit's outbox fields), in one single-document write — the commit
 *      point. Exactly one writer wins; the others re-read and decide again on the new state;
 *   3. apply the change to the finding (`$set` only, arrays set whole: applying it twice gives
 *      the same document);
 *   4. publish the events from the entry and mark it done; done entries are deleted a minute
 *      later (CLAIM_KEEP_MS). Keeping them matters: a writer that read revision n before the
 *      winner applied n+1 must still find `#<n+1>` taken, or it would overwrite the winner's
 *      change with one decided on the old state. A writer whose read is older than
 *      MAX_READ_AGE_MS reads again before it claims, so a minute is ample.
 *
 * A new finding is claimed by its fingerprint: the permanent `fingerprints/<fingerprint>` entry
 * (one per finding ever created, inserted before the finding) names the finding that holds it,
 * so racing scans create one finding and one set of events (createMany).
 *
 * finding_log only holds writes of the last minute, so the relay's scan of it stays cheap. A writer
 * that dies after step 2 is rolled forward by the next writer that finds its claim older than
 * STALE_CLAIM_MS, and by the relay, which applies before it publishes (events never run ahead
 * of the stored state); consumers de-duplicate by envelope id, so a second publish is harmless.
 */

export interface LogDoc {
  _id: string;
  kind: "change";
  finding_id: string;
  org_id: string;
  rev: number;
  /** The fields set. */
  set?: Change["set"];
  created_at: Date;
  /** Set once applied and published; null while in flight. */
  done_at: Date | null;
  outbox: PendingEvent[];
  outbox_pending: boolean;
  /** change: what it does to the rollups (recorded under this entry's id, see storage/rollups.ts). */
  rollup?: Delta;
}

export interface FingerprintDoc {
  _id: string;
  finding_id: string;
  org_id: string;
  created_at: Date;
}

const STALE_CLAIM_MS = 5_000;
const CLAIM_KEEP_MS = 60_000;
const MAX_READ_AGE_MS = 20_000;
const MAX_ATTEMPTS = 400;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * Fingerprint → finding holders remembered in memory. The mapping never changes once written
 * (one finding per fingerprint, ever), so a remembered holder is always right, and a rescan of
 * known targets skips its de-duplication reads. 200,000 entries is about 40 MB at most.
 */
const HOLDER_CACHE_SIZE = 200_000;

/** The findings on MongoDB (FindingRepository), with their write log, fingerprint claims and rollups. */
export class FindingStore implements FindingRepository {
  readonly findings: Collection<FindingDoc>;
  readonly log: Collection<LogDoc>;
  readonly fingerprints: Collection<FingerprintDoc>;

  readonly rollups: Rollups;
  private readonly holders = new LRUCache<string, string>({ max: HOLDER_CACHE_SIZE });

  constructor(
    readonly db: Db,
    private readonly kafka: Pick<KafkaBus, "publishRaw" | "publishRawMany">,
    private readonly logger: Logger,
    private readonly eventsTopic: string = Topics.findingEvents,
  ) {
    this.findings = db.collection<FindingDoc>(FINDINGS);
    this.log = db.collection<LogDoc>(FINDING_LOG);
    this.fingerprints = db.collection<FingerprintDoc>(FINGERPRINTS);
    this.rollups = new Rollups(db, logger);
  }

  /** The holders of the fingerprints this replica has seen (from memory; the others may exist or not). */
  rememberedHolders(fps: string[]): Map<string, string> {
    const out = new Map<string, string>();
    for (const fp of fps) {
      const holder = this.holders.get(fp);
      if (holder) out.set(fp, holder);
    }
    return out;
  }

  /**
   * Creates the findings of fingerprints not known to exist, de-duplicating without reading
   * first. Each candidate claims its fingerprint by a bulk insert into `fingerprints` (`_id` =
   * fingerprint, the atomic arbiter: exactly one claim per fingerprint ever succeeds); the
   * winners' findings follow in one bulk insert; then their rollup deltas (source `c:<id>`) and
   * vulnerability.found events. A crash after the claim is finished by the redelivery of the
   * creating detection: it finds the claim, waits out the claim's staleness, creates the claimed
   * finding (roll-forward, see holderFor) and `finishCreations` (idempotent; event ids derive
   * from the finding). Returns, per fingerprint, the finding that holds it and whether this call
   * created it.
   */
  async createMany(docs: FindingDoc[]): Promise<Map<string, { holder: string; created: boolean }>> {
    const out = new Map<string, { holder: string; created: boolean }>();
    if (docs.length === 0) return out;
    let lostClaims = new Set<number>();
    try {
      await this.fingerprints.insertMany(
        docs.map((d) => ({ _id: d.fingerprint, finding_id: d._id, org_id: d.org_id, created_at: d.created_at })),
        { ordered: false },
      );
    } catch (err) {
      lostClaims = duplicateIndexes(err);
    }
    const claimed = docs.filter((_, i) => !lostClaims.has(i));
    let lostInserts = new Set<number>();
    try {
      if (claimed.length > 0) await this.findings.insertMany(claimed, { ordered: false });
    } catch (err) {
      lostInserts = duplicateIndexes(err);
    }
    const won = claimed.filter((_, i) => !lostInserts.has(i));
    await this.finishCreations(won);
    for (const d of won) out.set(d.fingerprint, { holder: d._id, created: true });
    // Claims lost to an existing holder, and claimed findings someone else stored first (a
    // roll-forward of a claim thought dead): resolved one by one, in parallel.
    const rest = [...docs.filter((_, i) => lostClaims.has(i)), ...claimed.filter((_, i) => lostInserts.has(i))];
    await Promise.all(
      rest.map(async (d) => {
        out.set(d.fingerprint, await this.holderFor(d));
      }),
    );
    return out;
  }

  /**
   * The finding that holds `candidate`'s fingerprint. Its claim names it; if that finding is not
   * stored yet, its creator is between its claim and its insert: wait, and once the claim is
   * older than STALE_CLAIM_MS (the creator stopped) create it from `candidate` under the claimed
   * id. A finding stored without a claim (by an earlier version) is found by its unique
   * fingerprint and the claim is written for it.
   */
  private async holderFor(candidate: FindingDoc): Promise<{ holder: string; created: boolean }> {
    const fp = candidate.fingerprint;
    for (let i = 0; ; i++) {
      const claim = await this.fingerprints.findOne({ _id: fp });
      if (!claim) {
        const f = await this.findings.findOne({ fingerprint: fp }, { projection: { _id: 1, created_at: 1 } });
        if (!f) throw new Error(`fingerprint ${fp}: neither claimed nor held`);
        await this.fingerprints.insertOne({ _id: fp, finding_id: f._id, org_id: candidate.org_id, created_at: f.created_at }).catch((err) => {
          if (!isDuplicateKey(err)) throw err;
        });
        continue;
      }
      const holder = claim.finding_id;
      if (await this.findings.findOne({ _id: holder }, { projection: { _id: 1 } })) {
        this.holders.set(fp, holder);
        return { holder, created: false };
      }
      if (Date.now() - claim.created_at.getTime() > STALE_CLAIM_MS) {
        this.logger.warn({ fingerprint: fp, finding_id: holder }, "creating a claimed finding whose creator stopped");
        const doc = { ...candidate, _id: holder };
        try {
          await this.findings.insertOne(doc);
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          continue; // stored meanwhile (by its creator, or by the unique fingerprint's holder)
        }
        await this.finishCreations([doc]);
        return { holder, created: true };
      }
      await sleep(Math.min(25 + i * 25, 500));
    }
  }

  /** The steps after a creation's insert (also the redelivery's roll-forward): all idempotent. */
  async finishCreations(docs: FindingDoc[]): Promise<void> {
    if (docs.length === 0) return;
    const byOrg = new Map<string, FindingDoc[]>();
    for (const d of docs) byOrg.set(d.org_id, [...(byOrg.get(d.org_id) ?? []), d]);
    // Independent and idempotent steps, so they run together: the finding is stored, which is
    // all either needs, and a crash in either is finished by the redelivery.
    await Promise.all([
      ...[...byOrg].map(async ([org, list]) => {
        await this.rollups.record(
          org,
          list.map((d) => ({ source: `c:${d._id}`, delta: { add: contributionOf(d) } })),
        );
        this.touched(org);
      }),
      this.kafka.publishRawMany(
        docs
          .flatMap((d) => creationEvents(d, this.eventsTopic))
          .map((e) => ({ topic: e.topic, key: e.key, value: Buffer.from(e.envelope.buffer), messageType: EventEnvelopeSchema.typeName })),
      ),
    ]);
    for (const d of docs) this.holders.set(d.fingerprint, d._id);
  }

  private events(findingId: string, change: { events: Change["events"] }, at: Date): PendingEvent[] {
    return change.events.map((e) => pendingEvent(this.eventsTopic, findingId, e, at));
  }

  /** One finding of the organization (by `_id`, then the org checked: the only pushed-down filter). */
  async get(orgId: string, id: string): Promise<FindingDoc | null> {
    const f = await this.findings.findOne({ _id: id });
    return f && f.org_id === orgId ? f : null;
  }

  /** The change's rollup delta, recorded once under the claim's id (retries and roll-forwards fail on it). */
  private async recordRollup(entry: LogDoc): Promise<void> {
    if (!entry.rollup) return;
    await this.rollups.record(entry.org_id, [{ source: entry._id, delta: entry.rollup }]);
    this.touched(entry.org_id);
  }

  private async applyChange(entry: LogDoc): Promise<void> {
    await this.findings.updateOne({ _id: entry.finding_id }, { $set: { ...entry.set, rev: entry.rev } as Document });
  }

  /**
   * Publishes an entry's events (stored bytes, stored ids), then marks it done (it is deleted
   * after CLAIM_KEEP_MS).
   */
  private async publishAndClear(entry: LogDoc): Promise<void> {
    await this.kafka.publishRawMany(
      entry.outbox.map((ev) => ({ topic: ev.topic, key: ev.key, value: Buffer.from(ev.envelope.buffer), messageType: EventEnvelopeSchema.typeName })),
    );
    await this.log.updateOne({ _id: entry._id }, { $set: { outbox: [], outbox_pending: false, done_at: new Date() } });
  }

  /** Publishing may fail (broker down): the entry stays and the relay retries. */
  private async publishSoon(entry: LogDoc): Promise<void> {
    await this.publishAndClear(entry).catch((err) =>
      this.logger.warn({ err: (err as Error).message, entry: entry._id }, "event publish failed; relay will retry"),
    );
  }

  /**
   * Applies `decide` to the current state of one finding of the organization, serialised with
   * every other writer (see above). `decide` may run several times (on contention) and returns
   * null for "no change". Resolves to the finding after the change, or null when the finding
   * does not exist in this organization.
   */
  async mutate(orgId: string, id: string, decide: (f: FindingDoc) => Change | null): Promise<{ doc: FindingDoc; changed: boolean } | null> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const readAt = Date.now();
      const current = await this.get(orgId, id);
      if (!current) return null;
      const change = decide(current);
      if (!change) return { doc: current, changed: false };
      const now = new Date();
      if (now.getTime() - readAt > MAX_READ_AGE_MS) continue; // too old to claim on (see above)
      const rev = current.rev + 1;
      const entry: LogDoc = {
        _id: `${id}#${rev}`,
        kind: "change",
        finding_id: id,
        org_id: orgId,
        rev,
        set: change.set,
        created_at: now,
        done_at: null,
        ...outboxFields(this.events(id, change, now)),
      };
      const delta = deltaOf(contributionOf(current), contributionOf({ ...current, ...change.set } as FindingDoc));
      if (delta) entry.rollup = delta;
      try {
        await this.log.insertOne(entry);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        await this.waitOrRollForward(entry._id);
        continue;
      }
      await this.applyChange(entry);
      await this.recordRollup(entry);
      await this.publishSoon(entry);
      return { doc: { ...current, ...change.set, rev } as FindingDoc, changed: true };
    }
    throw new Error(`finding ${id}: too much write contention`);
  }

  /** Another writer holds the claim: give it time, and finish its write if it died. */
  private async waitOrRollForward(claimId: string): Promise<void> {
    const claim = await this.log.findOne({ _id: claimId });
    if (claim && Date.now() - claim.created_at.getTime() > STALE_CLAIM_MS) {
      this.logger.warn({ claim: claimId }, "rolling forward a write whose writer stopped");
      await this.rollForward(claim);
      return;
    }
    await sleep(3 + Math.random() * 15);
  }

  /** Finishes a claimed write: apply if not applied yet, publish, clear. */
  private async rollForward(entry: LogDoc): Promise<void> {
    // A claim of n+1 succeeds only for a writer that read revision n (claims are kept, see
    // above), so a finding at n+1 or later has this change applied already.
    const f = await this.findings.findOne({ _id: entry.finding_id }, { projection: { rev: 1 } });
    if (f && f.rev === entry.rev - 1) await this.applyChange(entry);
    await this.recordRollup(entry);
    await this.publishAndClear(entry);
  }

  /**
   * The relay: forgets done claims after CLAIM_KEEP_MS and finishes writes whose writer died or
   * could not publish. Young entries are left to their writers.
   */
  async relayOnce(minAgeMs = STALE_CLAIM_MS): Promise<number> {
    const now = Date.now();
    await this.log.deleteMany({ done_at: { $lt: new Date(now - CLAIM_KEEP_MS) } });
    const pending = await this.log
      .find({ done_at: null, created_at: { $lt: new Date(now - minAgeMs) } })
      .limit(500)
      .toArray();
    for (const entry of pending) await this.rollForward(entry);
    // Fold what writers left unfolded (readers add unfolded slots, so this only keeps reads short).
    await this.rollups.housekeeping(this.activeOrgs.splice(0));
    return pending.length;
  }

  /** Organizations written since the last relay pass (their rollups get folded by it). */
  private readonly activeOrgs: string[] = [];
  touched(org: string): void {
    if (!this.activeOrgs.includes(org)) this.activeOrgs.push(org);
  }
}

/**
 * vulnerability.found (and .critical/.high) of a new finding, with ids derived from the finding
 * and the event type, so the redelivery that finishes an interrupted creation republishes the
 * very same events (consumers de-duplicate by id). Built from the stored finding (DESIGN §1: an
 * event may be re-derived from stored state).
 */
export function creationEvents(f: FindingDoc, topic: string): PendingEvent[] {
  return foundEvents(f).map((init) => {
    const h = createHash("sha256").update(`${f._id}:${init.type}`).digest("hex");
    const id = `evt_${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
    const envelope = create(EventEnvelopeSchema, {
      id,
      type: init.type,
      orgId: init.orgId,
      payload: init.payload,
      occurredAt: timestampFromDate(f.created_at),
    });
    return { id, topic, key: f._id, type: init.type, envelope: new Binary(toBinary(EventEnvelopeSchema, envelope)), created_at: f.created_at };
  });
}
