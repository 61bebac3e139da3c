import type { CustomLimits, Limit, Plan, PlanLimits, PlanTier } from "./types.js";

const max = (n: number): Limit => ({ unlimited: false, max: n });
const unlimited: Limit = { unlimited: true, max: 0 };

interface TierDefinition {
  limits: PlanLimits;
  apiKeysEnabled: boolean;
  schedulesEnabled: boolean;
  webhooksEnabled: boolean;
}

/**
 * The plans of the spec's Limits tables, as data. Enterprise is "customised" in the spec:
 * these are its defaults, and SetPlan's custom limits override them per organization.
 */
export const TIERS: Readonly<Record<PlanTier, TierDefinition>> = {
  startup: {
    limits: {
      requestsPerHour: max(100),
      requestsPerDay: max(1000),
      concurrentScans: max(1),
      scansPerMonth: max(25),
      webhooks: max(0),
      webhookEventsPerHour: max(0),
      aiCreditsPerMonth: max(50),
      minCidrPrefixLength: 28,
    },
    apiKeysEnabled: false,
    schedulesEnabled: false,
    webhooksEnabled: false,
  },
  professional: {
    limits: {
      requestsPerHour: max(500),
      requestsPerDay: max(5000),
      concurrentScans: max(3),
      scansPerMonth: max(150),
      webhooks: max(5),
      webhookEventsPerHour: max(1000),
      aiCreditsPerMonth: max(500),
      minCidrPrefixLength: 24,
    },
    apiKeysEnabled: true,
    schedulesEnabled: true,
    webhooksEnabled: true,
  },
  enterprise: {
    limits: {
      requestsPerHour: max(10_000),
      requestsPerDay: max(100_000),
      concurrentScans: unlimited,
      scansPerMonth: unlimited,
      webhooks: unlimited,
      webhookEventsPerHour: max(10_000),
      aiCreditsPerMonth: max(5000),
      minCidrPrefixLength: 20,
    },
    apiKeysEnabled: true,
    schedulesEnabled: true,
    webhooksEnabled: true,
  },
};

const copyLimit = (l: Limit): Limit => ({ unlimited: l.unlimited, max: l.unlimited ? 0 : l.max });

/**
 * The plan as enforced: the tier's defaults with the organization's overrides on top.
 * Features follow the tier only, and a tier without webhooks has a webhook limit of 0
 * whatever the overrides say, so the flags and the numbers never disagree.
 */
export function effectivePlan(tier: PlanTier, custom?: CustomLimits): Plan {
  const def = TIERS[tier];
  const base = def.limits;
  const c = custom ?? {};
  const limits: PlanLimits = {
    requestsPerHour: copyLimit(c.requestsPerHour ?? base.requestsPerHour),
    requestsPerDay: copyLimit(c.requestsPerDay ?? base.requestsPerDay),
    concurrentScans: copyLimit(c.concurrentScans ?? base.concurrentScans),
    scansPerMonth: copyLimit(c.scansPerMonth ?? base.scansPerMonth),
    webhooks: copyLimit(c.webhooks ?? base.webhooks),
    webhookEventsPerHour: copyLimit(c.webhookEventsPerHour ?? base.webhookEventsPerHour),
    aiCreditsPerMonth: copyLimit(c.aiCreditsPerMonth ?? base.aiCreditsPerMonth),
    minCidrPrefixLength: c.minCidrPrefixLength ?? base.minCidrPrefixLength,
  };
  if (!def.webhooksEnabled) {
    limits.webhooks = { unlimited: false, max: 0 };
    limits.webhookEventsPerHour = { unlimited: false, max: 0 };
  }
  return {
    tier,
    limits,
    apiKeysEnabled: def.apiKeysEnabled,
    schedulesEnabled: def.schedulesEnabled,
    webhooksEnabled: def.webhooksEnabled,
  };
}

export function isPlanTier(s: string): s is PlanTier {
  return s === "startup" || s === "professional" || s === "enterprise";
}
