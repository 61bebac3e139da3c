import { LRUCache } from "lru-cache";
import { upTo } from "@vulnscan/kit/lru";
import type { Page, WebhookRepo } from "../domain/ports.js";
import type { Webhook } from "../domain/types.js";

/** Organizations whose reads are kept at most (each: a read per event kind and per webhook asked). */
const MAX_ORGS = 10_000;

/**
 * The dispatcher's read path over the webhooks: every event asks "who is subscribed" and every
 * attempt "where to and with which secret", so both are served from memory. An organization's
 * reads are kept together for `ttlMs` from its first, as promises, so concurrent misses share one
 * read; a write goes through and drops the organization's reads, and a read it overtook is
 * answered to its callers but kept for nobody. Another replica sees a change within `ttlMs` (a
 * PATCHed URL or a deletion may still get a delivery in that window). The registry (the API)
 * reads the repository directly, never this cache.
 */
export class CachedWebhooks implements WebhookRepo {
  private readonly orgs: LRUCache<string, Map<string, Promise<unknown>>> | undefined;

  constructor(
    private readonly inner: WebhookRepo,
    ttlMs: number,
  ) {
    if (ttlMs > 0) this.orgs = new LRUCache({ ...upTo(MAX_ORGS), ttl: ttlMs });
  }

  private cached<T>(orgId: string, key: string, load: () => Promise<T>, also?: (value: T) => [string, unknown][]): Promise<T> {
    if (!this.orgs) return load();
    const reads = this.orgs.get(orgId) ?? new Map<string, Promise<unknown>>();
    if (!this.orgs.has(orgId)) this.orgs.set(orgId, reads);
    let read = reads.get(key) as Promise<T> | undefined;
    if (!read) {
      read = load();
      reads.set(key, read);
      read.then(
        (value) => {
          // Kept beside it, for its callers (registered first, this runs before theirs), unless a write dropped the organization's reads.
          if (also && this.orgs?.peek(orgId) === reads) for (const [k, v] of also(value)) if (!reads.has(k)) reads.set(k, Promise.resolve(v));
        },
        () => reads.delete(key), // a failed read is asked again
      );
    }
    return read;
  }

  get(orgId: string, id: string) {
    return this.cached(orgId, `id|${id}`, () => this.inner.get(orgId, id));
  }

  /**
   * Also answers `get` for each webhook found until the organization's reads expire: an event's
   * attempts ask for the webhooks its fan-out has just read, and once a second the expired
   * cache made every first attempt in flight wait for a second read, one after the other.
   */
  subscribed(orgId: string, event: string) {
    return this.cached(
      orgId,
      `ev|${event}`,
      () => this.inner.subscribed(orgId, event),
      (hooks) => hooks.map((w) => [`id|${w.id}`, w]),
    );
  }

  list(orgId: string, skip: number, limit: number): Promise<Page<Webhook>> {
    return this.inner.list(orgId, skip, limit);
  }

  private async write<T>(orgId: string, write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      this.orgs?.delete(orgId);
    }
  }

  insert(w: Webhook) {
    return this.write(w.orgId, this.inner.insert(w));
  }

  update(w: Webhook, restart: boolean) {
    return this.write(w.orgId, this.inner.update(w, restart));
  }

  remove(orgId: string, id: string) {
    return this.write(orgId, this.inner.remove(orgId, id));
  }

  markFailing(orgId: string, id: string, at: Date) {
    return this.write(orgId, this.inner.markFailing(orgId, id, at));
  }

  clearFailing(orgId: string, id: string) {
    return this.write(orgId, this.inner.clearFailing(orgId, id));
  }

  disable(orgId: string, id: string, reason: string, at: Date) {
    return this.write(orgId, this.inner.disable(orgId, id, reason, at));
  }
}
