import { create } from "@bufbuild/protobuf";
import { GetPlanResponseSchema, PlanSchema, PlanTier, type Plan } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { describe, expect, it } from "vitest";
import { PlanClient, type PlanSource } from "./plans.js";

const tierOf = (plan: Plan | undefined) => plan?.tier ?? PlanTier.UNSPECIFIED;

/** An auth whose GetPlan answers are released by hand, counting calls. */
function manualAuth(tier = PlanTier.STARTUP) {
  const state = { calls: 0, fail: false, tier, pending: [] as (() => void)[] };
  const auth: PlanSource = {
    getPlan: (async () => {
      state.calls++;
      await new Promise<void>((r) => state.pending.push(r));
      if (state.fail) throw new Error("unavailable");
      return create(GetPlanResponseSchema, { plan: { tier: state.tier } });
    }) as never,
  };
  const release = async () => {
    for (const r of state.pending.splice(0)) r();
    await new Promise((r) => setImmediate(r));
  };
  return { state, auth, release };
}

/** Reads that resolve at once (the call is answered immediately). */
function instantAuth() {
  const state = { calls: 0, fail: false };
  const auth: PlanSource = {
    getPlan: (async () => {
      state.calls++;
      if (state.fail) throw new Error("unavailable");
      return create(GetPlanResponseSchema, { plan: { tier: PlanTier.STARTUP } });
    }) as never,
  };
  return { state, auth };
}

describe("PlanClient", () => {
  it("shares one call between concurrent misses and caches per organization for the TTL", async () => {
    const { state, auth } = instantAuth();
    let t = 1_000;
    const plans = new PlanClient(auth, { project: tierOf, ttlMs: 30_000, now: () => t });
    await Promise.all([plans.get("org_a"), plans.get("org_a")]);
    expect(state.calls).toBe(1);
    t += 30_000;
    expect(await plans.get("org_a")).toBe(PlanTier.STARTUP);
    expect(state.calls).toBe(1);
    await plans.get("org_b");
    expect(state.calls).toBe(2);
    t += 1;
    expect(plans.peek("org_a")).toBeUndefined();
    await plans.get("org_a");
    expect(state.calls).toBe(3);
  });

  it("does not cache errors, nor a projection that throws", async () => {
    const { state, auth } = instantAuth();
    state.fail = true;
    const plans = new PlanClient(auth, {
      project: (plan) => {
        if (!plan) throw new Error("no plan");
        return plan.tier;
      },
    });
    await expect(plans.get("org_a")).rejects.toThrow("unavailable");
    state.fail = false;
    expect(await plans.get("org_a")).toBe(PlanTier.STARTUP);
    expect(state.calls).toBe(2);
    const empty = new PlanClient({ getPlan: (async () => create(GetPlanResponseSchema, {})) as never }, { project: (plan) => plan!.tier });
    await expect(empty.get("org_a")).rejects.toThrow();
    expect(empty.peek("org_a")).toBeUndefined();
  });

  it("is bounded: the least recently used organization goes first", async () => {
    const { state, auth } = instantAuth();
    const plans = new PlanClient(auth, { project: tierOf, max: 2 });
    await plans.get("org_a");
    await plans.get("org_b");
    await plans.get("org_a");
    await plans.get("org_c");
    expect(plans.peek("org_a")).toBe(PlanTier.STARTUP);
    expect(plans.peek("org_b")).toBeUndefined();
    expect(state.calls).toBe(3);
  });

  it("applies plan events, and an answer in flight across an event, an invalidation or a clear is returned but not stored", async () => {
    const { state, auth, release } = manualAuth(PlanTier.STARTUP);
    const plans = new PlanClient(auth, { project: tierOf });

    const before = plans.get("org_a");
    plans.applyPlan("org_a", create(PlanSchema, { tier: PlanTier.ENTERPRISE }));
    await release();
    expect(await before).toBe(PlanTier.STARTUP);
    expect(plans.peek("org_a")).toBe(PlanTier.ENTERPRISE);
    expect(await plans.get("org_a")).toBe(PlanTier.ENTERPRISE);
    expect(state.calls).toBe(1);

    plans.invalidate("org_a");
    expect(plans.peek("org_a")).toBeUndefined();
    const racing = plans.get("org_a");
    plans.invalidate("org_a");
    await release();
    await racing;
    expect(plans.peek("org_a")).toBeUndefined();

    const cleared = plans.get("org_b");
    plans.clear();
    await release();
    expect(await cleared).toBe(PlanTier.STARTUP);
    expect(plans.peek("org_b")).toBeUndefined();

    const stored = plans.get("org_b");
    await release();
    await stored;
    expect(plans.peek("org_b")).toBe(PlanTier.STARTUP);
    expect(state.calls).toBe(4);
  });
});

describe("PlanClient with ttlMs 0", () => {
  it("caches nothing: every read asks auth", async () => {
    const { state, auth } = instantAuth();
    const plans = new PlanClient(auth, { project: tierOf, ttlMs: 0 });
    await Promise.all([plans.get("org_a"), plans.get("org_a")]);
    await plans.get("org_a");
    expect(state.calls).toBe(3);
    expect(plans.peek("org_a")).toBeUndefined();
  });
});
