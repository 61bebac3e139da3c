import type { Page, WebhookRepo } from "../domain/ports.js";
import type { Webhook } from "../domain/types.js";

/** Entries kept at most before the cache starts over (one per organization and event kind, or webhook). */
const MAX_ENTRIES = 50_000;

/**
 * The dispatcher's read path over the webhooks: every event asks "who is subscribed" and every
 * attempt "where to and with which secret", so both are served from memory for `ttlMs`. Writes go
 * through and drop this replica's entries of the organization; another replica sees a change
 * within `ttlMs` (a PATCHed URL or a deletion may still get a delivery in that window). The
 * registry (the API) reads the repository directly, never this cache.
 */
export class CachedWebhooks implements WebhookRepo {
  private readonly entries = new Map<string, { at: number; value: unknown }>();

  constructor(
    private readonly inner: WebhookRepo,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  private readonly loading = new Map<string, Promise<unknown>>();

  /** Concurrent misses of one key share one read (a batch of 200 events of one organization asked 200 times). */
  private async cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && this.clock() - hit.at < this.ttlMs) return hit.value as T;
    const pending = this.loading.get(key);
    if (pending) return pending as Promise<T>;
    const loaded: Promise<T> = load()
      .then((value) => {
        // A write while this read ran dropped it from `loading`: its answer may predate the write.
        if (this.loading.get(key) !== loaded) return value;
        if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
        this.entries.set(key, { at: this.clock(), value });
        return value;
      })
      .finally(() => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
      });
    this.loading.set(key, loaded);
    return loaded;
  }

  private forget(orgId: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(`${orgId}|`)) this.entries.delete(key);
    for (const key of this.loading.keys()) if (key.startsWith(`${orgId}|`)) this.loading.delete(key);
  }

  get(orgId: string, id: string) {
    return this.cached(`${orgId}|id|${id}`, () => this.inner.get(orgId, id));
  }

  subscribed(orgId: string, event: string) {
    return this.cached(`${orgId}|ev|${event}`, () => this.inner.subscribed(orgId, event));
  }

  list(orgId: string, skip: number, limit: number): Promise<Page<Webhook>> {
    return this.inner.list(orgId, skip, limit);
  }

  async insert(w: Webhook) {
    await this.inner.insert(w);
    this.forget(w.orgId);
  }

  async save(w: Webhook) {
    await this.inner.save(w);
    this.forget(w.orgId);
  }

  async remove(orgId: string, id: string) {
    const removed = await this.inner.remove(orgId, id);
    this.forget(orgId);
    return removed;
  }

  async markFailing(orgId: string, id: string, at: Date) {
    await this.inner.markFailing(orgId, id, at);
    this.forget(orgId);
  }

  async clearFailing(orgId: string, id: string) {
    await this.inner.clearFailing(orgId, id);
    this.forget(orgId);
  }
}
