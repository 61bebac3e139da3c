import { LRUCache } from "lru-cache";
import type { Collection, Document } from "mongodb";
import type { Anchor, ListFilter, ListQuery } from "../domain/list.js";
import type { FindingLists } from "../domain/ports.js";
import { SEVERITIES, type FindingDoc, type Severity, type Status } from "../domain/types.js";
import { STORAGE_FIELDS, type StoredFinding } from "./finding-store.js";
import { afterQuery, countSla, filterQuery, listDescription, mongoSort, sortSpec, storedAnchor, type Query, type SortSpec } from "./list-query.js";

/** List items leave out what only the detail shows (and what can be large). */
export const LIST_PROJECTION = { comments: 0, history: 0, evidence: 0, ...STORAGE_FIELDS } as const;

/*
 * Deep pages without unbounded skips. The spec pages by number, so page N starts at offset
 * (N-1)·per_page. Up to MAX_SKIP rows a skip on the index is cheap and exact. Beyond it the
 * start is found by hops: each hop reads only the sort key and id of one row HOP rows further
 * (a skip of at most HOP inside a range on the index, covered by it on MongoDB) and continues
 * with a range query after that row. The rows found at each hop are remembered per query
 * shape for ANCHOR_TTL_MS, so walking pages forward, or coming back to a deep page, costs one
 * bounded range query. Anchors can be off by the rows inserted or removed before them within
 * that time; pages up to MAX_SKIP are always exact.
 */
export const MAX_SKIP = 5_000;
const ANCHOR_TTL_MS = 15_000;
const MAX_CACHED_QUERIES = 500;

/** The lists of findings on MongoDB (FindingLists): domain list queries translated in list-query.ts. */
export class FindingReads implements FindingLists {
  /** Per query shape: offset → the row at that offset (its sort key and id). */
  private readonly anchorCache = new LRUCache<string, Map<number, Anchor>>({ max: MAX_CACHED_QUERIES, ttl: ANCHOR_TTL_MS });

  private readonly maxSkip: number;
  private readonly hop: number;

  /** `limits` only for tests, which exercise the hop path on a few rows. */
  constructor(
    private readonly findings: Collection<StoredFinding>,
    limits: { maxSkip?: number; hop?: number } = {},
    /** The clock time-dependent filters (sla_state, accepted_expiring_within) are read at. */
    private readonly now: () => Date = () => new Date(),
  ) {
    this.maxSkip = limits.maxSkip ?? MAX_SKIP;
    this.hop = limits.hop ?? this.maxSkip;
  }

  describe(orgId: string, q: ListQuery): unknown {
    return listDescription(orgId, q);
  }

  async count(orgId: string, filter: ListFilter): Promise<number> {
    const now = this.now();
    if (filter.sla_state !== "at_risk") return this.findings.countDocuments(filterQuery(orgId, filter, now) as Document);
    const base = filterQuery(orgId, { ...filter, sla_state: undefined }, now);
    return (await countSla((q) => this.findings.countDocuments(q as Document), base, now)).atRisk;
  }

  private rows(filter: Query, sort: SortSpec, skip: number, limit: number, projection: Document = LIST_PROJECTION): Promise<FindingDoc[]> {
    return this.findings.find(filter as Document, { projection, sort: mongoSort(sort), skip, limit }).toArray();
  }

  /** Rows [offset, offset+limit) of the list in its order, without skipping more than MAX_SKIP. */
  async page(orgId: string, list: ListQuery, offset: number, limit: number): Promise<FindingDoc[]> {
    const q = filterQuery(orgId, list.filter, this.now());
    const sort = sortSpec(list.sort);
    if (offset <= this.maxSkip) return this.rows(q, sort, offset, limit);
    const key = JSON.stringify([q, sort]);
    const anchors = this.anchorCache.get(key) ?? new Map<number, Anchor>();
    if (!this.anchorCache.has(key)) this.anchorCache.set(key, anchors);
    // From the nearest known row at or before the offset (anchors are the rows at hop-1, 2·hop-1, …).
    let pos = Math.floor(offset / this.hop) * this.hop - 1;
    while (pos >= 0 && !anchors.has(pos)) pos -= this.hop;
    let anchor = anchors.get(pos);
    const after = (a: Anchor | undefined) => (a ? { $and: [q, afterQuery(sort, a)] } : q);
    while (offset - pos - 1 > this.maxSkip) {
      const [row] = await this.rows(after(anchor), sort, this.hop - 1, 1, { [sort.key]: 1, _id: 1 });
      if (!row) return [];
      pos += this.hop;
      anchor = storedAnchor(sort, row as unknown as Record<string, unknown>);
      anchors.set(pos, anchor);
    }
    return this.rows(after(anchor), sort, offset - pos - 1, limit);
  }

  /** Up to `limit` rows strictly after `anchor` in the list's order: a range on the index, no skip. */
  after(orgId: string, list: ListQuery, anchor: Anchor, limit: number): Promise<FindingDoc[]> {
    const sort = sortSpec(list.sort);
    return this.rows({ $and: [filterQuery(orgId, list.filter, this.now()), afterQuery(sort, anchor)] }, sort, 0, limit);
  }

  /** Every row of the list in order, read in batches (exports): memory stays flat. */
  stream(orgId: string, list: ListQuery, opts: { details: boolean }): AsyncIterable<FindingDoc> {
    const q = filterQuery(orgId, list.filter, this.now());
    return this.findings
      .find(q as Document, { projection: opts.details ? STORAGE_FIELDS : LIST_PROJECTION })
      .sort(mongoSort(sortSpec(list.sort)))
      .batchSize(500);
  }

  /** A scan's findings in detection order. */
  scanFindings(orgId: string, scanId: string, severity?: Severity, status?: Status): Promise<FindingDoc[]> {
    return this.rows(filterQuery(orgId, { scan_id: scanId, severity, status }, this.now()), sortSpec({ field: "created_at", order: "asc" }), 0, 0);
  }

  async severityCounts(orgId: string, filter: ListFilter): Promise<Record<Severity, number>> {
    // $group with $sum: 1 only: the subset FerretDB v1 evaluates correctly.
    const counts = await this.findings
      .aggregate<{ _id: Severity; n: number }>([{ $match: filterQuery(orgId, filter, this.now()) }, { $group: { _id: "$severity", n: { $sum: 1 } } }])
      .toArray();
    const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
    for (const c of counts) if (c._id in bySeverity) bySeverity[c._id] += c.n;
    return bySeverity;
  }
}
