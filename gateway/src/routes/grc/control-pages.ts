import { LRUCache } from "lru-cache";
import { upTo } from "@vulnscan/kit/lru";

/** A listing's query within the caller's organization: the cache key. */
export interface PageQuery {
  orgId: string;
  framework?: string | undefined;
  status?: string | undefined;
  page: number;
  perPage: number;
}

interface Page<T> {
  version: string;
  body: T;
  /** When grc last said this page was current (ms, this process's clock). */
  checkedAt: number;
}

/**
 * The last answer of each control listing this gateway served, with the version of the
 * organization's compliance state grc read it at. A repeat sends that version and grc answers
 * `not_modified` without building, encoding and sending ~100 controls again (most of a
 * listing's cost, measured in bench/grc), while any change in grc gives a new version.
 *
 * Within `freshMs` of grc's last word on a page, a repeat is answered from memory without asking
 * grc: grc itself checks its version at most every 250 ms (VIEW_MAX_AGE_MS), so another replica's
 * change is already that late, and this adds at most the same again. A change made through this
 * gateway (`changed`) ends the window for its organization at once, so a caller reads its own
 * writes.
 */
export class ControlPages<T extends { items: unknown[] }> {
  private readonly pages: LRUCache<string, Page<T>>;
  /** When each organization's controls last changed through this gateway (the most recent 100,000). */
  private readonly changedAt: LRUCache<string, number>;

  constructor(
    private readonly freshMs = 250,
    maxBytes = 32 * 1024 * 1024,
    private readonly now: () => number = performance.now.bind(performance),
  ) {
    // Sizes are estimates (a list item is a few hundred bytes of JSON); the bound is what matters.
    this.pages = new LRUCache({ maxSize: maxBytes, sizeCalculation: (v) => 256 + 400 * v.body.items.length });
    this.changedAt = new LRUCache(upTo(100_000));
  }

  private key(q: PageQuery): string {
    return [q.orgId, q.framework ?? "", q.status ?? "", q.page, q.perPage].join("\n");
  }

  /** What this gateway last served for the query, if it still holds it. */
  held(q: PageQuery): Page<T> | undefined {
    return this.pages.get(this.key(q));
  }

  /** The page, if grc said it was current less than `freshMs` ago and nothing changed since through here. */
  fresh(q: PageQuery): T | undefined {
    const page = this.held(q);
    if (!page || this.now() - page.checkedAt >= this.freshMs) return undefined;
    const changed = this.changedAt.get(q.orgId);
    return changed !== undefined && changed >= page.checkedAt ? undefined : page.body;
  }

  /** grc answered this page (new, or `not_modified` for the held one) as of `askedAt`. */
  keep(q: PageQuery, version: string, body: T, askedAt: number): void {
    if (version) this.pages.set(this.key(q), { version, body, checkedAt: askedAt });
  }

  /** The organization's controls changed through this gateway: its pages must be asked about again. */
  changed(orgId: string): void {
    this.changedAt.set(orgId, this.now());
  }

  /** The clock the windows are measured on; a request notes it before asking grc. */
  clock(): number {
    return this.now();
  }
}
