import type { Db } from "mongodb";
import { describe, expect, it } from "vitest";
import type { Delivery } from "../domain/types.js";
import { MongoDeliveries } from "./deliveries.js";

/*
 * The driver can leave a command unanswered for good (a buffered write whose connection closed
 * before it drained: the fault run's database outage). The store reports such a write or read
 * failed, so the consumer retries its batch instead of waiting for an answer that never comes.
 */

/** A database whose every command is sent and never answered. */
const silent = {
  collection: () => ({
    bulkWrite: () => new Promise(() => undefined),
    find: () => ({ toArray: () => new Promise(() => undefined) }),
  }),
} as unknown as Db;

const delivery: Delivery = {
  id: "delivery_silent",
  orgId: "org_a",
  webhookId: "webhook_a",
  eventId: "evt_a",
  event: "scan.completed",
  body: "{}",
  status: "success",
  attempts: 1,
  responseCode: 200,
  responseTimeMs: 5,
  createdAt: new Date(),
  budgeted: true,
};

describe("MongoDeliveries against a database that never answers", () => {
  it("fails an insert, a result and the read of recorded deliveries as transient network timeouts", async () => {
    const store = new MongoDeliveries(silent, 50);
    const timedOut = { name: "MongoNetworkTimeoutError" };
    await expect(store.add(delivery)).rejects.toMatchObject(timedOut);
    await expect(store.settle(delivery, new Date())).rejects.toMatchObject(timedOut);
    await expect(store.stored([delivery.id])).rejects.toMatchObject(timedOut);
  });
});
