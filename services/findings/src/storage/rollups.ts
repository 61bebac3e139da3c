import { upsertOrUpdate, type Logger } from "@vulnscan/kit";
import type { Collection, Db, Document, Filter } from "mongodb";
import { randomUUID } from "node:crypto";
import type { FindingCounts, TargetCounts } from "../domain/ports.js";
import {
  ALL_TARGETS,
  CONTRIBUTION_FIELDS,
  contributionOf,
  countsByScope,
  dayOf,
  emptyCounts,
  keyOf,
  pruneResolvedDays,
  scopesOf,
  statsOf,
  statsScopes,
  sumCounts,
  targetCountsOf,
} from "../domain/rollup.js";
import type { Counts, Delta } from "../domain/rollup.js";
import type { Stats } from "../domain/stats.js";
import type { FindingDoc } from "../domain/types.js";
import { listVersions } from "./cached-lists.js";
import { FINDINGS, ROLLUP_INTENTS, ROLLUPS } from "./indexes.js";

/*
 * Counts per scope (`<org>|<scope>|<who>`, domain/rollup.ts) with plain `$inc`, exact although
 * a write changes two documents, the finding and then its counts, without a transaction.
 *
 * A write first stores its intent (`rollup_intents`): per finding it may create or change, what
 * that moves in the counts, under an entry id. A creation is committed when its finding is
 * stored; a change's update takes the entry id (`rollup_pending`), so it is committed exactly
 * when its finding holds it. Then the committed entries are applied: one `$inc` upsert per scope
 * document, conditional on the intent's id not being in the document's `m` and adding it (a
 * second application adds nothing), and the heads' day bounds (`$min`/`$max`); then the writer
 * deletes the intent; the findings drop the entry ids and the scope documents the guards later,
 * the released intents' together (`dropReleased`, each housekeeping pass and on stop): a scope
 * document is large, and one `$pull` for several intents costs what one for each did.
 *
 * An intent is its writer's for LEASE_MS (it writes nothing under it after half of that). An
 * older one is a writer that stopped: the housekeeping pass (`recover`) leases it, counts and
 * announces it, marks it applied, and cleans up. The guards go only once no takeover can count
 * the intent again (it is deleted, or marked applied), so each committed entry counts once.
 */

export const LEASE_MS = 10_000;

export interface Entry {
  id: string;
  org: string;
  /** The finding. */
  f: string;
  d: Delta;
}

/**
 * An intent as stored. Its entries are opaque to queries (only `_id` and `until` are read by the
 * database), so each `add` stores its entries as one JSON text: FerretDB v1 encodes and decodes
 * an array of 500 entry documents field by field, 30–36 ms for each insert and each delete, where
 * the same entries as one string take 4 ms.
 */
interface IntentDoc {
  _id: string;
  /** Entry documents themselves in an intent written by an earlier version. */
  entries: (string | Entry)[];
  until: Date;
  /** Set once every committed entry is counted (only the clean-up is left). */
  applied?: boolean;
}

export interface RollupDoc {
  _id: string;
  org_id: string;
  c?: Counts;
  /** Intents applied here whose clean-up is not done yet. */
  m?: string[];
  /** Head (`<org>`) only: the organization's first and last detection days. */
  first_day?: string;
  last_day?: string;
}

/** An intent's id and entries, as its writer or a takeover holds them. */
interface Written {
  _id: string;
  entries: Entry[];
}

const scopeIds = (e: Entry) => scopesOf((e.d.add ?? e.d.remove)!).map((s) => `${e.org}|${s}`);

/** Counts as `$inc` paths. */
function incOf(c: Counts): Record<string, number> {
  const out: Record<string, number> = { "c.n": c.n, "c.rn": c.rn, "c.rmin": c.rmin };
  for (const k of ["sev", "st", "tool", "ss", "rday", "br"] as const) for (const [key, v] of Object.entries(c[k])) out[`c.${k}.${key}`] = v;
  return out;
}

/** One write's intent, as its writer holds it. */
export class Intent {
  readonly id = `ri_${randomUUID()}`;
  readonly entries: Entry[] = [];
  /** The entries whose finding updates succeeded. */
  readonly committed: Entry[] = [];
  /** An update under it failed without saying whether it was made: `recover` reads what was. */
  unsure = false;
  private readonly start = Date.now();

  constructor(private readonly coll: Collection<IntentDoc>) {}

  live(): boolean {
    return Date.now() - this.start < LEASE_MS / 2;
  }

  /** Stores entries before the finding updates that commit them; returns them with their ids. */
  async add(items: Omit<Entry, "id">[]): Promise<Entry[]> {
    const fresh = items.map((x, i) => ({ id: `${this.id}:${this.entries.length + i}`, ...x }));
    const until = new Date(this.start + LEASE_MS);
    // The first entries make the document (an insert: FerretDB's upsert reads before it writes).
    const text = JSON.stringify(fresh);
    if (fresh.length > 0 && this.entries.length === 0) await this.coll.insertOne({ _id: this.id, entries: [text], until });
    else if (fresh.length > 0) await this.coll.updateOne({ _id: this.id }, { $push: { entries: text } });
    this.entries.push(...fresh);
    return fresh;
  }
}

export class Rollups implements FindingCounts {
  private readonly docs: Collection<RollupDoc>;
  private readonly intents: Collection<IntentDoc>;
  private readonly findings: Collection<{ _id: string; rollup_pending?: string[] }>;
  /** Deleted intents whose guards are still to drop. */
  private released: Written[] = [];
  private dropping: Promise<void> = Promise.resolve();

  /**
   * `announce`: how a takeover announces the findings its intent created (their events may not
   * have gone out). `applied`: told the organizations whose counts moved, once they did (totals
   * kept in memory, cached-lists.ts, are read again).
   */
  constructor(
    db: Db,
    private readonly logger: Logger,
    private readonly announce: (findingIds: string[]) => Promise<void> = async () => {},
    private readonly applied: (orgIds: string[]) => Promise<void> = async () => {},
  ) {
    this.docs = db.collection<RollupDoc>(ROLLUPS);
    this.intents = db.collection<IntentDoc>(ROLLUP_INTENTS);
    this.findings = db.collection(FINDINGS);
  }

  intent(): Intent {
    return new Intent(this.intents);
  }

  /**
   * Applies a writer's committed entries, unless its lease is running out or it is unsure (then
   * `recover` does). The writer's events went out before this (finding-store.ts), so nothing is
   * left to do once they are counted: the intent goes first, and with it any takeover that could
   * count it again, then the guards. A crash before the delete leaves the intent to a takeover,
   * which counts nothing twice (the guards hold) and announces with the same event ids; after it,
   * at most the guards stay (ids never reused). Marking a 500-entry intent applied cost about
   * 100 ms of each ingestion batch on FerretDB.
   */
  async finish(intent: Intent): Promise<void> {
    if (await this.count(intent)) await this.release(intent);
  }

  /** Counts a writer's committed entries (see `finish`); false when it leaves them to `recover`. */
  async count(intent: Intent): Promise<boolean> {
    if (intent.entries.length === 0 || !intent.live() || intent.unsure) return false;
    await this.countEntries(intent.id, intent.committed);
    return true;
  }

  /** After `count`, once the writer's events are out: the intent goes; its guards with the next `dropReleased`. */
  async release(intent: Intent): Promise<void> {
    await this.intents.deleteOne({ _id: intent.id });
    this.released.push({ _id: intent.id, entries: intent.entries });
  }

  /**
   * Drops the guards of the intents released since the last call. They are needed only while an
   * intent exists (a takeover could count it again); left over (a crash before this) they only
   * take room, as the ids are never reused.
   */
  async dropReleased(): Promise<void> {
    const intents = this.released.splice(0);
    // After the drops under way (a caller that stops waits for every one of them).
    const drop = this.dropping.then(() => (intents.length > 0 ? this.dropGuards(intents) : undefined));
    this.dropping = drop.catch(() => {
      this.released.push(...intents); // tried again with the next
    });
    await drop;
  }

  /** The housekeeping pass: takes over the intents of writers that stopped. */
  async recover(): Promise<number> {
    const now = new Date();
    const stale = await this.intents.find({ until: { $lt: now } }, { projection: { _id: 1 }, limit: 100 }).toArray();
    for (const { _id } of stale) {
      const doc = await this.intents.findOneAndUpdate({ _id, until: { $lt: now } }, { $set: { until: new Date(Date.now() + LEASE_MS) } });
      if (!doc) continue; // another replica took it
      const intent: Written = { _id, entries: doc.entries.flatMap((x) => (typeof x === "string" ? (JSON.parse(x) as Entry[]) : [x])) };
      this.logger.warn({ intent: _id }, "applying the rollup changes of a writer that stopped");
      if (doc.applied) {
        await this.cleanUp(intent); // applied and announced
        continue;
      }
      // A creation is committed when its finding exists (ids are never reused); a change when its finding holds the entry.
      const held = await this.findings.find({ _id: { $in: intent.entries.map((e) => e.f) } }, { projection: { rollup_pending: 1 } }).toArray();
      const committed = new Set([...held.map((f) => f._id), ...held.flatMap((f) => f.rollup_pending ?? [])]);
      const mine = intent.entries.filter((e) => committed.has(e.d.remove ? e.id : e.f));
      await this.apply(intent, mine, () => this.announce(mine.filter((e) => !e.d.remove).map((e) => e.f)));
    }
    return stale.length;
  }

  /** A takeover's application: counted, announced, marked applied, then its guards and itself go. */
  private async apply(intent: Written, committed: Entry[], then: () => Promise<void>): Promise<void> {
    await this.countEntries(intent._id, committed);
    await then();
    // From here on the guards may go: a takeover finds the intent applied and only cleans up.
    await this.intents.updateOne({ _id: intent._id }, { $set: { applied: true } });
    await this.cleanUp(intent);
  }

  /** One guarded `$inc` upsert per scope document (a second application adds nothing), then the organizations are told. */
  private async countEntries(intentId: string, committed: Entry[]): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const org of new Set(committed.map((e) => e.org))) {
      const terms = committed.filter((e) => e.org === org).flatMap((e) => [[e.d.remove, -1] as const, [e.d.add, 1] as const]);
      for (const [scope, c] of countsByScope(terms)) {
        const update = { $inc: incOf(c), $push: { m: intentId }, $setOnInsert: { org_id: org } };
        writes.push(this.upsert({ _id: `${org}|${scope}`, m: { $ne: intentId } }, update));
      }
      const days = terms.flatMap(([x]) => (x ? [x.day] : [])).sort();
      writes.push(this.upsert({ _id: org }, { $min: { first_day: days[0] }, $max: { last_day: days.at(-1) }, $setOnInsert: { org_id: org } }));
    }
    await Promise.all(writes);
    await this.applied([...new Set(committed.map((e) => e.org))]);
  }

  private async cleanUp(intent: Written): Promise<void> {
    await this.dropGuards([intent]);
    await this.intents.deleteOne({ _id: intent._id });
  }

  /** The entry ids the changed findings hold and the intents' ids in their scope documents. */
  private async dropGuards(intents: Written[]): Promise<void> {
    const entries = intents.flatMap((i) => i.entries);
    const changes = entries.filter((e) => e.d.remove);
    await Promise.all([
      changes.length > 0
        ? this.findings.updateMany({ _id: { $in: [...new Set(changes.map((e) => e.f))] } }, { $pullAll: { rollup_pending: changes.map((e) => e.id) } })
        : undefined,
      this.docs.updateMany({ _id: { $in: [...new Set(entries.flatMap(scopeIds))] } }, { $pullAll: { m: intents.map((i) => i._id) } }),
    ]);
  }

  /** Also what the guard `m` does to an applied intent: the upsert meets the `_id`, and the plain update matches nothing. */
  private async upsert(filter: Filter<RollupDoc>, update: Document): Promise<void> {
    await upsertOrUpdate((upsert) => this.docs.updateOne(filter, update, { upsert }));
  }

  /** The summed counts of scope documents of one target ("*" = all). */
  private async countsOf(org: string, scopes: string[], who: string): Promise<Counts> {
    const total = emptyCounts();
    if (scopes.length === 0) return total;
    const docs = await this.docs.find({ _id: { $in: scopes.map((s) => `${org}|${s}|${who}`) } }, { projection: { c: 1 } }).toArray();
    for (const d of docs) sumCounts(total, { ...emptyCounts(), ...d.c }); // `$inc` creates only the paths it moved
    return total;
  }

  /** The organization's statistics: its head (day bounds), then the scope documents the filter needs. */
  async stats(org: string, opts: { from?: Date; to?: Date; target?: string }): Promise<Stats> {
    const today = dayOf(new Date());
    const scopes = statsScopes((await this.docs.findOne({ _id: org })) ?? {}, opts, today);
    const who = opts.target === undefined ? ALL_TARGETS : keyOf(opts.target);
    const [range, week] = await Promise.all([this.countsOf(org, scopes.range, who), this.countsOf(org, scopes.week, who)]);
    return statsOf(range, week, today);
  }

  /** One all-time document per finding target, read by id: the counts are never computed from findings here. */
  async targetCounts(org: string, targets: string[]): Promise<TargetCounts> {
    const total = emptyCounts();
    const ids = [...new Set(targets.map((t) => `${org}|all|${keyOf(t)}`))];
    if (ids.length === 0) return targetCountsOf(total);
    for (const d of await this.docs.find({ _id: { $in: ids } }, { projection: { c: 1 } }).toArray()) sumCounts(total, { ...emptyCounts(), ...d.c });
    return targetCountsOf(total);
  }

  /** The list's total when the filter is one the rollups keep (one document read); undefined otherwise. */
  async total(org: string, f: { severity?: string; status?: string; tool?: string; target?: string; other: boolean }): Promise<number | undefined> {
    if (f.other || (f.tool !== undefined && (f.severity !== undefined || f.status !== undefined))) return undefined;
    const c = await this.countsOf(org, ["all"], f.target === undefined ? ALL_TARGETS : keyOf(f.target));
    if (f.tool !== undefined) return c.tool[keyOf(f.tool)] ?? 0;
    if (f.status !== undefined && f.severity !== undefined) return c.ss[`${f.status}|${f.severity}`] ?? 0;
    if (f.status !== undefined) return c.st[f.status] ?? 0;
    if (f.severity !== undefined) return c.sev[f.severity] ?? 0;
    return c.n;
  }
}

/**
 * Recounts an organization's rollups from its findings (admin: `rebuild-rollups`): one read of
 * its findings, fresh scope documents and head. Exact when the organization has no writes in
 * flight while it runs (run it in a quiet moment).
 */
export async function rebuildRollups(db: Db, org: string, now = new Date()): Promise<{ findings: number; documents: number }> {
  const docs = db.collection<RollupDoc>(ROLLUPS);
  const projection = Object.fromEntries(CONTRIBUTION_FIELDS.map((k) => [k, 1]));
  const xs = (await db.collection<FindingDoc>(FINDINGS).find({ org_id: org }, { projection }).toArray()).map(contributionOf);
  const sums = new Map([...countsByScope(xs.map((x) => [x, 1] as const))].map(([scope, c]) => [`${org}|${scope}`, c]));
  // Documents that no longer have findings must read as empty.
  for (const d of await docs.find({ org_id: org }, { projection: { _id: 1 } }).toArray()) if (d._id !== org && !sums.has(d._id)) sums.set(d._id, emptyCounts());
  const all = [...sums];
  for (let at = 0; at < all.length; at += 16) {
    await Promise.all(
      all.slice(at, at + 16).map(([id, c]) => {
        pruneResolvedDays(c, dayOf(now));
        return docs.replaceOne({ _id: id }, { org_id: org, c, m: [] }, { upsert: true });
      }),
    );
  }
  const days = xs.map((x) => x.day).sort();
  await docs.replaceOne({ _id: org }, { org_id: org, ...(days.length > 0 ? { first_day: days[0], last_day: days.at(-1) } : {}) }, { upsert: true });
  await listVersions(db).bump([org]); // totals kept in memory read again
  return { findings: xs.length, documents: all.length + 1 };
}
