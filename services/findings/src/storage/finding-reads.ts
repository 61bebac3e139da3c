import { LRUCache } from "lru-cache";
import type { Collection, Document } from "mongodb";
import type { Anchor, ListFilter, ListQuery } from "../domain/list.js";
import type { FindingLists } from "../domain/ports.js";
import type { GroupCount } from "../domain/stats.js";
import { SEVERITIES, type FindingDoc, type Severity, type Status } from "../domain/types.js";
import { STORAGE_FIELDS, type StoredFinding } from "./finding-store.js";
import { afterQuery, filterQuery, listDescription, mongoSort, sortSpec, storedAnchor, type Query, type SortSpec } from "./list-query.js";

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
  ) {
    this.maxSkip = limits.maxSkip ?? MAX_SKIP;
    this.hop = limits.hop ?? this.maxSkip;
  }

  describe(orgId: string, q: ListQuery): unknown {
    return listDescription(orgId, q);
  }

  count(orgId: string, filter: ListFilter): Promise<number> {
    return this.findings.countDocuments(filterQuery(orgId, filter) as Document);
  }

  /** Rows [offset, offset+limit) of the list in its order, without skipping more than MAX_SKIP. */
  page(orgId: string, list: ListQuery, offset: number, limit: number): Promise<FindingDoc[]> {
    return this.pageOf(filterQuery(orgId, list.filter), sortSpec(list.sort), offset, limit);
  }

  private async pageOf(q: Query, sort: SortSpec, offset: number, limit: number, projection: Document = LIST_PROJECTION): Promise<FindingDoc[]> {
    const order = mongoSort(sort);
    if (offset <= this.maxSkip) {
      return this.findings
        .find(q as Document, { projection })
        .sort(order)
        .skip(offset)
        .limit(limit)
        .toArray();
    }
    const key = JSON.stringify([q, sort]);
    let anchors = this.anchorCache.get(key);
    if (!anchors) this.anchorCache.set(key, (anchors = new Map()));
    // Nearest known row at or before the target offset (offsets are multiples of HOP).
    let pos = -1;
    let anchor: Anchor | undefined;
    const hop = this.hop;
    for (let o = Math.floor(offset / hop) * hop; o >= hop; o -= hop) {
      const a = anchors.get(o - 1);
      if (a) {
        pos = o - 1;
        anchor = a;
        break;
      }
    }
    const keyProjection = { [sort.key]: 1, _id: 1 };
    while (offset - pos - 1 > this.maxSkip) {
      const base = anchor ? { $and: [q, afterQuery(sort, anchor)] } : q;
      const step = hop; // anchors land on offsets hop-1, 2·hop-1, …
      const [row] = await this.findings
        .find(base as Document, { projection: keyProjection })
        .sort(order)
        .skip(step - 1)
        .limit(1)
        .toArray();
      if (!row) return [];
      pos += step;
      anchor = storedAnchor(sort, row as unknown as Record<string, unknown>);
      anchors.set(pos, anchor);
    }
    const base = anchor ? { $and: [q, afterQuery(sort, anchor)] } : q;
    return this.findings
      .find(base as Document, { projection })
      .sort(order)
      .skip(offset - pos - 1)
      .limit(limit)
      .toArray();
  }

  /** Up to `limit` rows strictly after `anchor` in the list's order: a range on the index, no skip. */
  after(orgId: string, list: ListQuery, anchor: Anchor, limit: number): Promise<FindingDoc[]> {
    const sort = sortSpec(list.sort);
    return this.findings
      .find({ $and: [filterQuery(orgId, list.filter), afterQuery(sort, anchor)] } as Document, { projection: LIST_PROJECTION })
      .sort(mongoSort(sort))
      .limit(limit)
      .toArray();
  }

  /** Every row of the list in order, read in batches (exports): memory stays flat. */
  stream(orgId: string, list: ListQuery, opts: { details: boolean }): AsyncIterable<FindingDoc> {
    const q = filterQuery(orgId, list.filter);
    return this.findings
      .find(q as Document, { projection: opts.details ? STORAGE_FIELDS : LIST_PROJECTION })
      .sort(mongoSort(sortSpec(list.sort)))
      .batchSize(500);
  }

  /** A scan's findings in detection order. */
  scanFindings(orgId: string, scanId: string, severity?: Severity, status?: Status): Promise<FindingDoc[]> {
    const q = filterQuery(orgId, { scan_id: scanId, severity, status });
    return this.findings
      .find(q as Document, { projection: LIST_PROJECTION })
      .sort({ _id: 1 })
      .toArray();
  }

  async severityCounts(orgId: string, filter: ListFilter): Promise<Record<Severity, number>> {
    // $group with $sum: 1 only: the subset FerretDB v1 evaluates correctly.
    const counts = await this.findings
      .aggregate<GroupCount>([{ $match: filterQuery(orgId, filter) }, { $group: { _id: "$severity", n: { $sum: 1 } } }])
      .toArray();
    const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
    for (const c of counts) if ((SEVERITIES as readonly unknown[]).includes(c._id)) bySeverity[c._id as Severity] += c.n;
    return bySeverity;
  }
}
