import { fromBinary } from "@bufbuild/protobuf";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { KafkaBus } from "../src/kafka.js";
import { createLogger } from "../src/logger.js";
import { createMongo, ensureIndexes, type MongoHandle } from "../src/mongo.js";
import { Outbox, outboxFieldTypes, outboxIndexes, withOutbox, pendingEvent } from "../src/outbox.js";

const logger = createLogger("outbox-test", "silent");
let mongo: MongoHandle;
let bus: KafkaBus;

beforeAll(async () => {
  mongo = createMongo(inject("mongoUrl"), unique("outbox"), "outbox-test");
  bus = new KafkaBus({ clientId: "outbox-test", brokers: [inject("kafkaBrokers")], logger, partitions: 1 });
  await ensureIndexes(mongo.db, outboxIndexes("things"), { fields: outboxFieldTypes("things") });
});
afterAll(async () => {
  await bus.close();
  await mongo.db.dropDatabase().catch(() => undefined);
  await mongo.close();
});

describe("Outbox", () => {
  it("stores the event with the state change and publishes it exactly from the stored bytes; the relay covers a crash", async () => {
    const topic = unique("vulnscan.test.outbox");
    await bus.ensureTopics([topic]);
    const things = mongo.db.collection<{ _id: string; state: string }>("things");
    const ev = pendingEvent(topic, "thing_1", {
      type: "user.mfa_disabled",
      orgId: "org_1",
      payload: { case: "userMfaDisabled", value: { userId: "user_1", email: "a@example.test" } },
    });
    // The state change and its event in one single-document write; then the process "crashes" before flushing.
    await things.insertOne({ _id: "thing_1", state: "new" });
    await things.updateOne({ _id: "thing_1" }, withOutbox({ $set: { state: "mfa_off" } }, [ev]));

    const received: string[] = [];
    const sub = await bus.subscribe({
      groupId: unique("g"),
      topic,
      schema: EventEnvelopeSchema,
      handle: async (env, meta) => {
        received.push(`${env.id}|${env.type}|${env.orgId}|${meta.key}|${env.payload.case}`);
      },
    });

    const outbox = new Outbox(mongo.db, bus, logger, ["things"]);
    await outbox.relayOnce(); // too young: left to the writer's own fast-path flush
    expect(await things.findOne({ _id: "thing_1" })).toMatchObject({ outbox: [expect.anything()], outbox_pending: true });
    expect(await outbox.relayOnce(0)).toBe(1);
    expect(await outbox.relayOnce(0)).toBe(0); // nothing left pending

    const deadline = Date.now() + 20_000;
    while (received.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await sub.stop();
    expect(received).toEqual([`${ev.id}|user.mfa_disabled|org_1|thing_1|userMfaDisabled`]);
    const doc = await things.findOne({ _id: "thing_1" });
    expect(doc).toMatchObject({ state: "mfa_off", outbox: [], outbox_pending: false });
    expect(fromBinary(EventEnvelopeSchema, ev.envelope.buffer).occurredAt).toBeDefined();
  });
});
