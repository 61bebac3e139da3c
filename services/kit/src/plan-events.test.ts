import { create } from "@bufbuild/protobuf";
import { PlanTier, type Plan } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { EventEnvelopeSchema, type EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { describe, expect, it, vi } from "vitest";
import type { KafkaBus, SubscribeOptions } from "./kafka.js";
import { createLogger } from "./logger.js";
import { followPlanChanges, planChangeOf } from "./plan-events.js";

const planChanged = (orgId: string, tier: PlanTier) =>
  create(EventEnvelopeSchema, { type: "auth.plan_changed", orgId, payload: { case: "authPlanChanged", value: { plan: { tier } } } });

/** A bus whose subscriptions are recorded so a test can feed them events or crash them. */
function fakeBus() {
  const subs: SubscribeOptions<typeof EventEnvelopeSchema>[] = [];
  const bus = {
    latestOffsets: async () => [{ partition: 0, offset: "42" }],
    subscribe: async (o: SubscribeOptions<typeof EventEnvelopeSchema>) => {
      subs.push(o);
      return { stop: async () => undefined };
    },
  } as unknown as KafkaBus;
  return { bus, subs };
}

const sink = () => {
  const applied: [string, Plan][] = [];
  return {
    applied,
    cleared: { n: 0 },
    applyPlan: (o: string, p: Plan) => void applied.push([o, p]),
    clear() {
      this.cleared.n++;
    },
  };
};

describe("followPlanChanges", () => {
  it("reads plan changes from the latest offsets, in a group of its own, and applies only plan events", async () => {
    const { bus, subs } = fakeBus();
    const plans = sink();
    const f = followPlanChanges({ kafka: bus, plans, logger: createLogger("t", "silent"), groupPrefix: "svc" });
    await vi.waitFor(() => expect(subs).toHaveLength(1));
    expect(subs[0]!.startAt).toEqual([{ partition: 0, offset: "42" }]);
    expect(subs[0]!.groupId).toMatch(/^svc-plans-/);
    await subs[0]!.handle(planChanged("org_1", PlanTier.STARTUP), { partition: 0 } as never);
    await subs[0]!.handle(create(EventEnvelopeSchema, { type: "auth.user_disabled", orgId: "org_1" }), { partition: 0 } as never);
    expect(plans.applied.map(([o, p]) => [o, p.tier])).toEqual([["org_1", PlanTier.STARTUP]]);
    await f.stop();
  });

  it("after the reader stops by itself, forgets every plan and follows again", async () => {
    const { bus, subs } = fakeBus();
    const plans = sink();
    const f = followPlanChanges({ kafka: bus, plans, logger: createLogger("t", "silent"), groupPrefix: "svc", retryMs: 10 });
    await vi.waitFor(() => expect(subs).toHaveLength(1));
    subs[0]!.onCrash?.(new Error("broker gone"));
    expect(plans.cleared.n).toBe(1);
    await vi.waitFor(() => expect(subs).toHaveLength(2));
    expect(subs[1]!.groupId).not.toBe(subs[0]!.groupId);
    await f.stop();
  });
});

describe("planChangeOf", () => {
  it("needs an organization and a plan", () => {
    expect(planChangeOf(planChanged("org_1", PlanTier.ENTERPRISE))?.orgId).toBe("org_1");
    expect(planChangeOf(planChanged("", PlanTier.ENTERPRISE))).toBeUndefined();
    expect(planChangeOf(create(EventEnvelopeSchema, { type: "auth.plan_changed", orgId: "org_1" }) as EventEnvelope)).toBeUndefined();
  });
});
