import { LRUCache } from "lru-cache";
import { upTo } from "./lru.js";
import type { Collection, Db } from "mongodb";
import { requestArrival } from "./request-context.js";

/*
 * Reads kept in memory while an organization's data has not changed. Every write that changes
 * what a kept read shows moves the organization's version (`bump`: one `$inc` upsert, before the
 * write is answered), and a read is kept with the version read before it; a later request reads
 * the version (one `_id` lookup) and answers from memory while it is still the same. A page
 * polled by dashboards then costs one small read instead of a query that decodes its documents.
 * Read-your-writes holds across replicas, since the version lives in the database. A kept read
 * lives `maxAgeMs` at most, so a write that reached the database but not its bump (a crash in
 * between, an operator's script) shows within that.
 *
 * Concurrent requests of one organization share version reads: a request joins the next read
 * that starts after it arrived (never one already under way, which may have been answered
 * before a write the request's client saw answered), so at most one read runs and one waits per
 * organization, however many requests come in. Within a served call (request-context.ts) a read
 * that began after the call arrived is used again: a list page and its total, kept apart, cost
 * one version read, not two in a row. A kept value past half its age is read again in
 * the background while it is still answered, so a hot page does not make its requests wait for
 * the database every `maxAgeMs`; concurrent misses of one entry share one read.
 */

interface Read {
  /** When it began (`performance.now()`). */
  at: number;
  value: Promise<number>;
}

interface Reads {
  running?: Read;
  next?: Promise<number>;
  /** The last read answered: callers that arrived before it began may use it. */
  done?: { at: number; value: number };
}

const ignore = () => undefined;

/** Organizations whose recent reads are remembered (a few numbers each). */
const MAX_ORGS = 10_000;

/** Each organization's version of one kind of data: `{_id: orgId, v}` documents in `collection`. */
export class OrgVersions {
  private readonly coll: Collection<{ _id: string; v: number }>;
  private readonly reads = new LRUCache<string, Reads>(upTo(MAX_ORGS));

  constructor(db: Db, collection: string) {
    this.coll = db.collection(collection);
  }

  /**
   * The organization's version as read after `since` (by default: the arrival of the call being
   * served, or else now). Concurrent callers share the read.
   */
  current(orgId: string, since: number = requestArrival() ?? performance.now()): Promise<number> {
    let r = this.reads.get(orgId);
    if (!r) {
      r = {};
      this.reads.set(orgId, r);
    }
    if (r.done && r.done.at > since) return Promise.resolve(r.done.value);
    const running = r.running;
    if (!running) return this.read(orgId, r);
    if (running.at > since) return running.value;
    // The read under way began before this caller arrived: wait for the one after it, shared by everyone waiting.
    if (r.next) return r.next;
    const state = r;
    state.next = running.value.then(ignore, ignore).then(() => {
      state.next = undefined;
      return this.read(orgId, state);
    });
    return state.next;
  }

  private read(orgId: string, r: Reads): Promise<number> {
    const at = performance.now();
    const value = this.coll.findOne({ _id: orgId }).then((d) => d?.v ?? 0);
    const read = { at, value };
    r.running = read;
    const settled = () => {
      if (r.running === read) r.running = undefined;
    };
    value.then((v) => {
      if (!r.done || r.done.at < at) r.done = { at, value: v };
      settled();
    }, settled);
    return value;
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

export class VersionedCache {
  private readonly kept: LRUCache<string, Kept>;
  /** Reads under way per entry and version: concurrent misses and refreshes share them. */
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(
    private readonly versions: Pick<OrgVersions, "current">,
    private readonly opts: { maxAgeMs: number; maxEntries: number; clock?: () => number },
  ) {
    this.kept = new LRUCache(upTo(opts.maxEntries));
  }

  /** `read()`'s answer, or the one kept for `key` of `orgId` while the organization's version holds. */
  async get<T>(orgId: string, key: string, read: () => Promise<T>): Promise<T> {
    const k = `${orgId}\u0000${key}`;
    // The version first: a write landing while the value is read moves it, so that value is not reused.
    const version = await this.versions.current(orgId);
    const hit = this.kept.get(k);
    const now = this.now();
    if (hit && hit.version === version && now - hit.at < this.opts.maxAgeMs) {
      // Half its age: read again in the background, the kept value still answers meanwhile.
      if (2 * (now - hit.at) >= this.opts.maxAgeMs) void this.load(k, version, now, read).catch(ignore);
      return hit.value as T;
    }
    return this.load(k, version, now, read);
  }

  private now(): number {
    return (this.opts.clock ?? Date.now)();
  }

  /** Reads the entry at `version` (read at `at`, before the value), once for every caller at that version. */
  private load<T>(k: string, version: number, at: number, read: () => Promise<T>): Promise<T> {
    const id = `${version}\u0000${k}`;
    const pending = this.pending.get(id);
    if (pending) return pending as Promise<T>;
    const p = read().then((value) => {
      const kept = this.kept.get(k);
      // A newer version's value (a slower read of an older one finishing last) is not replaced.
      if (!kept || kept.version < version || (kept.version === version && kept.at <= at)) this.kept.set(k, { version, at, value });
      return value;
    });
    this.pending.set(id, p);
    const done = () => this.pending.delete(id);
    p.then(done, done);
    return p;
  }
}
