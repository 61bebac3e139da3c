import type { Client } from "@connectrpc/connect";
import type { AuthService, Plan } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { LRUCache } from "lru-cache";
import { upTo } from "./lru.js";

/** The one auth call a plan client makes. */
export type PlanSource = Pick<Client<typeof AuthService>, "getPlan">;

export interface PlanClientOptions<T> {
  /**
   * What the caller keeps of auth's plan (computed once per load or event, not per read). It
   * gets `undefined` when auth answered without a plan; throwing there fails the load, and a
   * failed load is not cached.
   */
  project: (plan: Plan | undefined, orgId: string) => T;
  /** Organizations kept at most (least recently used out). */
  max?: number;
  /**
   * An entry older than this is asked again. Unset: kept until an event replaces it or it is
   * evicted (a service that follows auth.plan_changed). 0: nothing is cached (tests that change
   * plans and expect the next call to see it).
   */
  ttlMs?: number;
  /** Clock for the TTL, in ms (tests). */
  now?: () => number;
}

/** Answers asked for before this many plan events forget their versions and are disowned wholesale. */
const MAX_VERSIONS = 100_000;

/**
 * Auth's plan per organization, projected and cached: bounded (lru-cache), with an optional TTL
 * for services that do not follow auth.plan_changed, and with concurrent misses for one
 * organization sharing one GetPlan call. Errors are not cached.
 *
 * Services that follow the plan events (the gateway's AuthView) call `applyPlan` with the new
 * plan, `invalidate` to forget one organization and `clear` after a gap in the events. A GetPlan
 * answer that was in flight while one of those arrived is returned to its callers but not
 * stored: it may be older than what the event said.
 */
export class PlanClient<T> {
  private readonly entries: LRUCache<string, { value: T }>;
  private readonly inflight = new Map<string, Promise<T>>();
  /** Bumped by every event or invalidation of an organization. */
  private readonly versions = new Map<string, number>();
  /** Bumped by clear(): every answer asked for before it is disowned. */
  private epoch = 0;
  private readonly project: PlanClientOptions<T>["project"];
  private readonly uncached: boolean;

  constructor(
    private readonly auth: PlanSource,
    opts: PlanClientOptions<T>,
  ) {
    this.project = opts.project;
    const ttl = opts.ttlMs ?? 0;
    this.uncached = opts.ttlMs === 0;
    this.entries = new LRUCache<string, { value: T }>({
      ...upTo(opts.max ?? 10_000),
      ...(ttl > 0 ? { ttl, ttlResolution: 0 } : {}),
      ...(opts.now ? { perf: { now: opts.now } } : {}),
    });
  }

  /** The cached value without a call, or undefined (a caller's fast path). */
  peek(orgId: string): T | undefined {
    return this.entries.get(orgId)?.value;
  }

  /** The cached value, or auth's answer (one call shared by concurrent misses). */
  get(orgId: string): Promise<T> {
    if (this.uncached) return this.auth.getPlan({ orgId }).then((r) => this.project(r.plan, orgId));
    const hit = this.entries.get(orgId);
    return hit ? Promise.resolve(hit.value) : this.load(orgId);
  }

  /** auth.plan_changed: the organization's new effective plan. */
  applyPlan(orgId: string, plan: Plan): void {
    this.bump(orgId);
    if (!this.uncached) this.entries.set(orgId, { value: this.project(plan, orgId) });
  }

  /** Forget one organization: the next read asks auth. */
  invalidate(orgId: string): void {
    this.bump(orgId);
    this.entries.delete(orgId);
  }

  /** Forget everything (after a gap in the events). */
  clear(): void {
    this.epoch++;
    this.versions.clear();
    this.entries.clear();
  }

  private bump(orgId: string): void {
    this.versions.set(orgId, (this.versions.get(orgId) ?? 0) + 1);
    // Bounded too: forgetting versions is safe once every answer in flight is disowned.
    if (this.versions.size > MAX_VERSIONS) {
      this.versions.clear();
      this.epoch++;
    }
  }

  private load(orgId: string): Promise<T> {
    const pending = this.inflight.get(orgId);
    if (pending) return pending;
    const epoch = this.epoch;
    const version = this.versions.get(orgId) ?? 0;
    const p = this.auth
      .getPlan({ orgId })
      .then((r) => {
        const value = this.project(r.plan, orgId);
        if (epoch === this.epoch && version === (this.versions.get(orgId) ?? 0)) this.entries.set(orgId, { value });
        return value;
      })
      .finally(() => this.inflight.delete(orgId));
    this.inflight.set(orgId, p);
    return p;
  }
}
