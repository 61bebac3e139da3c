import { MemoryScanDurations, MemoryScanLimits, MemoryScanStore, MemoryScheduleStore } from "../testing/memory.js";
import { createScanDomain, type DomainSettings } from "./index.js";
import { noopObserver, type PlanFacts, type PlanTierName, type ScanComparisons } from "./ports.js";
import { TargetPolicy, type Resolver } from "./target.js";

/* Unit-test wiring: the real use cases over in-memory stores, a fixed plan table and a clock. */

/** A plan limit: a maximum, or none (unlimited). */
const limit = (max?: number) => (max === undefined ? { unlimited: true, max: 0 } : { unlimited: false, max });

const plan = (
  tier: PlanTierName,
  concurrent: number | undefined,
  monthly: number | undefined,
  minCidrPrefixLength: number,
  schedulesEnabled: boolean,
): PlanFacts => ({
  tier,
  concurrentScans: limit(concurrent),
  scansPerMonth: limit(monthly),
  minCidrPrefixLength,
  schedulesEnabled,
});

export const PLANS: Record<PlanTierName, PlanFacts> = {
  startup: plan("startup", 1, 25, 28, false),
  professional: plan("professional", 3, 150, 24, true),
  enterprise: plan("enterprise", undefined, undefined, 20, true),
};

export const fakeResolver = (table: Record<string, string[]>): Resolver => ({
  async resolve(name) {
    const hit = table[name];
    if (!hit) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: "ENOTFOUND" });
    return hit;
  },
});

export function testDomain(
  opts: { plans?: Record<string, PlanFacts>; allowPrivate?: boolean; settings?: Partial<DomainSettings>; start?: Date; comparisons?: ScanComparisons } = {},
) {
  let now = opts.start ?? new Date("2026-03-10T12:00:00Z");
  let seq = 0;
  const clock = {
    now: () => new Date(now),
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
    set: (d: Date) => {
      now = d;
    },
  };
  const scanStore = new MemoryScanStore();
  const scheduleStore = new MemoryScheduleStore();
  const limits = new MemoryScanLimits();
  const durations = new MemoryScanDurations();
  const plans = opts.plans ?? { org_s: PLANS.startup, org_p: PLANS.professional, org_e: PLANS.enterprise };
  const domain = createScanDomain({
    scanStore,
    scheduleStore,
    plans: {
      async planOf(orgId) {
        const p = plans[orgId];
        if (!p) throw new Error(`no plan for ${orgId}`);
        return p;
      },
    },
    policy: new TargetPolicy({
      allowPrivate: opts.allowPrivate ?? false,
      allowedNetworks: undefined,
      resolver: fakeResolver({ "example.com": ["93.184.216.34"] }),
    }),
    // Verified targets have their own tests (targets.test.ts); here every target is covered.
    targets: { guard: async () => undefined },
    limits,
    durations,
    observer: noopObserver,
    ...(opts.comparisons ? { comparisons: opts.comparisons } : {}),
    settings: {
      maxDurationSeconds: { quick: 1800, full: 7200, compliance: 3600 },
      redispatchAfterMs: 120_000,
      maxAttempts: 3,
      ...opts.settings,
    },
    now: clock.now,
    newId: (prefix) => `${prefix}_${String(++seq).padStart(4, "0")}`,
  });
  return { ...domain, scanStore, scheduleStore, limits, durations, clock };
}
