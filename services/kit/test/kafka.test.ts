import { create, type MessageShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { context, trace } from "@opentelemetry/api";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { dlqTopic, KafkaBus, PoisonMessageError } from "../src/kafka.js";
import { createLogger } from "../src/logger.js";
import { createMongo, ensureIndexes, type MongoHandle } from "../src/mongo.js";
import { ProcessedEvents, processedEventsFieldTypes, processedEventsIndexes } from "../src/processed-events.js";
import { initTelemetry, tracer } from "../src/telemetry.js";

type Envelope = MessageShape<typeof EventEnvelopeSchema>;

const logger = createLogger("kit-test", "silent");
let bus: KafkaBus;
let mongo: MongoHandle;
const telemetry = await initTelemetry("kit-test");

function envelope(id: string, scanId: string): Envelope {
  return create(EventEnvelopeSchema, {
    id,
    type: "scan.created",
    orgId: "org_test",
    occurredAt: timestampFromDate(new Date()),
    payload: { case: "scanCreated", value: { scanId, target: "example.test", scanType: "full" } },
  });
}

/** Reads every record of a topic from the beginning with a throwaway consumer (the DLQ check). */
async function readAll(topic: string, expected: number, timeoutMs = 20_000) {
  const kafka = new Kafka({ brokers: [inject("kafkaBrokers")], logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: unique("reader") });
  const records: { key?: string; value: Buffer | null; headers: Record<string, string> }[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]));
      records.push({ key: message.key?.toString(), value: message.value, headers });
    },
  });
  const deadline = Date.now() + timeoutMs;
  while (records.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  await consumer.disconnect();
  return records;
}

async function until(cond: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  bus = new KafkaBus({ clientId: "kit-test", brokers: [inject("kafkaBrokers")], logger, partitions: 3 });
  mongo = createMongo(inject("mongoUrl"), unique("kit"), "kit-test");
  await ensureIndexes(mongo.db, processedEventsIndexes, { fields: processedEventsFieldTypes });
});

afterAll(async () => {
  await bus.close();
  await mongo.close();
  await telemetry.shutdown();
});

describe("KafkaBus against a real broker", () => {
  it("creates topics with their dead-letter topics, idempotently", async () => {
    const topic = unique("vulnscan.test.topics");
    await bus.ensureTopics([topic]);
    await bus.ensureTopics([topic]); // a second replica starting: no error
    const kafka = new Kafka({ brokers: [inject("kafkaBrokers")], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    const topics = await admin.listTopics();
    const meta = await admin.fetchTopicMetadata({ topics: [topic] });
    await admin.disconnect();
    expect(topics).toEqual(expect.arrayContaining([topic, dlqTopic(topic)]));
    expect(meta.topics[0]?.partitions).toHaveLength(3);
  });

  it("returns from two replicas creating the same topics at once only when every partition has a leader", async () => {
    const topics = [unique("vulnscan.test.race-a"), unique("vulnscan.test.race-b")];
    const other = new KafkaBus({ clientId: "kit-test-2", brokers: [inject("kafkaBrokers")], logger, partitions: 3 });
    try {
      await Promise.all([bus.ensureTopics(topics), other.ensureTopics(topics)]);
      const kafka = new Kafka({ brokers: [inject("kafkaBrokers")], logLevel: logLevel.NOTHING });
      const admin = kafka.admin();
      await admin.connect();
      const meta = await admin.fetchTopicMetadata({ topics: [...topics, ...topics.map(dlqTopic)] });
      await admin.disconnect();
      const partitions = meta.topics.flatMap((t) => t.partitions);
      expect(partitions).toHaveLength(12);
      expect(partitions.every((p) => p.leader >= 0)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("round-trips an envelope with key and trace context, and skips a redelivered event id", async () => {
    const topic = unique("vulnscan.test.events");
    await bus.ensureTopics([topic]);
    const processed = new ProcessedEvents(mongo.db, "roundtrip");
    const received: { env: Envelope; key?: string; traceparent?: string }[] = [];
    const sub = await bus.subscribe({
      groupId: unique("g"),
      topic,
      schema: EventEnvelopeSchema,
      idOf: (e) => e.id,
      processed,
      handle: async (env, meta) => {
        received.push({ env, key: meta.key, traceparent: meta.headers.traceparent });
      },
    });

    const span = tracer().startSpan("publish-test");
    const sent = envelope("evt_roundtrip_1", "scan_abc");
    await context.with(trace.setSpan(context.active(), span), () => bus.publish(topic, EventEnvelopeSchema, sent, { key: "scan_abc" }));
    span.end();
    // At-least-once delivery: the same event arrives again (a producer retry, a rebalance).
    await bus.publish(topic, EventEnvelopeSchema, sent, { key: "scan_abc" });
    await bus.publish(topic, EventEnvelopeSchema, envelope("evt_roundtrip_2", "scan_abc"), { key: "scan_abc" });

    await until(() => received.length >= 2);
    await new Promise((r) => setTimeout(r, 1500)); // time for a wrongful third delivery to show up
    await sub.stop();

    expect(received.map((r) => r.env.id)).toEqual(["evt_roundtrip_1", "evt_roundtrip_2"]);
    expect(received[0]?.key).toBe("scan_abc");
    expect(received[0]?.env.payload).toEqual({ case: "scanCreated", value: expect.objectContaining({ scanId: "scan_abc" }) });
    expect(received[0]?.traceparent).toContain(span.spanContext().traceId);
    expect(await processed.seen("evt_roundtrip_1")).toBe(true);
  });

  it("dead-letters undecodable records, poison messages and handlers that keep failing", async () => {
    const topic = unique("vulnscan.test.poison");
    await bus.ensureTopics([topic]);
    let attemptsOnFlaky = 0;
    const good: string[] = [];
    const sub = await bus.subscribe({
      groupId: unique("g"),
      topic,
      schema: EventEnvelopeSchema,
      maxAttempts: 3,
      handle: async (env) => {
        if (env.id === "evt_poison") throw new PoisonMessageError("payload refers to nothing");
        if (env.id === "evt_flaky") {
          attemptsOnFlaky++;
          throw new Error("handler bug");
        }
        good.push(env.id);
      },
    });

    const raw = new Kafka({ brokers: [inject("kafkaBrokers")], logLevel: logLevel.NOTHING }).producer();
    await raw.connect();
    await raw.send({ topic, messages: [{ key: "k1", value: Buffer.from([0xff, 0xff, 0xff, 0x01]) }] });
    await raw.disconnect();
    await bus.publish(topic, EventEnvelopeSchema, envelope("evt_poison", "s1"), { key: "s1" });
    await bus.publish(topic, EventEnvelopeSchema, envelope("evt_flaky", "s2"), { key: "s2" });
    await bus.publish(topic, EventEnvelopeSchema, envelope("evt_after", "s1"), { key: "s1" });

    await until(() => good.includes("evt_after"), 30_000);
    const dead = await readAll(dlqTopic(topic), 3);
    await sub.stop();

    expect(attemptsOnFlaky).toBe(3);
    expect(dead).toHaveLength(3);
    expect(dead.map((d) => d.headers["x-dlq-topic"])).toEqual([topic, topic, topic]);
    const errors = dead.map((d) => d.headers["x-dlq-error"]).sort();
    expect(errors.some((e) => e?.startsWith("PoisonMessageError"))).toBe(true);
    expect(errors.some((e) => e?.includes("handler bug"))).toBe(true);
    expect(dead.find((d) => d.key === "k1")?.value).toEqual(Buffer.from([0xff, 0xff, 0xff, 0x01]));
  });

  it("keeps a prefixed installation's topics apart: the broker sees the prefix, code and meta the plain name", async () => {
    const prefix = `${unique("tenant")}.`;
    const mine = new KafkaBus({ clientId: "kit-test-prefixed", brokers: [inject("kafkaBrokers")], logger, partitions: 1, topicPrefix: prefix });
    const topic = unique("vulnscan.test.prefixed");
    try {
      await mine.ensureTopics([topic]);
      await bus.ensureTopics([topic]);
      const seen: { id: string; topic: string }[] = [];
      const unprefixed: string[] = [];
      await mine.subscribe({
        groupId: unique("g"),
        topic,
        schema: EventEnvelopeSchema,
        handle: async (env, meta) => {
          if (env.id === "evt_bad") throw new PoisonMessageError("refused");
          seen.push({ id: env.id, topic: meta.topic });
        },
      });
      const plain = await bus.subscribe({ groupId: unique("g"), topic, schema: EventEnvelopeSchema, handle: async (env) => void unprefixed.push(env.id) });
      await mine.publish(topic, EventEnvelopeSchema, envelope("evt_bad", "s1"), { key: "s1" });
      await mine.publish(topic, EventEnvelopeSchema, envelope("evt_mine", "s1"), { key: "s1" });
      await bus.publish(topic, EventEnvelopeSchema, envelope("evt_theirs", "s1"), { key: "s1" });

      await until(() => seen.length >= 1 && unprefixed.length >= 1);
      await new Promise((r) => setTimeout(r, 1000)); // time for a record to cross over
      await plain.stop();
      expect(seen).toEqual([{ id: "evt_mine", topic }]);
      expect(unprefixed).toEqual(["evt_theirs"]);
      const dead = await readAll(`${prefix}${dlqTopic(topic)}`, 1);
      expect(dead).toHaveLength(1);
      expect(dead[0]?.headers["x-dlq-topic"]).toBe(topic);
      expect((await mine.latestOffsets(topic)).map((o) => o.offset)).toEqual(["2"]);
    } finally {
      await mine.close();
    }
  });
});
