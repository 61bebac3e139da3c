import { create } from "@bufbuild/protobuf";
import { GetPlanResponseSchema, PlanTier } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { describe, expect, it } from "vitest";
import { authPlanProvider, planFacts } from "./auth-plans.js";

describe("planFacts", () => {
  it("maps auth's plan; unset limits fail closed; a missing CIDR cap falls back to the tier's", () => {
    expect(
      planFacts(
        create(GetPlanResponseSchema, {
          plan: {
            tier: PlanTier.PROFESSIONAL,
            limits: { concurrentScans: { max: 3 }, scansPerMonth: { max: 150 }, minCidrPrefixLength: 24 },
            schedulesEnabled: true,
          },
        }).plan,
      ),
    ).toEqual({
      tier: "professional",
      concurrentScans: { unlimited: false, max: 3 },
      scansPerMonth: { unlimited: false, max: 150 },
      minCidrPrefixLength: 24,
      schedulesEnabled: true,
    });
    expect(planFacts(create(GetPlanResponseSchema, { plan: { tier: PlanTier.ENTERPRISE, limits: {} } }).plan)).toMatchObject({
      concurrentScans: { unlimited: false, max: 0 },
      minCidrPrefixLength: 20,
      schedulesEnabled: false,
    });
  });
});

describe("authPlanProvider", () => {
  it("caches per organization for the TTL, shares concurrent calls and does not cache errors", async () => {
    let calls = 0;
    let fail = false;
    let t = 1_000;
    const provider = authPlanProvider(
      {
        getPlan: (async (_req: { orgId: string }) => {
          calls++;
          if (fail) throw new Error("unavailable");
          return create(GetPlanResponseSchema, { plan: { tier: PlanTier.STARTUP, limits: { minCidrPrefixLength: 28 } } });
        }) as never,
      },
      30_000,
      () => t,
    );
    await Promise.all([provider.planOf("org_a"), provider.planOf("org_a")]);
    expect(calls).toBe(1);
    t = 31_000;
    await provider.planOf("org_a");
    expect(calls).toBe(1);
    await provider.planOf("org_b");
    expect(calls).toBe(2);
    t = 31_001;
    fail = true;
    await expect(provider.planOf("org_a")).rejects.toThrow("unavailable");
    fail = false;
    expect((await provider.planOf("org_a")).tier).toBe("startup");
    expect(calls).toBe(4);
  });
});
