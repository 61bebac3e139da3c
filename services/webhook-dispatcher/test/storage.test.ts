import { createMongo, ensureIndexes, type MongoHandle } from "@vulnscan/kit";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import type { Delivery } from "../src/domain/types.js";
import { MongoHourlyBudget } from "../src/storage/budget.js";
import { webhookFields, webhookIndexes } from "../src/storage/collections.js";
import { MongoDeliveries } from "../src/storage/deliveries.js";
import { MongoWebhookCount } from "../src/storage/webhook-count.js";
import { MongoWebhooks } from "../src/storage/webhooks.js";

/*
 * The dispatcher's write guarantees on a real MongoDB-protocol server, each resting on one
 * single-document write: a delivery exists once (its `_id`), one holder takes each attempt (a
 * conditional update on its due time or lease), only that holder records it (the lease as the
 * update's guard), and the plan's counts are exact (`$inc` under the limit).
 */

let mongo: MongoHandle;
beforeAll(async () => {
  // The service's name: the queries below are the service's, checked against its declared indexes.
  mongo = createMongo(inject("mongoUrl"), unique("webhooks"), "webhook-dispatcher");
  await ensureIndexes(mongo.db, webhookIndexes, { fields: webhookFields });
});
afterAll(async () => {
  await mongo.db.dropDatabase().catch(() => undefined);
  await mongo.close();
});

const at = (ms: number) => new Date(Date.UTC(2026, 2, 1, 12) + ms);

function delivery(id: string, over: Partial<Delivery> = {}): Delivery {
  return {
    id,
    orgId: "org_a",
    webhookId: "webhook_a",
    eventId: `evt_${id}`,
    event: "scan.completed",
    body: "{}",
    status: "pending",
    attempts: 0,
    responseCode: 0,
    responseTimeMs: 0,
    createdAt: at(0),
    nextAttemptAt: at(0),
    budgeted: false,
    ...over,
  };
}

describe("MongoDeliveries", () => {
  it("records a delivery once, however many replicas fan its event out", async () => {
    const store = new MongoDeliveries(mongo.db);
    const added = await Promise.all(Array.from({ length: 10 }, () => store.add(delivery("delivery_once"))));
    expect(added.filter(Boolean)).toHaveLength(1);
  });

  it("tells which deliveries are recorded, answering the questions of one turn with one read", async () => {
    const store = new MongoDeliveries(mongo.db);
    await store.add(delivery("delivery_known_1"));
    await store.add(delivery("delivery_known_2"));
    const [a, b, none] = await Promise.all([
      store.stored(["delivery_known_1", "delivery_unknown"]),
      store.stored(["delivery_known_2", "delivery_known_1"]),
      store.stored([]),
    ]);
    expect([...a]).toEqual(["delivery_known_1"]);
    expect([...b].sort()).toEqual(["delivery_known_1", "delivery_known_2"]);
    expect(none.size).toBe(0);
  });

  it("lets exactly one of many concurrent takers hold a due attempt, and nobody while its lease holds", async () => {
    const store = new MongoDeliveries(mongo.db);
    await store.add(delivery("delivery_race"));
    const takes = await Promise.all(Array.from({ length: 20 }, (_, i) => store.take("delivery_race", at(1000), at(1000 + 45_000 + i), i % 4 === 0)));
    const won = takes.filter((d): d is Delivery => d !== undefined);
    expect(won).toHaveLength(1);
    expect(won[0]!.leaseUntil).toEqual(won[0]!.nextAttemptAt);
    expect(await store.take("delivery_race", at(30_000), at(75_000), false)).toBeUndefined();
    expect(await store.take("delivery_race", at(30_000), at(75_000), true)).toBeUndefined();
    expect(await store.due(at(30_000), 10)).not.toContain("delivery_race");
  });

  it("records an attempt only under the lease that took it, and makes it due again when that lease ends", async () => {
    const store = new MongoDeliveries(mongo.db);
    await store.add(delivery("delivery_lease"));
    const first = (await store.take("delivery_lease", at(1000), at(46_000), false))!;
    expect(await store.due(at(46_000), 100)).toContain("delivery_lease"); // its holder died
    const second = (await store.take("delivery_lease", at(46_000), at(91_000), false))!;
    const late = { ...first, status: "failed" as const, attempts: 1, responseCode: 503, nextAttemptAt: at(300_000) };
    await store.settle(late, first.leaseUntil!);
    expect(await store.get("delivery_lease")).toMatchObject({ status: "pending", attempts: 0, leaseUntil: at(91_000) }); // the expired lease wrote nothing
    const { leaseUntil, nextAttemptAt, ...rest } = second;
    await store.settle({ ...rest, status: "success", attempts: 1, responseCode: 200, deliveredAt: at(47_000) }, leaseUntil!);
    const stored = await store.get("delivery_lease");
    expect(stored).toMatchObject({ status: "success", attempts: 1, responseCode: 200 });
    expect(stored?.nextAttemptAt).toBeUndefined();
    expect(stored?.leaseUntil).toBeUndefined();
    expect(await store.due(at(10_000_000), 100)).not.toContain("delivery_lease");
  });

  it("finds due deliveries earliest first, replays final failures once, and counts what is to come", async () => {
    const store = new MongoDeliveries(mongo.db);
    const orgId = unique("org");
    await store.add(delivery(`${orgId}_late`, { orgId, nextAttemptAt: at(-1000) }));
    await store.add(delivery(`${orgId}_early`, { orgId, nextAttemptAt: at(-2000) }));
    await store.add(delivery(`${orgId}_final`, { orgId, status: "failed", attempts: 5, nextAttemptAt: undefined } as Delivery));
    const due = (await store.due(at(0), 1000)).filter((id) => id.startsWith(orgId));
    expect(due).toEqual([`${orgId}_early`, `${orgId}_late`]);
    expect(await store.replayFailed(orgId, "webhook_a", at(-1), at(1), at(5), 10)).toBe(1);
    expect(await store.replayFailed(orgId, "webhook_a", at(-1), at(1), at(5), 10)).toBe(0);
    expect((await store.get(`${orgId}_final`))?.nextAttemptAt).toEqual(at(5));
    const stats = await store.stats();
    expect(stats.depth).toBeGreaterThanOrEqual(3);
    expect(stats.oldestDueAt).toBeDefined();
  });
});

describe("MongoWebhooks", () => {
  it("writes a user's change beside the dispatcher's state, and disables a webhook once", async () => {
    const webhooks = new MongoWebhooks(mongo.db);
    const w = {
      id: "webhook_w",
      orgId: "org_w",
      name: "ci",
      url: "https://hooks.example.com/in",
      events: ["scan.completed"],
      active: true,
      createdAt: at(0),
      updatedAt: at(0),
    };
    await webhooks.insert({ ...w, secret: "s3cret-value" });
    await webhooks.markFailing("org_w", w.id, at(1000));
    await webhooks.update({ ...w, name: "renamed", updatedAt: at(2000) }, false); // a PATCH that read it before the failure
    expect(await webhooks.get("org_w", w.id)).toMatchObject({ name: "renamed", failingSince: at(1000) });
    expect((await webhooks.get("org_w", w.id))?.secret).toBeUndefined();
    const disabled = await Promise.all([webhooks.disable("org_w", w.id, "failing", at(3000)), webhooks.disable("org_w", w.id, "failing", at(3000))]);
    expect(disabled.filter(Boolean)).toHaveLength(1);
    await webhooks.update({ ...w, active: true, updatedAt: at(4000) }, true);
    const revived = await webhooks.get("org_w", w.id);
    expect(revived).toMatchObject({ active: true });
    expect(revived?.failingSince).toBeUndefined();
    expect(revived?.disabledReason).toBeUndefined();
  });
});

describe("the plan's counts", () => {
  it("counts at most the plan's webhooks under 20 concurrent creates from two replicas, and gives a released one back", async () => {
    const [a, b] = [new MongoWebhookCount(mongo.db), new MongoWebhookCount(mongo.db)];
    const got = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).reserve("org_count", 5, `webhook_${i}`)));
    expect(got.filter(Boolean)).toHaveLength(5);
    const held = got.flatMap((ok, i) => (ok ? [`webhook_${i}`] : []));
    await a.release("org_count", held[0]!);
    await a.release("org_count", held[0]!); // a repeat undoes nothing more
    expect(await b.reserve("org_count", 5, "webhook_late")).toBe(true);
    expect(await b.reserve("org_count", 5, "webhook_later")).toBe(false);
    expect(await a.reserve("org_none", 0, "webhook_x")).toBe(false);
  });

  it("hands out exactly the hour's events across replicas, in blocks", async () => {
    const replicas = [new MongoHourlyBudget(mongo.db), new MongoHourlyBudget(mongo.db), new MongoHourlyBudget(mongo.db)];
    const now = at(0);
    const taken = await Promise.all(Array.from({ length: 60 }, (_, i) => replicas[i % 3]!.take("org_budget", 21, now)));
    // 8 + 8 + 5 positions: each replica used up its block before asking for another, which the count refused.
    expect(taken.filter(Boolean)).toHaveLength(21);
    expect(await replicas[0]!.take("org_budget", 21, at(3600_000))).toBe(true); // a new hour
    expect(await replicas[0]!.prune(at(4 * 3600_000))).toBeGreaterThanOrEqual(1);
  });
});
