import { describe, expect, it } from "vitest";
import { effectivePlan, isPlanTier, TIERS } from "./plans.js";

const n = (max: number) => ({ unlimited: false, max });
const unlimited = { unlimited: true, max: 0 };

describe("plan table", () => {
  it("Startup: the spec's limits, no API keys, schedules or webhooks", () => {
    expect(effectivePlan("startup")).toEqual({
      tier: "startup",
      limits: {
        requestsPerHour: n(100),
        requestsPerDay: n(1000),
        concurrentScans: n(1),
        scansPerMonth: n(25),
        webhooks: n(0),
        webhookEventsPerHour: n(0),
        aiCreditsPerMonth: n(50),
        minCidrPrefixLength: 28,
      },
      apiKeysEnabled: false,
      schedulesEnabled: false,
      webhooksEnabled: false,
    });
  });

  it("Professional: the spec's limits and every feature", () => {
    expect(effectivePlan("professional")).toEqual({
      tier: "professional",
      limits: {
        requestsPerHour: n(500),
        requestsPerDay: n(5000),
        concurrentScans: n(3),
        scansPerMonth: n(150),
        webhooks: n(5),
        webhookEventsPerHour: n(1000),
        aiCreditsPerMonth: n(500),
        minCidrPrefixLength: 24,
      },
      apiKeysEnabled: true,
      schedulesEnabled: true,
      webhooksEnabled: true,
    });
  });

  it("Enterprise: unlimited scans and webhooks, customisable defaults", () => {
    const p = effectivePlan("enterprise");
    expect(p.limits).toEqual({
      requestsPerHour: n(10_000),
      requestsPerDay: n(100_000),
      concurrentScans: unlimited,
      scansPerMonth: unlimited,
      webhooks: unlimited,
      webhookEventsPerHour: n(10_000),
      aiCreditsPerMonth: n(5000),
      minCidrPrefixLength: 20,
    });
    expect([p.apiKeysEnabled, p.schedulesEnabled, p.webhooksEnabled]).toEqual([true, true, true]);
  });

  it("custom limits override field by field and leave the rest to the tier", () => {
    const p = effectivePlan("enterprise", { requestsPerHour: n(50_000), concurrentScans: n(20), minCidrPrefixLength: 16 });
    expect(p.limits.requestsPerHour).toEqual(n(50_000));
    expect(p.limits.concurrentScans).toEqual(n(20));
    expect(p.limits.minCidrPrefixLength).toBe(16);
    expect(p.limits.requestsPerDay).toEqual(n(100_000));
    expect(p.limits.scansPerMonth).toEqual(unlimited);
  });

  it("a tier without webhooks keeps a webhook limit of 0 whatever the overrides say", () => {
    const p = effectivePlan("startup", { webhooks: unlimited, webhookEventsPerHour: n(5) });
    expect(p.webhooksEnabled).toBe(false);
    expect(p.limits.webhooks).toEqual(n(0));
    expect(p.limits.webhookEventsPerHour).toEqual(n(0));
  });

  it("returns copies: callers cannot change the table", () => {
    effectivePlan("startup").limits.requestsPerHour.max = 1;
    expect(TIERS.startup.limits.requestsPerHour.max).toBe(100);
  });

  it("knows its tier names", () => {
    expect(["startup", "professional", "enterprise"].every(isPlanTier)).toBe(true);
    expect(isPlanTier("free")).toBe(false);
  });
});
