import type { PlanSink } from "@vulnscan/kit/plan-events";
import { PlanClient, type PlanSource } from "@vulnscan/kit/plans";
import { PlanTier, type Limit as LimitMsg, type Plan } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { Limit, PlanFacts, PlanProvider, PlanTierName } from "../domain/ports.js";

const tierNames: Record<PlanTier, PlanTierName> = {
  [PlanTier.UNSPECIFIED]: "startup",
  [PlanTier.STARTUP]: "startup",
  [PlanTier.PROFESSIONAL]: "professional",
  [PlanTier.ENTERPRISE]: "enterprise",
};

/** DESIGN.md §3 CIDR caps, used only if auth ever answers without one (never "any size"). */
const DEFAULT_MIN_PREFIX: Record<PlanTierName, number> = { startup: 28, professional: 24, enterprise: 20 };

/** An unset Limit fails closed (max 0), as auth's contract says. */
const limitOf = (l: LimitMsg | undefined): Limit => ({ unlimited: l?.unlimited ?? false, max: l?.unlimited ? 0 : Math.max(0, l?.max ?? 0) });

export function planFacts(plan: Plan | undefined): PlanFacts {
  const tier = tierNames[plan?.tier ?? PlanTier.UNSPECIFIED] ?? "startup";
  const limits = plan?.limits;
  const minPrefix = limits?.minCidrPrefixLength ?? 0;
  return {
    tier,
    concurrentScans: limitOf(limits?.concurrentScans),
    scansPerMonth: limitOf(limits?.scansPerMonth),
    minCidrPrefixLength: minPrefix > 0 ? minPrefix : DEFAULT_MIN_PREFIX[tier],
    schedulesEnabled: plan?.schedulesEnabled ?? false,
  };
}

/**
 * Plan facts from auth's GetPlan, cached per organization for a short time (auth allows up to
 * a minute; we keep ≤ 30 s; 0 caches nothing). Concurrent misses for one organization share one
 * call. Errors are not cached: auth unreachable answers UNAVAILABLE. `cache` takes
 * auth.plan_changed (kit's followPlanChanges), so a change shows at once; the TTL bounds a plan
 * missed while the events were away.
 */
export function authPlanProvider(auth: PlanSource, ttlMs = 30_000, now?: () => number): PlanProvider & { cache: PlanSink } {
  const client = new PlanClient(auth, { project: planFacts, ttlMs, now });
  return { planOf: (orgId) => client.get(orgId), cache: client };
}
