import { OrgVersions, VersionedCache } from "@vulnscan/kit";
import type { Db } from "mongodb";
import { timedFilter, type Anchor, type ListFilter, type ListQuery } from "../domain/list.js";
import type { FindingLists } from "../domain/ports.js";
import type { FindingDoc, Severity, Status } from "../domain/types.js";
import { LIST_VERSIONS } from "./indexes.js";

/*
 * List pages from memory while an organization's findings have not changed (the kit's
 * versioned-cache.ts): FindingStore moves the version after every write to them. A dashboard
 * polling a page of 100,000 findings then costs one `_id` read instead of twenty 4 KB documents
 * decoded by the database. Lists whose answer depends on the time of reading (SLA state, due
 * dates, expiring acceptances) and exports are never kept.
 */

/** Pages kept in all: about 20 findings of a few KB each, so some hundreds of MB at the very most. */
const MAX_PAGES = 5_000;

/** Each organization's findings version. */
export const listVersions = (db: Db) => new OrgVersions(db, LIST_VERSIONS);

/** FindingLists answering repeated reads from memory while the organization's version holds. */
export class CachedFindingLists implements FindingLists {
  private readonly cache: VersionedCache;

  constructor(
    private readonly inner: FindingLists,
    versions: Pick<OrgVersions, "current">,
    maxAgeMs = 5_000,
    clock: () => number = Date.now,
  ) {
    this.cache = new VersionedCache(versions, { maxAgeMs, maxEntries: MAX_PAGES, clock });
  }

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

  private keep<T>(orgId: string, filter: ListFilter, what: unknown[], read: () => Promise<T>): Promise<T> {
    return timedFilter(filter) ? read() : this.cache.get(orgId, JSON.stringify(what), read);
  }
}
