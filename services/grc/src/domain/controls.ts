import { randomUUID } from "node:crypto";
import type { Catalogue } from "@vulnscan/compliance-catalogue";
import { validationError } from "@vulnscan/kit/core";
import { LRUCache } from "lru-cache";
import type { ControlStore, EvidenceStore, LinkStore, StateStore } from "./ports.js";
import { CONTROL_STATUSES, SET_STATUSES, type ControlView, type FrameworkScore, type SetStatus } from "./types.js";
import { changeEvents, found, OrgView, pageOf } from "./view.js";

export interface ControlsDeps {
  catalogue: Catalogue;
  controls: ControlStore;
  links: LinkStore;
  evidence: EvidenceStore;
  state: StateStore;
  now: () => Date;
  /**
   * How long a cached view is served without asking storage for the version again (0: always
   * ask). Changes made through this process are seen at once; another replica's within this.
   */
  viewMaxAgeMs?: number;
}

export interface ControlFilter {
  framework?: string;
  status?: string;
}

export interface ControlChanges {
  status?: string;
  owner?: string;
  notes?: string;
}

/** A listing page and the version of the organization's state it was read at. */
export interface ControlPage extends ReturnType<typeof pageOf<ControlView>> {
  version: string;
  notModified: false;
}

export interface NotModified {
  version: string;
  notModified: true;
}

const MAX_OWNER = 320;
/** Organizations whose view is kept (~800 controls each, a few hundred kB). */
const VIEW_CACHE_ORGS = 500;
const MAX_NOTES = 10_000;

/**
 * Controls, framework scores and the events their changes cause. Reads are served from an
 * in-memory view of the organization, checked against the stored version with one `_id` read,
 * so a listing of ~800 controls costs no scan. Every change goes through `settle`: it stores
 * the change, rebuilds the view from storage, and publishes what differs from the last published
 * statuses and scores (one write, events in the same document), one settle per organization at
 * a time in this process.
 */
export class Controls {
  /** Views of the organizations read lately; the least recently read go first. */
  private readonly cache = new LRUCache<string, { version: string; view: OrgView; checkedAt: number }>({ max: VIEW_CACHE_ORGS });
  private readonly settling = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: ControlsDeps) {}

  /** The organization's view at the stored version (rebuilt when another writer changed it). */
  async view(orgId: string): Promise<OrgView> {
    return (await this.current(orgId)).view;
  }

  /** The view and the version it was built at: every change goes through `settle`, which gives a new one. */
  private async current(orgId: string): Promise<{ version: string; view: OrgView }> {
    const cached = this.cache.get(orgId);
    const now = performance.now();
    if (cached && now - cached.checkedAt < (this.deps.viewMaxAgeMs ?? 0)) return cached;
    const version = (await this.deps.state.version(orgId)) ?? "none";
    if (cached?.version === version) {
      cached.checkedAt = now;
      return cached;
    }
    // Read the version first: a change stored while loading bumps it, so the next read reloads.
    const entry = { version, view: await this.load(orgId), checkedAt: now };
    this.cache.set(orgId, entry);
    return entry;
  }

  private async load(orgId: string): Promise<OrgView> {
    const [overrides, links, counts] = await Promise.all([
      this.deps.controls.overrides(orgId),
      this.deps.links.openLinks(orgId),
      this.deps.evidence.cleanCounts(orgId),
    ]);
    return new OrgView(orgId, this.deps.catalogue, overrides, links, counts);
  }

  /**
   * A page of the organization's controls and the version it was read at; with `ifVersion`, and
   * that version still current, `notModified` without a page (the caller's copy stands).
   */
  async list(orgId: string, filter: ControlFilter, page: number, perPage: number): Promise<ControlPage>;
  async list(orgId: string, filter: ControlFilter, page: number, perPage: number, ifVersion: string | undefined): Promise<ControlPage | NotModified>;
  async list(orgId: string, filter: ControlFilter, page: number, perPage: number, ifVersion?: string): Promise<ControlPage | NotModified> {
    this.checkFilter(filter);
    const { version, view } = await this.current(orgId);
    if (ifVersion !== undefined && ifVersion === version) return { version, notModified: true };
    return { version, notModified: false, ...this.select(view, filter, page, perPage) };
  }

  private checkFilter(filter: ControlFilter): void {
    if (filter.framework !== undefined && !this.deps.catalogue.framework(filter.framework))
      throw validationError("framework", `Unknown framework "${filter.framework}"; allowed: ${this.deps.catalogue.frameworks.map((f) => f.id).join(", ")}`);
    if (filter.status !== undefined && !(CONTROL_STATUSES as readonly string[]).includes(filter.status))
      throw validationError("status", `Unknown status "${filter.status}"; allowed: ${CONTROL_STATUSES.join(", ")}`);
  }

  private select(view: OrgView, filter: ControlFilter, page: number, perPage: number) {
    const items = view.controls.filter(
      (c) => (filter.framework === undefined || c.framework === filter.framework) && (filter.status === undefined || c.status === filter.status),
    );
    return pageOf(items, page, perPage);
  }

  get = async (orgId: string, id: string): Promise<ControlView> => found((await this.view(orgId)).get(id), "Control");

  async frameworks(orgId: string): Promise<FrameworkScore[]> {
    return (await this.view(orgId)).scores(this.deps.catalogue);
  }

  async update(orgId: string, id: string, changes: ControlChanges, user: string): Promise<ControlView> {
    const control = await this.get(orgId, id);
    const fields: { set_status?: SetStatus; owner?: string; notes?: string; updated_at: Date } = { updated_at: this.deps.now() };
    if (changes.status !== undefined) {
      if (!(SET_STATUSES as readonly string[]).includes(changes.status))
        throw validationError("status", `status must be one of ${SET_STATUSES.join(", ")} (failing is set from open findings)`);
      fields.set_status = changes.status as SetStatus;
    }
    if (changes.owner !== undefined) {
      if (changes.owner.length > MAX_OWNER) throw validationError("owner", `owner is longer than ${MAX_OWNER} characters`);
      fields.owner = changes.owner.trim();
    }
    if (changes.notes !== undefined) {
      if (changes.notes.length > MAX_NOTES) throw validationError("notes", `notes are longer than ${MAX_NOTES} characters`);
      fields.notes = changes.notes;
    }
    await this.settle(orgId, user, () => this.deps.controls.set(orgId, id, control.key, fields));
    return this.get(orgId, id);
  }

  /**
   * Applies `change`, then publishes the status and score changes it caused (diffed against the
   * last published state, so a change that changes nothing publishes nothing).
   */
  settle(orgId: string, user: string, change: () => Promise<unknown>): Promise<void> {
    const previous = this.settling.get(orgId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        await change();
        // Saved only over the state it was diffed against: when another replica settled this
        // organization meanwhile, diff again against what that one published.
        for (;;) {
          const before = await this.deps.state.get(orgId);
          const view = await this.load(orgId);
          const scores = view.scores(this.deps.catalogue);
          const events = changeEvents(orgId, before, view, scores, user);
          const version = randomUUID();
          const state = { version, statuses: view.statuses(), scores: Object.fromEntries(scores.map((s) => [s.id, s.score])) };
          if (await this.deps.state.save(orgId, state, before?.version, events)) {
            this.cache.set(orgId, { version, view, checkedAt: performance.now() });
            return;
          }
        }
      });
    this.settling.set(orgId, next);
    // Both outcomes clean up; a failed change reaches the caller through `next`, and this side
    // branch must not reject on its own (an unhandled rejection ended the process).
    const forget = () => {
      if (this.settling.get(orgId) === next) this.settling.delete(orgId);
    };
    next.then(forget, forget);
    return next;
  }
}
