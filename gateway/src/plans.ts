import type { Plan } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { PlanClient, type PlanSource } from "@vulnscan/kit/plans";
import type { RateLimits } from "./rate-limit.js";

export interface PlanEntry {
  plan: Plan;
  limits: RateLimits;
}

function entryOf(plan: Plan | undefined, orgId: string): PlanEntry {
  if (!plan) throw new Error(`auth returned no plan for ${orgId}`);
  const hour = plan.limits?.requestsPerHour;
  const day = plan.limits?.requestsPerDay;
  return {
    plan,
    limits: {
      perHour: !hour || hour.unlimited ? undefined : hour.max,
      perDay: !day || day.unlimited ? undefined : day.max,
    },
  };
}

/**
 * The gateway's plan facts: the kit's plan client without a TTL, kept current by the
 * auth.plan_changed events the AuthView passes on (`applyPlan`, `clear` after a gap), so the
 * steady state makes no call. Rate limits are derived once per plan, not per request.
 */
export class PlanCache extends PlanClient<PlanEntry> {
  constructor(auth: PlanSource, max = 50_000) {
    super(auth, { project: entryOf, max });
  }

  async rateLimits(orgId: string): Promise<RateLimits> {
    return (await this.get(orgId)).limits;
  }
}
