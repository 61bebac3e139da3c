import type { Client } from "@connectrpc/connect";
import type { AuthService, Plan } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { LRUCache } from "lru-cache";
import type { RateLimits } from "./rate-limit.js";

interface Entry {
  plan: Plan;
  limits: RateLimits;
}

function rateLimitsOf(plan: Plan): RateLimits {
  const hour = plan.limits?.requestsPerHour;
  const day = plan.limits?.requestsPerDay;
  return {
    perHour: !hour || hour.unlimited ? undefined : hour.max,
    perDay: !day || day.unlimited ? undefined : day.max,
  };
}

/**
 * Plan facts per organization, bounded (least recently used out). A miss asks auth's GetPlan
 * once (concurrent misses share the call); after that the entry is kept current by the
 * auth.plan_changed events the AuthView passes on, so the steady state makes no call. After a
 * gap in the events the view clears the cache. A GetPlan answer that was in flight while a
 * plan event or a clear arrived is not stored (it may be older than what the event said).
 */
export class PlanCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly inflight = new Map<string, Promise<Entry>>();
  /** Bumped by every event or clear: an answer asked for before it must not be stored. */
  private readonly versions = new Map<string, number>();
  private epoch = 0;

  constructor(
    private readonly auth: Pick<Client<typeof AuthService>, "getPlan">,
    max = 50_000,
  ) {
    this.entries = new LRUCache({ max });
  }

  /** The cached entry without a call, or undefined (the guard's fast path). */
  peek(orgId: string): Entry | undefined {
    return this.entries.get(orgId);
  }

  private load(orgId: string): Promise<Entry> {
    const pending = this.inflight.get(orgId);
    if (pending) return pending;
    const epoch = this.epoch;
    const version = this.versions.get(orgId) ?? 0;
    const p = this.auth
      .getPlan({ orgId })
      .then((r) => {
        if (!r.plan) throw new Error(`auth returned no plan for ${orgId}`);
        const entry = { plan: r.plan, limits: rateLimitsOf(r.plan) };
        if (epoch === this.epoch && version === (this.versions.get(orgId) ?? 0)) this.entries.set(orgId, entry);
        return entry;
      })
      .finally(() => this.inflight.delete(orgId));
    this.inflight.set(orgId, p);
    return p;
  }

  async get(orgId: string): Promise<Plan> {
    return (this.entries.get(orgId) ?? (await this.load(orgId))).plan;
  }

  async rateLimits(orgId: string): Promise<RateLimits> {
    return (this.entries.get(orgId) ?? (await this.load(orgId))).limits;
  }

  async entry(orgId: string): Promise<Entry> {
    return this.entries.get(orgId) ?? this.load(orgId);
  }

  /** auth.plan_changed: the new effective plan. */
  applyPlan(orgId: string, plan: Plan): void {
    this.versions.set(orgId, (this.versions.get(orgId) ?? 0) + 1);
    if (this.versions.size > 100_000) {
      // Bounded too: forgetting versions is safe once every answer in flight is disowned.
      this.versions.clear();
      this.epoch++;
    }
    this.entries.set(orgId, { plan, limits: rateLimitsOf(plan) });
  }

  /** Forget everything (after a gap in the events). */
  clear(): void {
    this.epoch++;
    this.versions.clear();
    this.entries.clear();
  }
}
