import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { describe, expect, it } from "vitest";
import { PLANS, testDispatcher } from "../testing.js";
import { LEASE_MS } from "./dispatch.js";
import { RETRY_DELAYS_MS } from "./schedule.js";

const completed = (id = "evt_1", orgId = "org_a") =>
  create(EventEnvelopeSchema, {
    id,
    type: "scan.completed",
    orgId,
    occurredAt: timestampFromDate(new Date("2026-03-01T12:00:00.000Z")),
    payload: {
      case: "scanCompleted",
      value: { scanId: "scan_1", target: "example.com", status: "completed", durationSeconds: 42, findings: { total: 3, critical: 1 } },
    },
  });

async function withHook(t = testDispatcher(), events = ["scan.completed"]) {
  const w = await t.registry.create("org_a", { name: "ci", url: "https://hooks.example.com/in", events, secret: "s3cret-value" });
  return { t, w };
}

/** Fans out as a consumer with no room to attempt anything: each delivery handed to the schedule at once. */
async function fan(t: ReturnType<typeof testDispatcher>, env: Parameters<ReturnType<typeof testDispatcher>["dispatcher"]["fanOut"]>[0]) {
  const leased = await t.dispatcher.fanOut(env);
  for (const d of leased) await t.dispatcher.handOver(d, "now");
  return leased.map((d) => d.id);
}

describe("Dispatcher", () => {
  it("fans an event out once per subscribed webhook, however often Kafka redelivers it", async () => {
    const { t, w } = await withHook();
    await t.registry.create("org_a", { name: "other", url: "https://hooks.example.com/x", events: ["scan.failed"] });
    const first = await fan(t, completed());
    const again = await fan(t, completed());
    expect(first).toHaveLength(1);
    expect(again).toEqual([]); // redelivered: not created again, and its schedule entry stays
    await t.dispatcher.attempt(first[0]!);
    expect(await fan(t, completed())).toEqual([]);
    await t.dispatcher.attempt(first[0]!);
    expect(t.sent).toHaveLength(1);
    const body = JSON.parse(t.sent[0]!.body);
    expect(body).toEqual({
      id: first[0],
      event: "scan.completed",
      timestamp: "2026-03-01T12:00:00.000Z",
      data: {
        scan_id: "scan_1",
        target: "example.com",
        status: "completed",
        duration_seconds: 42,
        findings: { total: 3, critical: 1, high: 0, medium: 0, low: 0 },
      },
    });
    const d = await t.deliveries.get(first[0]!);
    expect(d).toMatchObject({ status: "success", attempts: 1, webhookId: w.id });
  });

  it("lets the replica whose fan-out took the first lease attempt it, recording the delivery only with its result", async () => {
    const { t } = await withHook();
    const [d] = await t.dispatcher.fanOut(completed());
    expect(await t.deliveries.get(d!.id)).toBeUndefined(); // two inserts on this path: the lease, then the result
    expect(await t.dispatcher.fanOut(completed())).toEqual([]); // redelivered while the holder works: handed over for after its lease
    expect(await t.dispatcher.runDue()).toBe(0); // nothing due before that lease expires
    expect(t.sent).toHaveLength(0);
    expect(await t.dispatcher.attempt(d!.id, { known: d!, owned: true })).toMatchObject({ status: "success", attempts: 1 });
    expect(await t.deliveries.get(d!.id)).toMatchObject({ status: "success", attempts: 1 });
    t.advance(LEASE_MS);
    expect(await t.dispatcher.runDue()).toBe(1); // the redelivery's entry: the delivery is final, the entry goes
    expect(await t.dispatcher.runDue()).toBe(0);
    expect(await t.dispatcher.fanOut(completed())).toEqual([]); // replayed much later: the first lease is still its key
    expect(t.sent).toHaveLength(1);
  });

  it("takes over a first attempt whose holder died before recording it, once its lease expires", async () => {
    const { t } = await withHook();
    const [d] = await t.dispatcher.fanOut(completed()); // the holder dies here; Kafka redelivers the event
    expect(await t.dispatcher.fanOut(completed())).toEqual([]);
    t.advance(LEASE_MS - 1);
    await t.dispatcher.runDue();
    expect(t.sent).toHaveLength(0);
    t.advance(1);
    await t.dispatcher.runDue();
    expect(t.sent).toHaveLength(0); // the lease expires strictly after its end
    t.advance(1);
    await t.dispatcher.runDue();
    expect(t.sent).toHaveLength(1);
    expect(await t.deliveries.get(d!.id)).toMatchObject({ status: "success", attempts: 1 });
  });

  it("takes back at once a first attempt of its own that failed to run, instead of waiting out its own lease", async () => {
    const { t } = await withHook();
    const [d] = await t.dispatcher.fanOut(completed());
    // The database goes away after the receiver answered: the result cannot be written.
    const insertOnce = t.deliveries.insertOnce.bind(t.deliveries);
    t.deliveries.insertOnce = async () => Promise.reject(new Error("connection 5 to 127.0.0.1:27017 closed"));
    await expect(t.dispatcher.attempt(d!.id, { known: d!, owned: true })).rejects.toThrow("closed");
    t.deliveries.insertOnce = insertOnce;
    expect(t.sent).toHaveLength(1);
    expect(await t.deliveries.get(d!.id)).toBeUndefined();
    // (Another replica given the redelivery hands it over for after the lease: the test above.)
    // Kafka redelivers the event to the replica that failed: it attempts again now, without waiting out its lease.
    const [again] = await t.dispatcher.fanOut(completed());
    expect(again?.id).toBe(d!.id);
    expect(await t.dispatcher.attempt(again!.id, { known: again!, owned: true })).toMatchObject({ status: "success", attempts: 1 });
    expect(t.sent).toHaveLength(2); // the receiver sees the same delivery id twice: at least once
    expect(await t.dispatcher.fanOut(completed())).toEqual([]); // and only once more taken back
  });

  it("never lets a first attempt's late result undo the retry that followed its handover", async () => {
    const { t } = await withHook();
    const [d] = await t.dispatcher.fanOut(completed());
    t.answers.push({ responseCode: 503, responseTimeMs: 5 });
    // The first attempt's write hangs (the database is away) past the consumer's patience...
    let land: () => void = () => undefined;
    const insertOnce = t.deliveries.insertOnce.bind(t.deliveries);
    t.deliveries.insertOnce = (x) => new Promise<boolean>((r) => (land = () => void insertOnce(x).then(r)));
    const first = t.dispatcher.attempt(d!.id, { known: d!, owned: true, handedOver: () => true });
    await new Promise((r) => setTimeout(r, 10));
    t.deliveries.insertOnce = insertOnce;
    // ...so it is handed over with its 503 known: recorded, and retried from the schedule.
    await t.dispatcher.handOver(d!, "after-lease");
    expect(await t.deliveries.get(d!.id)).toMatchObject({ status: "failed", attempts: 1 });
    t.advance(RETRY_DELAYS_MS[1]! + 1);
    await t.dispatcher.runDue();
    expect(await t.deliveries.get(d!.id)).toMatchObject({ status: "success", attempts: 2 });
    land(); // the first attempt's write lands at last
    await first;
    expect(await t.deliveries.get(d!.id)).toMatchObject({ status: "success", attempts: 2 });
  });

  it("lets the schedule take a first attempt its holder deferred over the hourly cap", async () => {
    const t = testDispatcher({ start: new Date("2026-03-01T12:59:30.000Z"), plan: () => ({ ...PLANS.professional!, eventsPerHour: 0 }) });
    await withHook(t);
    const [d] = await t.dispatcher.fanOut(create(EventEnvelopeSchema, { ...completed(), occurredAt: timestampFromDate(t.now()) }));
    expect(await t.dispatcher.attempt(d!.id, { known: d!, owned: true })).toMatchObject({
      status: "pending",
      deferredUntil: new Date("2026-03-01T13:00:00.000Z"),
    });
    t.advance(30_000); // the next hour, well inside the lease the holder gave back
    await t.dispatcher.runDue();
    expect(t.sent).toHaveLength(0); // the new hour's cap is 0 too: deferred again, by the schedule this time
    expect((await t.deliveries.get(d!.id))!.deferredUntil).toEqual(new Date("2026-03-01T14:00:00.000Z"));
    expect(await t.dispatcher.fanOut(completed())).toEqual([]); // a redelivery does not take it back
  });

  it("delivers what happens from a webhook's creation on, never an older event replayed from Kafka", async () => {
    const { t } = await withHook();
    const old = create(EventEnvelopeSchema, { ...completed("evt_old"), occurredAt: timestampFromDate(new Date("2026-03-01T11:59:00.000Z")) });
    const skewed = create(EventEnvelopeSchema, { ...completed("evt_skew"), occurredAt: timestampFromDate(new Date("2026-03-01T11:59:45.000Z")) });
    expect(await fan(t, old)).toEqual([]);
    expect(await fan(t, skewed)).toHaveLength(1); // within the clock skew allowed between services
  });

  it("never delivers internal auth.* events nor another organization's", async () => {
    const { t } = await withHook(testDispatcher(), ["user.login_failed"]);
    const internal = create(EventEnvelopeSchema, {
      id: "evt_2",
      type: "auth.session_revoked",
      orgId: "org_a",
      payload: { case: "authSessionRevoked", value: {} },
    });
    expect(await fan(t, internal)).toEqual([]);
    const other = create(EventEnvelopeSchema, { id: "evt_3", type: "user.login_failed", orgId: "org_b", payload: { case: "userLoginFailed", value: {} } });
    expect(await fan(t, other)).toEqual([]);
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
      if (d.nextRetry) {
        t.advance(d.nextRetry.getTime() - t.now().getTime() - 1);
        expect(await t.dispatcher.runDue()).toBe(0); // not due a millisecond early
        t.advance(1);
      }
    }
    // Attempt 3 came an hour after attempt 2: the receiver's Retry-After beat the 30 min step.
    expect(gaps).toEqual([0, RETRY_DELAYS_MS[1], 3600_000, RETRY_DELAYS_MS[3], RETRY_DELAYS_MS[4]]);
    const d = (await t.deliveries.get(id!))!;
    expect(d).toMatchObject({ status: "failed", attempts: 5, error: "HTTP 500" });
    expect(d.nextRetry).toBeUndefined();
    expect(t.sent).toHaveLength(5);
    expect((await t.registry.get("org_a", w.id)).active).toBe(true); // failing for 11 h, not 3 days
  });

  it("disables a webhook whose every attempt failed for 3 days, saying why", async () => {
    const { t, w } = await withHook();
    for (let day = 0; day < 4; day++) {
      await fan(t, completed(`evt_day${day}`));
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

  it("holds one attempt per lease: a second replica cannot send it while the first holds it", async () => {
    const { t } = await withHook();
    const [id] = await fan(t, completed());
    expect(await t.schedule.claim(id!, 1, t.now(), 90_000)).toBe("retaken"); // the lease fan gave back
    expect(await t.dispatcher.attempt(id!)).toBeUndefined();
    expect(t.sent).toHaveLength(0);
    t.advance(91_000); // the holder died: its lease expires and the schedule takes over
    expect((await t.dispatcher.attempt(id!))?.status).toBe("success");
  });

  it("tests, retries one delivery and replays the failed ones of a window", async () => {
    const { t, w } = await withHook();
    t.answers.push({ responseCode: 0, responseTimeMs: 2, error: "request failed: ECONNREFUSED" });
    const test = await t.dispatcher.test("org_a", w.id);
    expect(test).toMatchObject({ event: "webhook.test", status: "failed", attempts: 1 });
    expect(test.nextRetry).toBeUndefined();
    const retried = await t.dispatcher.retry("org_a", w.id, test.id);
    expect(retried).toMatchObject({ status: "success", attempts: 2 });
    await expect(t.dispatcher.retry("org_b", w.id, test.id)).rejects.toMatchObject({ kind: "not_found" });
    const failed = (await t.deliveries.get(test.id))!;
    await t.deliveries.save({ ...failed, status: "failed" });
    expect(await t.dispatcher.replayFailed("org_a", w.id, new Date(0), new Date(t.now().getTime() + 1))).toBe(1);
    await t.dispatcher.runDue();
    expect((await t.deliveries.get(test.id))!.status).toBe("success");
  });
});
