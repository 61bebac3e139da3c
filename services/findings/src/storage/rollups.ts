import { isDuplicateKey, type Logger } from "@vulnscan/kit";
import type { Collection, Db, Document, Filter } from "mongodb";
import { randomUUID } from "node:crypto";
import type { FindingCounts } from "../domain/ports.js";
import {
  addDays,
  addTo,
  ALL_TARGETS,
  contributionOf,
  dayOf,
  dayRange,
  emptyCounts,
  keyOf,
  pruneResolvedDays,
  scopesFor,
  scopesOf,
  statsOf,
  sumCounts,
  WEEK_DAYS,
  type Counts,
  type Delta,
} from "../domain/rollup.js";
import type { Stats } from "../domain/stats.js";
import type { FindingDoc } from "../domain/types.js";
import { FINDINGS, ROLLUP_INTENTS, ROLLUPS } from "./indexes.js";

/*
 * Counts per scope with plain `$inc`, exact although a write changes two documents (a finding,
 * then its counts) on servers without transactions.
 *
 * A write first records its intent, `rollup_intents/<id>`: per finding it may change, what the
 * change moves in the counts (a Delta) under an entry id. The finding's own update names the
 * entry (`$push: {rollup_pending: id}`), so an entry is committed exactly when its finding
 * holds its id. The writer then applies the committed entries: one `$inc` upsert per scope
 * document (`<org>|<scope>|<who>`: all time, detection day, detection month; overall and per
 * target), each only where the intent's id is not in the document's `m` yet and adding it (the
 * conditional update that makes a second application add nothing); the heads' day bounds
 * (`<org>`, `$min`/`$max`); then it drops the entry ids from the findings, its id from `m`, and
 * the intent.
 *
 * An intent is its writer's for LEASE_MS (the writer makes no write under it after half of that).
 * One older than that belongs to a writer that stopped: the housekeeping pass (`recover`) takes
 * it, reads which entries its findings hold, and applies those the same way. A scope document
 * loses its guard only after every finding has dropped the entry ids, so whichever step the
 * writer stopped at, each committed entry is counted once.
 */

export const LEASE_MS = 10_000;

export interface Entry {
  id: string;
  org: string;
  /** The finding. */
  f: string;
  d: Delta;
}

interface IntentDoc {
  _id: string;
  entries: Entry[];
  until: Date;
}

export interface RollupDoc {
  _id: string;
  org_id: string;
  c?: Counts;
  /** Intents applied here whose clean-up is not finished. */
  m?: string[];
  /** Head only: detection-day bounds of the organization (for open-ended date filters). */
  first_day?: string;
  last_day?: string;
}

const docId = (org: string, scope: string, who: string) => `${org}|${scope}|${who}`;
const scopeIds = (e: Entry) => scopesOf((e.d.add ?? e.d.remove)!).map((s) => docId(e.org, s.scope, s.who));

/** Counts as `$inc` paths. */
function incOf(c: Counts): Record<string, number> {
  const out: Record<string, number> = { "c.n": c.n, "c.rn": c.rn, "c.rmin": c.rmin };
  for (const k of ["sev", "st", "tool", "ss", "rday"] as const) for (const [key, v] of Object.entries(c[k])) out[`c.${k}.${key}`] = v;
  return out;
}

/** One write's intent, as its writer holds it. */
export class Intent {
  readonly id = `ri_${randomUUID()}`;
  readonly entries: Entry[] = [];
  /** The entries whose finding updates succeeded. */
  readonly committed: Entry[] = [];
  /** Set when an update under it failed without saying whether it was made: `recover` reads what was. */
  unsure = false;
  private readonly start = Date.now();

  constructor(private readonly coll: Collection<IntentDoc>) {}

  /** Whether the writer may still write under it (the second half of the lease is margin for writes in flight). */
  live(): boolean {
    return Date.now() - this.start < LEASE_MS / 2;
  }

  /** Records entries before the finding updates that commit them; returns them with their ids. */
  async add(items: Omit<Entry, "id">[]): Promise<Entry[]> {
    const fresh = items.map((x, i) => ({ id: `${this.id}:${this.entries.length + i}`, ...x }));
    if (fresh.length === 0) return fresh;
    if (this.entries.length === 0) await this.coll.insertOne({ _id: this.id, entries: fresh, until: new Date(this.start + LEASE_MS) });
    else await this.coll.updateOne({ _id: this.id }, { $push: { entries: { $each: fresh } } });
    this.entries.push(...fresh);
    return fresh;
  }
}

export class Rollups implements FindingCounts {
  readonly docs: Collection<RollupDoc>;
  private readonly intents: Collection<IntentDoc>;
  private readonly findings: Collection<{ _id: string; rollup_pending?: string[] }>;

  constructor(
    db: Db,
    private readonly logger: Logger,
  ) {
    this.docs = db.collection<RollupDoc>(ROLLUPS);
    this.intents = db.collection<IntentDoc>(ROLLUP_INTENTS);
    this.findings = db.collection(FINDINGS);
  }

  intent(): Intent {
    return new Intent(this.intents);
  }

  /** Applies a writer's committed entries, unless its lease ran out or it is unsure (then `recover` will). */
  async finish(intent: Intent): Promise<void> {
    if (intent.entries.length > 0 && intent.live() && !intent.unsure) await this.apply({ _id: intent.id, entries: intent.entries }, intent.committed);
  }

  /** Takes over intents whose writer stopped (the housekeeping pass). */
  async recover(): Promise<number> {
    const now = new Date();
    const stale = await this.intents.find({ until: { $lt: now } }, { projection: { _id: 1 } }).limit(100).toArray();
    for (const { _id } of stale) {
      const intent = await this.intents.findOneAndUpdate({ _id, until: { $lt: now } }, { $set: { until: new Date(Date.now() + LEASE_MS) } });
      if (!intent) continue; // another replica took it
      this.logger.warn({ intent: _id }, "applying the rollup changes of a writer that stopped");
      const held = await this.findings.find({ _id: { $in: [...new Set(intent.entries.map((e) => e.f))] } }, { projection: { rollup_pending: 1 } }).toArray();
      const committed = new Set(held.flatMap((f) => f.rollup_pending ?? []));
      await this.apply(intent, intent.entries.filter((e) => committed.has(e.id)));
    }
    return stale.length;
  }

  private async apply(intent: Pick<IntentDoc, "_id" | "entries">, committed: Entry[]): Promise<void> {
    const sums = new Map<string, { org: string; c: Counts }>();
    const heads = new Map<string, { first: string; last: string }>();
    for (const e of committed) {
      const ids = scopeIds(e);
      for (const [x, sign] of [
        [e.d.remove, -1],
        [e.d.add, 1],
      ] as const) {
        if (!x) continue;
        for (const id of ids) {
          const s = sums.get(id) ?? { org: e.org, c: emptyCounts() };
          addTo(s.c, x, sign);
          sums.set(id, s);
        }
        const h = heads.get(e.org) ?? { first: x.day, last: x.day };
        heads.set(e.org, { first: x.day < h.first ? x.day : h.first, last: x.day > h.last ? x.day : h.last });
      }
    }
    await Promise.all([
      ...[...sums].map(([id, s]) => this.upsert({ _id: id, m: { $ne: intent._id } }, { $inc: incOf(s.c), $push: { m: intent._id }, $setOnInsert: { org_id: s.org } })),
      ...[...heads].map(([org, h]) => this.upsert({ _id: org }, { $min: { first_day: h.first }, $max: { last_day: h.last }, $setOnInsert: { org_id: org } })),
    ]);
    const all = intent.entries;
    await this.findings.updateMany({ _id: { $in: [...new Set(all.map((e) => e.f))] } }, { $pullAll: { rollup_pending: all.map((e) => e.id) } });
    await this.docs.updateMany({ _id: { $in: [...new Set(all.flatMap(scopeIds))] } }, { $pull: { m: intent._id } });
    await this.intents.deleteOne({ _id: intent._id });
  }

  /** An upsert; MongoDB may refuse one of two racing first inserts with a duplicate key, which is retried as an update. */
  private async upsert(filter: Filter<RollupDoc>, update: Document): Promise<void> {
    try {
      await this.docs.updateOne(filter, update, { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // also: the guard held (already applied), and the retry matches nothing
      await this.docs.updateOne(filter, update);
    }
  }

  /** The summed counts of scope documents of one target ("*" = all). */
  private async countsOf(org: string, scopes: string[], who: string): Promise<Counts> {
    const total = emptyCounts();
    if (scopes.length === 0) return total;
    const docs = await this.docs.find({ _id: { $in: scopes.map((s) => docId(org, s, who)) } }, { projection: { c: 1 } }).toArray();
    for (const d of docs) sumCounts(total, { ...emptyCounts(), ...d.c }); // `$inc` creates only the paths it moved
    return total;
  }

  /** The organization's statistics: its head, then the scope documents the filter needs. */
  async stats(org: string, opts: { from?: Date; to?: Date; target?: string }): Promise<Stats> {
    const head = await this.docs.findOne({ _id: org });
    const who = opts.target === undefined ? ALL_TARGETS : keyOf(opts.target);
    const today = dayOf(new Date());
    const weekFirst = addDays(today, -(WEEK_DAYS - 1));
    const first = head?.first_day ?? today;
    const last = head?.last_day ?? today;
    const endAll = addDays(last > today ? last : today, 1);
    const r = dayRange(opts.from, opts.to);
    const rangeFirst = r.first && r.first > first ? r.first : first;
    const rangeEnd = r.end && r.end < endAll ? r.end : endAll;
    const scopes = (fromDay: string, endDay: string): string[] => {
      if (fromDay >= endDay) return [];
      const { days, months } = scopesFor(fromDay, endDay);
      return [...days.map((d) => `d:${d}`), ...months.map((m) => `m:${m}`)];
    };
    const unbounded = !opts.from && !opts.to;
    const [range, week] = await Promise.all([
      this.countsOf(org, unbounded ? ["all"] : scopes(rangeFirst, rangeEnd), who),
      this.countsOf(org, scopes(rangeFirst > weekFirst ? rangeFirst : weekFirst, rangeEnd), who),
    ]);
    return statsOf(range, week, today);
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
 * every finding of the organization, fresh scope documents and head. Exact when the organization
 * has no writes in flight while it runs (run it in a quiet moment).
 */
export async function rebuildRollups(db: Db, org: string, now = new Date()): Promise<{ findings: number; documents: number }> {
  const docs = db.collection<RollupDoc>(ROLLUPS);
  const sums = new Map<string, Counts>();
  const head: Omit<RollupDoc, "_id"> = { org_id: org };
  let n = 0;
  const projection = { target: 1, detected_at: 1, severity: 1, status: 1, tool: 1, resolved_at: 1, resolution_minutes: 1 };
  for await (const f of db.collection<FindingDoc>(FINDINGS).find({ org_id: org }, { projection }).batchSize(1000)) {
    n++;
    const x = contributionOf(f);
    if (!head.first_day || x.day < head.first_day) head.first_day = x.day;
    if (!head.last_day || x.day > head.last_day) head.last_day = x.day;
    for (const s of scopesOf(x)) {
      const id = docId(org, s.scope, s.who);
      const c = sums.get(id) ?? emptyCounts();
      addTo(c, x, 1);
      sums.set(id, c);
    }
  }
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
  await docs.replaceOne({ _id: org }, head, { upsert: true });
  return { findings: n, documents: all.length + 1 };
}
