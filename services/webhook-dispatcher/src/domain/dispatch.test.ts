import { describe, expect, it } from "vitest";
import { PLANS, testDispatcher } from "../testing.js";
import { LEASE_MS } from "./dispatch.js";
import { RETRY_DELAYS_MS } from "./schedule.js";
import type { DispatchEvent } from "./types.js";

type T = ReturnType<typeof testDispatcher>;

const completed = (id = "evt_1", orgId = "org_a", occurredAt = new Date("2026-03-01T12:00:00.000Z")): DispatchEvent => ({
  id,
  type: "scan.completed",
  orgId,
  occurredAt,
  data: { scan_id: "scan_1" },
});

async function withHook(t = testDispatcher(), events = ["scan.completed"]) {
  const w = await t.registry.create("org_a", { name: "ci", url: "https://hooks.example.com/in", events, secret: "s3cret-value" });
  return { t, w };
}

/** Fans out as a consumer with no room to attempt anything: each new delivery recorded due now. */
async function fan(t: T, event: DispatchEvent) {
  const ids: string[] = [];
  for (const d of await t.dispatcher.fanOut(event)) if (await t.dispatcher.admit(d, false)) ids.push(d.id);
  return ids;
}

/** Fans out as a consumer with room: each new delivery recorded with its first attempt's lease, to attempt. */
async function lease(t: T, event: DispatchEvent) {
  const leased = [];
  for (const d of await t.dispatcher.fanOut(event)) if (await t.dispatcher.admit(d, true)) leased.push(d);
  return leased;
}

describe("Dispatcher", () => {
  it("fans an event out once per subscribed webhook, however often Kafka redelivers it", async () => {
    const { t, w } = await withHook();
    await t.registry.create("org_a", { name: "other", url: "https://hooks.example.com/x", events: ["scan.failed"] });
    const first = await fan(t, completed());
    expect(first).toHaveLength(1);
    expect(await fan(t, completed())).toEqual([]); // redelivered: the delivery exists, nothing to do
    await t.dispatcher.runDue();
    expect(await fan(t, completed())).toEqual([]);
    await t.dispatcher.runDue();
    expect(t.sent).toHaveLength(1);
    expect(JSON.parse(t.sent[0]!.body)).toEqual({ id: first[0], event: "scan.completed", timestamp: "2026-03-01T12:00:00.000Z", data: { scan_id: "scan_1" } });
    expect(await t.deliveries.get(first[0]!)).toMatchObject({ status: "success", attempts: 1, webhookId: w.id });
  });

  it("lets the replica that recorded a delivery with its lease make the first attempt, and nobody else meanwhile", async () => {
    const { t } = await withHook();
    const [d] = await lease(t, completed());
    expect(await t.deliveries.get(d!.id)).toMatchObject({ status: "pending", attempts: 0 }); // in the history at once
    expect(await lease(t, completed())).toEqual([]); // redelivered while the holder works
    expect(await t.dispatcher.runDue()).toBe(0); // not due while the lease holds
    expect(await t.dispatcher.take(d!.id, true)).toBeUndefined(); // nor for a manual retry
    expect(await t.dispatcher.attempt(d!)).toMatchObject({ status: "success", attempts: 1 });
    expect(await t.deliveries.get(d!.id)).toMatchObject({ status: "success", attempts: 1 });
    expect((await t.deliveries.get(d!.id))!.leaseUntil).toBeUndefined();
    t.advance(LEASE_MS + 1);
    expect(await t.dispatcher.runDue()).toBe(0); // final: never due again
    expect(t.sent).toHaveLength(1);
  });

  it("makes a first attempt answered in time before recording it, and records it once, with its result", async () => {
    const { t } = await withHook();
    const writes: string[] = [];
    const { add, settle } = t.deliveries;
    t.deliveries.add = (d) => (writes.push(`add ${d.status}`), add.call(t.deliveries, d));
    t.deliveries.settle = (d, lease) => (writes.push(`settle ${d.status}`), settle.call(t.deliveries, d, lease));
    const [d] = await t.dispatcher.fanOut(completed());
    let answered = 0;
    const { durable, settled } = t.dispatcher.first(d!, 1000, () => answered++);
    await durable;
    expect(await settled).toMatchObject({ status: "success", attempts: 1 });
    expect(answered).toBe(1);
    expect(writes).toEqual(["add success"]); // one insert: no pending record, no update
    expect(await t.deliveries.get(d!.id)).toMatchObject({ status: "success", attempts: 1 });
    expect((await t.deliveries.get(d!.id))!.leaseUntil).toBeUndefined();
    expect(await t.dispatcher.fanOut(completed())).toEqual([]); // Kafka redelivers the event: nothing is sent again
    expect(t.sent).toHaveLength(1);
  });

  it("makes a first attempt once when its event comes twice at once (a producer's retry, a redelivery within a batch)", async () => {
    const { t } = await withHook();
    const answer = t.holdAnswers();
    const [d] = await t.dispatcher.fanOut(completed());
    const [copy] = await t.dispatcher.fanOut(completed()); // not recorded yet: both copies get this far
    const first = t.dispatcher.first(d!, 1000);
    const second = t.dispatcher.first(copy!, 1000);
    answer();
    await Promise.all([first.durable, second.durable]);
    expect(await second.settled).toBeUndefined();
    expect(await first.settled).toMatchObject({ status: "success", attempts: 1 });
    expect(t.sent).toHaveLength(1);
  });

  it("hands a first attempt still in flight over with its lease, and records its result under that lease", async () => {
    const { t } = await withHook();
    const answer = t.holdAnswers();
    const [d] = await t.dispatcher.fanOut(completed());
    const { durable, settled } = t.dispatcher.first(d!, 10, () => undefined);
    await durable; // the event's offset may move on: the delivery is recorded, its attempt leased
    const handed = await t.deliveries.get(d!.id);
    expect(handed).toMatchObject({ status: "pending", attempts: 0 });
    expect(handed!.leaseUntil).toEqual(new Date(t.now().getTime() + LEASE_MS));
    expect(await t.dispatcher.runDue()).toBe(0); // nobody else takes it while the lease holds
    expect(await t.dispatcher.fanOut(completed())).toEqual([]);
    answer();
    expect(await settled).toMatchObject({ status: "success", attempts: 1 });
    expect(await t.deliveries.get(d!.id)).toMatchObject({ status: "success", attempts: 1 });
  });

  it("records nothing of a first attempt whose delivery another consumer of its event recorded first", async () => {
    const { t } = await withHook();
    const [mine] = await t.dispatcher.fanOut(completed());
    const [theirs] = await t.dispatcher.fanOut(completed()); // a second replica, during a rebalance
    t.answers.push({ responseCode: 200, responseTimeMs: 5 }, { responseCode: 503, responseTimeMs: 5, error: "HTTP 503" });
    await t.dispatcher.first(theirs!, 1000).durable;
    await t.dispatcher.first(mine!, 1000).durable;
    expect(await t.deliveries.get(mine!.id)).toMatchObject({ status: "success", attempts: 1 }); // the first record stands
    expect(t.sent).toHaveLength(2); // the receiver saw both: never fewer than the history counts
  });

  it("makes an attempt again under its number once the lease of a holder that died has expired", async () => {
    const { t } = await withHook();
    const [d] = await lease(t, completed());
    // The holder sends it, then dies before its answer is recorded.
    const settle = t.deliveries.settle.bind(t.deliveries);
    t.deliveries.settle = () => Promise.reject(new Error("connection 5 to 127.0.0.1:27017 closed"));
    await expect(t.dispatcher.attempt(d!)).rejects.toThrow("closed");
    t.deliveries.settle = settle;
    t.advance(LEASE_MS - 1);
    expect(await t.dispatcher.runDue()).toBe(0);
    t.advance(1);
    expect(await t.dispatcher.runDue()).toBe(1);
    expect(await t.deliveries.get(d!.id)).toMatchObject({ status: "success", attempts: 1 });
    expect(t.sent).toHaveLength(2); // the receiver saw it twice: at least once, never counted more than seen
  });

  it("never lets a late result of an expired lease overwrite the attempt made after it", async () => {
    const { t } = await withHook();
    const [d] = await lease(t, completed());
    const slow = structuredClone(d!); // its holder is still waiting on the receiver...
    t.advance(LEASE_MS + 1); // ...when its lease ends: another replica makes attempt 1 again
    expect(await t.dispatcher.runDue()).toBe(1);
    expect(await t.deliveries.get(d!.id)).toMatchObject({ status: "success", attempts: 1 });
    t.answers.push({ responseCode: 503, responseTimeMs: 5, error: "HTTP 503" });
    expect(await t.dispatcher.attempt(slow)).toMatchObject({ status: "failed", attempts: 1 }); // the slow holder's 503...
    expect(await t.deliveries.get(d!.id)).toMatchObject({ status: "success", attempts: 1 }); // ...is not recorded
  });

  it("lets exactly one of two replicas take a due attempt", async () => {
    const { t } = await withHook();
    const [id] = await fan(t, completed());
    const takes = await Promise.all([t.dispatcher.take(id!), t.dispatcher.take(id!), t.dispatcher.take(id!, true)]);
    expect(takes.filter(Boolean)).toHaveLength(1);
  });

  it("defers a first attempt over the hourly cap to the next hour, where the retry pass takes it", async () => {
    const t = testDispatcher({ start: new Date("2026-03-01T12:59:30.000Z"), plan: () => ({ ...PLANS.professional!, eventsPerHour: 0 }) });
    await withHook(t);
    const [d] = await lease(t, completed("evt_1", "org_a", t.now()));
    expect(await t.dispatcher.attempt(d!)).toMatchObject({ status: "pending", deferredUntil: new Date("2026-03-01T13:00:00.000Z") });
    expect((await t.deliveries.get(d!.id))!.leaseUntil).toBeUndefined();
    t.advance(30_000);
    expect(await t.dispatcher.runDue()).toBe(1);
    expect(t.sent).toHaveLength(0); // the new hour's cap is 0 too: deferred again
    expect((await t.deliveries.get(d!.id))!.deferredUntil).toEqual(new Date("2026-03-01T14:00:00.000Z"));
  });

  it("delivers what happens from a webhook's creation on, never an older event replayed from Kafka", async () => {
    const { t } = await withHook();
    expect(await fan(t, completed("evt_old", "org_a", new Date("2026-03-01T11:59:00.000Z")))).toEqual([]);
    expect(await fan(t, completed("evt_skew", "org_a", new Date("2026-03-01T11:59:45.000Z")))).toHaveLength(1); // within the clock skew allowed
  });

  it("never delivers another organization's events", async () => {
    const { t } = await withHook();
    expect(await fan(t, completed("evt_3", "org_b"))).toEqual([]);
  });

  it("retries on the spec's schedule, honours Retry-After within it, and fails after the 5th attempt", async () => {
    const { t, w } = await withHook();
    const [id] = await fan(t, completed());
    t.answers.push(
      { responseCode: 500, responseTimeMs: 3, error: "HTTP 500" },
      { responseCode: 503, responseTimeMs: 3, error: "HTTP 503", retryAfterMs: 3600_000 },
      { responseCode: 0, responseTimeMs: 3, error: "request failed: ECONNREFUSED" },
      { responseCode: 500, responseTimeMs: 3, error: "HTTP 500" },
      { responseCode: 500, responseTimeMs: 3, error: "HTTP 500" },
    );
    const gaps: number[] = [];
    let last = t.now().getTime();
    for (let i = 0; i < 5; i++) {
      expect(await t.dispatcher.runDue()).toBeGreaterThan(0);
      gaps.push(t.now().getTime() - last);
      last = t.now().getTime();
      const d = (await t.deliveries.get(id!))!;
      expect(d.attempts).toBe(i + 1);
      if (d.nextAttemptAt) {
        t.advance(d.nextAttemptAt.getTime() - t.now().getTime() - 1);
        expect(await t.dispatcher.runDue()).toBe(0); // not due a millisecond early
        t.advance(1);
      }
    }
    // Attempt 3 came an hour after attempt 2: the receiver's Retry-After beat the 30 min step.
    expect(gaps).toEqual([0, RETRY_DELAYS_MS[1], 3600_000, RETRY_DELAYS_MS[3], RETRY_DELAYS_MS[4]]);
    const d = (await t.deliveries.get(id!))!;
    expect(d).toMatchObject({ status: "failed", attempts: 5, error: "HTTP 500" });
    expect(d.nextAttemptAt).toBeUndefined();
    expect(t.sent).toHaveLength(5);
    expect((await t.registry.get("org_a", w.id)).active).toBe(true); // failing for 11 h, not 3 days
  });

  it("disables a webhook whose every attempt failed for 3 days, saying why", async () => {
    const { t, w } = await withHook();
    for (let day = 0; day < 4; day++) {
      await fan(t, completed(`evt_day${day}`, "org_a", t.now()));
      for (let i = 0; i < 5; i++) {
        t.answers.push({ responseCode: 500, responseTimeMs: 1, error: "HTTP 500" });
        await t.dispatcher.runDue();
        t.advance(8 * 3600_000 + 60_000);
      }
      t.advance(14 * 3600_000);
    }
    const after = await t.registry.get("org_a", w.id);
    expect(after.active).toBe(false);
    expect(after.disabledReason).toMatch(/3 days/);
    const revived = await t.registry.update("org_a", w.id, { active: true });
    expect(revived.disabledReason).toBeUndefined();
    expect((await t.registry.get("org_a", w.id)).failingSince).toBeUndefined();
  });

  it("defers deliveries over the hourly cap to the next hour, never drops them", async () => {
    const t = testDispatcher({ plan: () => ({ ...PLANS.professional!, eventsPerHour: 2 }) });
    await withHook(t);
    for (let i = 0; i < 3; i++) await fan(t, completed(`evt_cap${i}`));
    await t.dispatcher.runDue();
    expect(t.sent).toHaveLength(2);
    const deferred = [...t.deliveries.rows.values()].filter((d) => d.deferredUntil);
    expect(deferred).toHaveLength(1);
    expect(deferred[0]!.deferredUntil!.toISOString()).toBe("2026-03-01T13:00:00.000Z");
    t.advance(3600_000);
    await t.dispatcher.runDue();
    expect(t.sent).toHaveLength(3);
    expect((await t.deliveries.get(deferred[0]!.id))!.status).toBe("success");
  });
});

describe("DeliveryOperations", () => {
  it("tests, retries one delivery and replays the failed ones of a window", async () => {
    const { t, w } = await withHook();
    t.answers.push({ responseCode: 0, responseTimeMs: 2, error: "request failed: ECONNREFUSED" });
    const test = await t.operations.test("org_a", w.id);
    expect(test).toMatchObject({ event: "webhook.test", status: "failed", attempts: 1 });
    expect(test.nextAttemptAt).toBeUndefined();
    expect(JSON.parse(t.sent[0]!.body)).toMatchObject({ id: test.id, event: "webhook.test", data: { webhook_id: w.id } });
    t.answers.push({ responseCode: 0, responseTimeMs: 2, error: "request failed: ECONNREFUSED" });
    const retried = await t.operations.retry("org_a", w.id, test.id);
    expect(retried).toMatchObject({ status: "failed", attempts: 2 });
    await expect(t.operations.retry("org_b", w.id, test.id)).rejects.toMatchObject({ kind: "not_found" });
    expect(await t.operations.replayFailed("org_a", w.id, new Date(0), new Date(t.now().getTime() + 1))).toBe(1);
    await t.dispatcher.runDue();
    expect(await t.deliveries.get(test.id)).toMatchObject({ status: "success", attempts: 3 });
    expect((await t.operations.list("org_a", w.id, { status: "success" }, 1, 20)).items.map((d) => d.id)).toEqual([test.id]);
  });
});
