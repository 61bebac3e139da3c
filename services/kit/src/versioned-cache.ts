import { LRUCache } from "lru-cache";
import type { Collection, Db } from "mongodb";

/*
 * Reads kept in memory while an organization's data has not changed. Every write that changes
 * what a kept read shows moves the organization's version (`bump`: one `$inc` upsert, before the
 * write is answered), and a read is kept with the version read before it; a later request reads
 * the version (one `_id` lookup) and answers from memory while it is still the same. A page
 * polled by dashboards then costs one small read instead of a query that decodes its documents.
 * Read-your-writes holds across replicas, since the version lives in the database. A kept read
 * lives `maxAgeMs` at most, so a write that reached the database but not its bump (a crash in
 * between, an operator's script) shows within that.
 */

/** Each organization's version of one kind of data: `{_id: orgId, v}` documents in `collection`. */
export class OrgVersions {
  private readonly coll: Collection<{ _id: string; v: number }>;

  constructor(db: Db, collection: string) {
    this.coll = db.collection(collection);
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

export class VersionedCache {
  private readonly kept: LRUCache<string, Kept>;

  constructor(
    private readonly versions: Pick<OrgVersions, "current">,
    private readonly opts: { maxAgeMs: number; maxEntries: number; clock?: () => number },
  ) {
    this.kept = new LRUCache({ max: opts.maxEntries });
  }

  /** `read()`'s answer, or the one kept for `key` of `orgId` while the organization's version holds. */
  async get<T>(orgId: string, key: string, read: () => Promise<T>): Promise<T> {
    const k = `${orgId}\u0000${key}`;
    // The version first: a write landing while the value is read moves it, so that value is not reused.
    const version = await this.versions.current(orgId);
    const hit = this.kept.get(k);
    const now = (this.opts.clock ?? Date.now)();
    if (hit && hit.version === version && now - hit.at < this.opts.maxAgeMs) return hit.value as T;
    const value = await read();
    this.kept.set(k, { version, at: now, value });
    return value;
  }
}
