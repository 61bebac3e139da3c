import type { Client } from "@connectrpc/connect";
import type { AuthService, Plan } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { RateLimits } from "./rate-limit.js";

/**
 * Plan facts per organization, asked of auth and kept briefly: a plan change reaches the
 * gateway within `ttlMs`. Concurrent misses for one organization share one call.
 */
export class PlanCache {
  private readonly entries = new Map<string, { at: number; plan: Promise<Plan> }>();

  constructor(
    private readonly auth: Client<typeof AuthService>,
    private readonly ttlMs = 30_000,
  ) {}

  get(orgId: string): Promise<Plan> {
    const hit = this.entries.get(orgId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.plan;
    const plan = this.auth.getPlan({ orgId }).then((r) => {
      if (!r.plan) throw new Error(`auth returned no plan for ${orgId}`);
      return r.plan;
    });
    plan.catch(() => this.entries.delete(orgId));
    this.entries.set(orgId, { at: Date.now(), plan });
    return plan;
  }

  async rateLimits(orgId: string): Promise<RateLimits> {
    const limits = (await this.get(orgId)).limits;
    const hour = limits?.requestsPerHour;
    const day = limits?.requestsPerDay;
    return {
      perHour: !hour || hour.unlimited ? undefined : hour.max,
      perDay: !day || day.unlimited ? undefined : day.max,
    };
  }
}
