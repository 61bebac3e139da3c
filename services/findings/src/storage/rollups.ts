import type { FindingCounts } from "../domain/ports.js";
import { isDuplicateKey, type Logger } from "@vulnscan/kit";
import type { Collection, Db, MongoBulkWriteError } from "mongodb";
import {
  addDays,
  addTo,
  ALL_TARGETS,
  applyDeltaTo,
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
import { FINDINGS, ROLLUP_LOG, ROLLUP_SLOTS, ROLLUPS } from "./indexes.js";

/*
 * Rollups that stay exact on a server that loses concurrent updates (FerretDB v1) and under
 * redelivery, using only unique inserts and `_id` point reads.
 *
 * 1. Recording. Every state change that moves a finding's contribution appends its Delta to the
 *    organization's log of slots: `rollup_slots/<org>#<seq>`, seq = 1, 2, 3 … without gaps,
 *    claimed by unique insert (a writer that loses a seq takes the next). Each slot names its
 *    source — the change that caused it (`c:<finding_id>` for a creation, the finding's revision
 *    claim `<finding_id>#<rev>` for a change) — under a unique index, so recording a change twice
 *    (a retry, a redelivery, a roll-forward) fails on the source and counts once. Slots are kept
 *    14 days, beyond any redelivery (Kafka keeps records 7 days).
 * 2. Folding. The head `rollups/<org>` says up to which seq everything is folded. A folder reads
 *    the slots after it, computes the new counts of the scopes they touch (all time, detection
 *    day, detection month; each overall and per target: `<org>|<scope>|<who>`), claims
 *    `rollup_log/fold:<org>#<seq>` by unique insert with those counts in it (one folder per step;
 *    a folder that dies is rolled forward from its claim), then writes them and the head. Each
 *    document records the seq it includes, so writing it twice is harmless.
 * 3. Reading. A reader takes the head and the slots after it (usually none), and adds to each
 *    body the slots it does not include yet: stats are exact as soon as a change is recorded,
 *    folded or not.
 */

export interface SlotDoc {
  _id: string;
  org_id: string;
  seq: number;
  source: string;
  delta: Delta;
  created_at: Date;
}

export interface RollupDoc {
  _id: string;
  org_id: string;
  /** Every slot up to this seq is included. */
  seq: number;
  /** Counts of one scope (absent on the head). */
  c?: Counts;
  /** Head only: detection-day bounds of the organization (for open-ended date filters). */
  first_day?: string | null;
  last_day?: string | null;
}

interface FoldClaim {
  _id: string;
  org_id: string;
  to: number;
  docs: RollupDoc[];
  created_at: Date;
  done_at: Date | null;
}

/** The index of an ordered insertMany's first failure, when it is a duplicate key; rethrows anything else. */
export function firstDuplicate(err: unknown): number {
  const e = err as MongoBulkWriteError;
  const first = [e.writeErrors ?? []].flat()[0] as { index?: number; code?: number } | undefined;
  if (first?.code === 11000 && typeof first.index === "number") return first.index;
  if (isDuplicateKey(err)) return e.insertedCount ?? 0;
  throw err;
}

/** Indexes of an unordered insertMany's duplicate-key failures; rethrows anything else. */
export function duplicateIndexes(err: unknown): Set<number> {
  const e = err as MongoBulkWriteError;
  const list = [e.writeErrors ?? []].flat() as { index?: number; code?: number }[];
  if (list.length === 0 || list.some((w) => w.code !== 11000 || typeof w.index !== "number")) throw err;
  return new Set(list.map((w) => w.index!));
}

const slotId = (org: string, seq: number) => `${org}#${seq}`;
const docId = (org: string, scope: string, who: string) => `${org}|${scope}|${who}`;
const parseDocId = (org: string, id: string) => {
  const [scope, who] = id.slice(org.length + 1).split("|") as [string, string];
  return { scope, who };
};

const MAX_FOLD = 5_000;
/** A fold writes many small documents; only a claim this old is taken for abandoned. */
const STALE_CLAIM_MS = 20_000;
const CLAIM_KEEP_MS = 60_000;
// A fold may read hundreds of documents on a busy server; claims are kept CLAIM_KEEP_MS, so a read younger than this is safe to claim on.
const MAX_READ_AGE_MS = 45_000;
export const SLOT_KEEP_MS = 14 * 24 * 3600_000;

export class Rollups implements FindingCounts {
  readonly docs: Collection<RollupDoc>;
  readonly slots: Collection<SlotDoc>;
  readonly log: Collection<FoldClaim>;
  /** Highest seq this process knows to exist, per organization (where the next claim starts). */
  private readonly hints = new Map<string, number>();

  constructor(
    db: Db,
    private readonly logger?: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.docs = db.collection<RollupDoc>(ROLLUPS);
    this.slots = db.collection<SlotDoc>(ROLLUP_SLOTS);
    this.log = db.collection<FoldClaim>(ROLLUP_LOG);
  }

  private async head(org: string): Promise<RollupDoc> {
    return (await this.docs.findOne({ _id: org })) ?? { _id: org, org_id: org, seq: 0, first_day: null, last_day: null };
  }

  private async slotAt(org: string, seq: number): Promise<SlotDoc | null> {
    return this.slots.findOne({ _id: slotId(org, seq) });
  }

  /** The first free seq: slots have no gaps, so probe upwards from a known one, then bisect. */
  private async nextFree(org: string): Promise<number> {
    let lo = Math.max((await this.head(org)).seq, this.hints.get(org) ?? 0); // exists (or folded)
    let step = 1;
    while (await this.slotAt(org, lo + step)) {
      lo += step;
      step *= 2;
    }
    let hi = lo + step; // free
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await this.slotAt(org, mid)) lo = mid;
      else hi = mid;
    }
    return hi;
  }

  /** Records deltas (each under its unique source) in the organization's slot log; exactly once each. */
  async record(org: string, entries: { source: string; delta: Delta }[]): Promise<void> {
    let pending = entries;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 10_000) throw new Error(`rollups of ${org}: too much contention`);
      const start = await this.nextFree(org);
      const at = this.now();
      const docs: SlotDoc[] = pending.map((e, i) => ({
        _id: slotId(org, start + i),
        org_id: org,
        seq: start + i,
        source: e.source,
        delta: e.delta,
        created_at: at,
      }));
      try {
        await this.slots.insertMany(docs, { ordered: true });
        this.hints.set(org, Math.max(this.hints.get(org) ?? 0, start + docs.length - 1));
        return;
      } catch (err) {
        const inserted = firstDuplicate(err);
        if (inserted > 0) this.hints.set(org, Math.max(this.hints.get(org) ?? 0, start + inserted - 1));
        pending = pending.slice(inserted);
        // The first one not inserted: its seq was taken, or its source is recorded already.
        const at0 = await this.slotAt(org, start + inserted);
        if (!at0)
          pending = pending.slice(1); // seq free, so the source was the duplicate
        else if (at0.source === pending[0]!.source) pending = pending.slice(1);
        else this.hints.set(org, Math.max(this.hints.get(org) ?? 0, start + inserted));
      }
    }
  }

  /** Slots after `seq`, in order, until the first missing one. */
  private async slotsAfter(org: string, seq: number, max = MAX_FOLD): Promise<SlotDoc[]> {
    const out: SlotDoc[] = [];
    // Probe in small parallel rounds: most of the time there are none or a few.
    for (let width = 4; out.length < max; width = Math.min(width * 2, 256)) {
      const base = seq + out.length;
      const round = await Promise.all(Array.from({ length: width }, (_, i) => this.slotAt(org, base + 1 + i)));
      for (const s of round) {
        if (!s) return out;
        out.push(s);
      }
    }
    return out;
  }

  /** Folds soon, off the caller's path: one fold per organization at a time in this process. */
  foldSoon(org: string): void {
    const running = this.folding.get(org);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false, done: Promise.resolve() };
    this.folding.set(org, state);
    state.done = (async () => {
      do {
        state.again = false;
        await this.fold(org).catch((err) => this.logger?.warn({ err: (err as Error).message, org }, "rollup fold failed; the relay retries"));
      } while (state.again);
      this.folding.delete(org);
    })();
  }

  /** Resolves when the folds started by foldSoon have finished (shutdown). */
  async idle(): Promise<void> {
    while (this.folding.size > 0) await Promise.all([...this.folding.values()].map((s) => s.done));
  }

  private readonly folding = new Map<string, { again: boolean; done: Promise<void> }>();

  /**
   * Folds the organization's pending slots into its documents (see above). Best effort: when
   * another folder holds the step, it returns; readers add unfolded slots themselves.
   */
  async fold(org: string): Promise<void> {
    for (let round = 0; round < 20; round++) {
      const readAt = Date.now();
      const head = await this.head(org);
      const slots = await this.slotsAfter(org, head.seq);
      if (slots.length === 0) return;
      const to = head.seq + slots.length;
      const ids = new Set<string>();
      for (const s of slots) for (const x of [s.delta.remove, s.delta.add]) if (x) for (const sc of scopesOf(x)) ids.add(docId(org, sc.scope, sc.who));
      const list = [...ids];
      const found = await Promise.all(list.map((id) => this.docs.findOne({ _id: id })));
      const today = dayOf(this.now());
      const next: RollupDoc = { ...head, seq: to };
      const written: RollupDoc[] = list.map((id, i) => {
        const d = found[i] ?? { _id: id, org_id: org, seq: 0, c: emptyCounts() };
        const c = structuredClone(d.c ?? emptyCounts());
        const { scope, who } = parseDocId(org, id);
        for (const s of slots) if (s.seq > d.seq) applyDeltaTo(c, s.delta, scope, who);
        pruneResolvedDays(c, today);
        return { _id: id, org_id: org, seq: to, c };
      });
      for (const s of slots) {
        for (const x of [s.delta.remove, s.delta.add]) {
          if (!x) continue;
          if (!next.first_day || x.day < next.first_day) next.first_day = x.day;
          if (!next.last_day || x.day > next.last_day) next.last_day = x.day;
        }
      }
      if (Date.now() - readAt > MAX_READ_AGE_MS) continue;
      const claim: FoldClaim = { _id: `fold:${org}#${head.seq}`, org_id: org, to, docs: [...written, next], created_at: new Date(), done_at: null };
      try {
        await this.log.insertOne(claim);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const other = await this.log.findOne({ _id: claim._id });
        if (other && !other.done_at && Date.now() - other.created_at.getTime() > STALE_CLAIM_MS) {
          this.logger?.warn({ claim: claim._id }, "rolling forward a rollup fold whose folder stopped");
          await this.applyClaim(other);
          continue;
        }
        return; // another folder is at it
      }
      await this.applyClaim(claim);
      if (slots.length < MAX_FOLD) return;
    }
  }

  /** Writes a fold's bodies, the head last (the head's seq is what readers start from). */
  private async applyClaim(claim: FoldClaim): Promise<void> {
    const head = claim.docs.at(-1)!;
    const current = await this.docs.findOne({ _id: head._id }, { projection: { seq: 1 } });
    if (!current || current.seq < claim.to) {
      for (const d of claim.docs) {
        try {
          await this.docs.replaceOne({ _id: d._id }, d, { upsert: true });
        } catch (err) {
          if (!isDuplicateKey(err)) throw err; // a concurrent roll-forward inserted the same body
          await this.docs.replaceOne({ _id: d._id }, d);
        }
      }
    }
    await this.log.updateOne({ _id: claim._id }, { $set: { done_at: new Date(), docs: [] } });
  }

  /** Relay: forgets old fold claims and slots, rolls forward stale folds of recently active organizations. */
  async housekeeping(orgs: Iterable<string>): Promise<void> {
    const now = Date.now();
    await this.log.deleteMany({ done_at: { $lt: new Date(now - CLAIM_KEEP_MS) } });
    for (const org of orgs) await this.fold(org).catch((err) => this.logger?.warn({ err: (err as Error).message, org }, "rollup fold failed"));
  }

  async prune(): Promise<number> {
    return (await this.slots.deleteMany({ created_at: { $lt: new Date(Date.now() - SLOT_KEEP_MS) } })).deletedCount;
  }

  /** Counts of documents of one target ("*" = all), each with the pending slots it does not include yet. */
  private async countsOf(org: string, scopes: string[], who: string, pending: SlotDoc[]): Promise<Counts> {
    const ids = scopes.map((scope) => docId(org, scope, who));
    const docs = await Promise.all(ids.map((id) => this.docs.findOne({ _id: id })));
    const total = emptyCounts();
    for (const [i, scope] of scopes.entries()) {
      const d = docs[i];
      const c = structuredClone(d?.c ?? emptyCounts());
      for (const s of pending) if (s.seq > (d?.seq ?? 0)) applyDeltaTo(c, s.delta, scope, who);
      sumCounts(total, c);
    }
    return total;
  }

  /** The organization's statistics: a head read, a probe for unfolded slots, and the scope documents the filter needs. */
  async stats(org: string, opts: { from?: Date; to?: Date; target?: string }): Promise<Stats> {
    const head = await this.head(org);
    const pending = await this.slotsAfter(org, head.seq);
    const who = opts.target === undefined ? ALL_TARGETS : keyOf(opts.target);
    const today = dayOf(this.now());
    const weekFirst = addDays(today, -(WEEK_DAYS - 1));
    let first = head.first_day ?? today;
    let last = head.last_day ?? today;
    for (const s of pending)
      for (const x of [s.delta.remove, s.delta.add]) if (x) (first = x.day < first ? x.day : first), (last = x.day > last ? x.day : last);
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
      this.countsOf(org, unbounded ? ["all"] : scopes(rangeFirst, rangeEnd), who, pending),
      this.countsOf(org, scopes(rangeFirst > weekFirst ? rangeFirst : weekFirst, rangeEnd), who, pending),
    ]);
    return statsOf(range, week, today);
  }

  /** Counts for the list's total when the filter is one the rollups keep; undefined otherwise. */
  async total(org: string, f: { severity?: string; status?: string; tool?: string; target?: string; other: boolean }): Promise<number | undefined> {
    if (f.other || (f.tool !== undefined && (f.severity !== undefined || f.status !== undefined))) return undefined;
    const head = await this.head(org);
    const pending = await this.slotsAfter(org, head.seq);
    const c = await this.countsOf(org, ["all"], f.target === undefined ? ALL_TARGETS : keyOf(f.target), pending);
    if (f.tool !== undefined) return c.tool[keyOf(f.tool)] ?? 0;
    if (f.status !== undefined && f.severity !== undefined) return c.ss[`${f.status}|${f.severity}`] ?? 0;
    if (f.status !== undefined) return c.st[f.status] ?? 0;
    if (f.severity !== undefined) return c.sev[f.severity] ?? 0;
    return c.n;
  }
}

/**
 * Rebuilds an organization's rollups from its findings (admin: `rebuild-rollups`). Reads every
 * finding of the organization once (a collection scan on FerretDB), writes fresh bodies, and
 * moves the head past every slot recorded so far. Exact when the organization has no writes
 * in flight while it runs (run it in a quiet moment); changes recorded after it are folded on top.
 */
export async function rebuildRollups(db: Db, org: string, now = new Date()): Promise<{ findings: number; documents: number }> {
  const rollups = new Rollups(db, undefined, () => now);
  const findings = db.collection<FindingDoc>(FINDINGS);
  // Everything recorded so far is in the findings we are about to read: start after it.
  const current = await rollups.docs.findOne({ _id: org });
  let seq = current?.seq ?? 0;
  while (await rollups.slots.findOne({ _id: slotId(org, seq + 1) })) seq++;
  const docs = new Map<string, RollupDoc>();
  const head: RollupDoc = { _id: org, org_id: org, seq, first_day: null, last_day: null };
  let n = 0;
  const cursor = findings
    .find({ org_id: org }, { projection: { target: 1, detected_at: 1, severity: 1, status: 1, tool: 1, resolved_at: 1, resolution_minutes: 1 } })
    .batchSize(1000);
  for await (const f of cursor) {
    n++;
    const x = contributionOf(f);
    if (!head.first_day || x.day < head.first_day) head.first_day = x.day;
    if (!head.last_day || x.day > head.last_day) head.last_day = x.day;
    for (const sc of scopesOf(x)) {
      const id = docId(org, sc.scope, sc.who);
      let d = docs.get(id);
      if (!d) {
        d = { _id: id, org_id: org, seq, c: emptyCounts() };
        docs.set(id, d);
      }
      addTo(d.c!, x, 1);
    }
  }
  const today = dayOf(now);
  // Old documents that no longer have findings must read as empty.
  const stale = await rollups.docs.find({ org_id: org }, { projection: { _id: 1 } }).toArray();
  for (const s of stale) if (s._id !== org && !docs.has(s._id)) docs.set(s._id, { _id: s._id, org_id: org, seq, c: emptyCounts() });
  const all = [...docs.values()];
  for (const d of all) pruneResolvedDays(d.c!, today);
  // Replaced by `_id` (the write FerretDB serves from its index), a few at a time, the head last.
  for (let at = 0; at < all.length; at += 16)
    await Promise.all(all.slice(at, at + 16).map((d) => rollups.docs.replaceOne({ _id: d._id }, d, { upsert: true })));
  await rollups.docs.replaceOne({ _id: org }, head, { upsert: true });
  return { findings: n, documents: all.length + 1 };
}
