import { LRUCache } from "lru-cache";

/** A listing's query within the caller's organization: the cache key. */
export interface PageQuery {
  orgId: string;
  framework?: string | undefined;
  status?: string | undefined;
  page: number;
  perPage: number;
}

/**
 * The last answer of each control listing this gateway served, with the version of the
 * organization's compliance state grc read it at. A repeat sends that version and grc answers
 * `not_modified` without building, encoding and sending ~100 controls again (most of a
 * listing's cost, measured in bench/grc), while any change in grc gives a new version: the cache
 * never serves what grc would not.
 */
export class ControlPages<T extends { items: unknown[] }> {
  private readonly pages: LRUCache<string, { version: string; body: T }>;

  constructor(maxBytes = 32 * 1024 * 1024) {
    // Sizes are estimates (a list item is a few hundred bytes of JSON); the bound is what matters.
    this.pages = new LRUCache({ maxSize: maxBytes, sizeCalculation: (v) => 256 + 400 * v.body.items.length });
  }

  private key(q: PageQuery): string {
    return [q.orgId, q.framework ?? "", q.status ?? "", q.page, q.perPage].join("\n");
  }

  /** What this gateway last served for the query, if it still holds it. */
  held(q: PageQuery): { version: string; body: T } | undefined {
    return this.pages.get(this.key(q));
  }

  keep(q: PageQuery, version: string, body: T): void {
    if (version) this.pages.set(this.key(q), { version, body });
  }
}
