import { OrgVersions, VersionedCache } from "@vulnscan/kit";
import type { Db } from "mongodb";
import { timedFilter, type Anchor, type ListFilter, type ListQuery } from "../domain/list.js";
import type { Changed, FindingCounts, FindingLists, FindingRepository, Holder } from "../domain/ports.js";
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
/** Findings (details) kept in all: a few KB each, some tens of MB. */
const MAX_DETAILS = 10_000;
/** List totals kept in all (numbers). */
const MAX_TOTALS = 20_000;

/** Each organization's findings version. */
export const listVersions = (db: Db) => new OrgVersions(db, LIST_VERSIONS);

/** What each kept kind shares: the port it reads through and its entries, kept by the organization's version. */
abstract class Kept<I> {
  protected readonly cache: VersionedCache;

  constructor(
    protected readonly inner: I,
    versions: Pick<OrgVersions, "current">,
    maxAgeMs = 5_000,
    clock: () => number = Date.now,
  ) {
    this.cache = new VersionedCache(versions, { maxAgeMs, maxEntries: this.maxEntries(), clock });
  }

  /** Entries kept in all (a constant: called before the subclass is set up). */
  protected abstract maxEntries(): number;
}

/** FindingLists answering repeated reads from memory while the organization's version holds. */
export class CachedFindingLists extends Kept<FindingLists> implements FindingLists {
  protected maxEntries() {
    return MAX_PAGES;
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

/**
 * The repository with `get` (a finding's detail) answered from memory while the organization's
 * version holds, as list pages are: every write to a finding moves it (finding-store.ts). What a
 * detail shows that depends on the time of reading (its SLA state) is computed from the kept
 * fields when it is answered (rpc/mappers.ts), never kept. Writes read the stored finding
 * themselves (FindingStore.change), never a kept one. Another organization's id is kept as its
 * own entry (the key holds the organization): it stays null, a 404.
 */
export class CachedFindings extends Kept<FindingRepository> implements FindingRepository {
  protected maxEntries() {
    return MAX_DETAILS;
  }

  get(orgId: string, id: string): Promise<FindingDoc | null> {
    return this.cache.get(orgId, id, () => this.inner.get(orgId, id));
  }

  rememberedHolders(fps: string[]): Map<string, string> {
    return this.inner.rememberedHolders(fps);
  }

  create(found: Parameters<FindingRepository["create"]>[0]): Promise<Map<string, Holder>> {
    return this.inner.create(found);
  }

  change(orgId: string, ids: string[], decide: Parameters<FindingRepository["change"]>[2]): Promise<Map<string, Changed>> {
    return this.inner.change(orgId, ids, decide);
  }
}

/**
 * List totals from the rollups (one document read each) kept while the organization's version
 * holds: the version moves again once a write's counts are applied (rollups.ts calls back), so a
 * total read between a write and its counts is not kept past them.
 */
export class CachedCounts extends Kept<FindingCounts> implements FindingCounts {
  protected maxEntries() {
    return MAX_TOTALS;
  }

  total(orgId: string, f: Parameters<FindingCounts["total"]>[1]): Promise<number | undefined> {
    return this.cache.get(orgId, JSON.stringify(["total", f]), () => this.inner.total(orgId, f));
  }

  stats(orgId: string, opts: Parameters<FindingCounts["stats"]>[1]) {
    return this.inner.stats(orgId, opts);
  }

  targetCounts(orgId: string, targets: string[]) {
    return this.inner.targetCounts(orgId, targets);
  }
}
