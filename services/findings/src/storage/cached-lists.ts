import { LRUCache } from "lru-cache";
import type { Collection, Db } from "mongodb";
import { timedFilter, type Anchor, type ListFilter, type ListQuery } from "../domain/list.js";
import type { FindingLists } from "../domain/ports.js";
import type { FindingDoc, Severity, Status } from "../domain/types.js";
import { LIST_VERSIONS } from "./indexes.js";

/*
 * List pages from memory while nothing changed. Every write that changes what an organization's
 * lists show moves its version (one `$inc` upsert, FindingStore), and a page read here is kept
 * with the version read before it; a later request reads the version (one `_id` lookup) and
 * answers from memory while it is still the same. A dashboard polling a page of 100,000
 * findings then costs one small read instead of twenty 4 KB documents decoded by the database.
 * Read-your-writes holds across replicas: the writer moves the version before it answers.
 * Lists whose answer depends on the time of reading (SLA state, due dates, expiring
 * acceptances) and exports are never kept. A page is kept `maxAgeMs` at most (LIST_CACHE_MS), so
 * a write that reached the database but not its version bump (a crash in between) shows within that.
 */
/** Pages kept in all: about 20 findings of a few KB each, so some hundreds of MB at the very most. */
const MAX_PAGES = 5_000;

/** Each organization's findings version: moved by every write to its findings. */
export class ListVersions {
  private readonly coll: Collection<{ _id: string; v: number }>;

  constructor(db: Db) {
    this.coll = db.collection(LIST_VERSIONS);
  }

  async current(orgId: string): Promise<number> {
    return (await this.coll.findOne({ _id: orgId }))?.v ?? 0;
  }

  async bump(orgIds: Iterable<string>): Promise<void> {
    await Promise.all([...new Set(orgIds)].map((_id) => this.coll.updateOne({ _id }, { $inc: { v: 1 } }, { upsert: true })));
  }
}

interface Kept {
  version: number;
  at: number;
  value: unknown;
}

/** FindingLists answering repeated reads from memory while the organization's version holds. */
export class CachedFindingLists implements FindingLists {
  private readonly kept = new LRUCache<string, Kept>({ max: MAX_PAGES });

  constructor(
    private readonly inner: FindingLists,
    private readonly versions: Pick<ListVersions, "current">,
    private readonly maxAgeMs = 5_000,
    private readonly clock: () => number = Date.now,
  ) {}

  describe(orgId: string, q: ListQuery): unknown {
    return this.inner.describe(orgId, q);
  }

  count(orgId: string, filter: ListFilter): Promise<number> {
    return this.keep(orgId, filter, ["count", filter], () => this.inner.count(orgId, filter));
  }

  page(orgId: string, q: ListQuery, offset: number, limit: number): Promise<FindingDoc[]> {
    return this.keep(orgId, q.filter, ["page", q, offset, limit], () => this.inner.page(orgId, q, offset, limit));
  }

  after(orgId: string, q: ListQuery, anchor: Anchor, limit: number): Promise<FindingDoc[]> {
    return this.keep(orgId, q.filter, ["after", q, anchor, limit], () => this.inner.after(orgId, q, anchor, limit));
  }

  stream(orgId: string, q: ListQuery, opts: { details: boolean }): AsyncIterable<FindingDoc> {
    return this.inner.stream(orgId, q, opts);
  }

  scanFindings(orgId: string, scanId: string, severity?: Severity, status?: Status): Promise<FindingDoc[]> {
    return this.keep(orgId, {}, ["scan", scanId, severity, status], () => this.inner.scanFindings(orgId, scanId, severity, status));
  }

  severityCounts(orgId: string, filter: ListFilter): Promise<Record<Severity, number>> {
    return this.keep(orgId, filter, ["severities", filter], () => this.inner.severityCounts(orgId, filter));
  }

  private async keep<T>(orgId: string, filter: ListFilter, what: unknown[], read: () => Promise<T>): Promise<T> {
    if (timedFilter(filter)) return read();
    const key = `${orgId}\u0000${JSON.stringify(what)}`;
    // The version first: a write landing while the page is read moves it, so that page is not reused.
    const version = await this.versions.current(orgId);
    const hit = this.kept.get(key);
    const now = this.clock();
    if (hit && hit.version === version && now - hit.at < this.maxAgeMs) return hit.value as T;
    const value = await read();
    this.kept.set(key, { version, at: now, value });
    return value;
  }
}
