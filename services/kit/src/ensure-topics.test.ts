import type { Admin } from "kafkajs";
import { describe, expect, it } from "vitest";
import { KafkaBus } from "./kafka.js";
import { createLogger } from "./logger.js";

/**
 * What a KRaft broker answers right after creating topics, as seen on a fresh `npm start`: the
 * create succeeds, then Metadata says "This server does not host this topic-partition" for a few
 * hundred milliseconds, then partitions without a leader, then leaders that answer ListOffsets
 * "not the leader" for up to a second more, then offsets. The admin is a stand-in
 * (unit test); services/kit/test/kafka.test.ts runs ensureTopics against the real broker.
 */
function brokerAfterCreate(opts: { unknownFor: number; leaderlessFor: number; notServingFor?: number; createFails?: Error }) {
  const created: string[] = [];
  let asked = 0;
  let offsetsAsked = 0;
  const admin = {
    listTopics: async () => [],
    createTopics: async ({ topics }: { topics: { topic: string }[] }) => {
      created.push(...topics.map((t) => t.topic));
      if (opts.createFails) throw opts.createFails;
      return true;
    },
    fetchTopicMetadata: async ({ topics }: { topics: string[] }) => {
      asked++;
      if (asked <= opts.unknownFor) throw Object.assign(new Error("This server does not host this topic-partition"), { type: "UNKNOWN_TOPIC_OR_PARTITION" });
      const leader = asked <= opts.unknownFor + opts.leaderlessFor ? -1 : 1;
      return { topics: topics.map((name) => ({ name, partitions: [0, 1, 2].map((partitionId) => ({ partitionId, leader })) })) };
    },
    // Per topic; kafkajs gives up after its own retries with the broker's error.
    fetchTopicOffsets: async (topic: string) => {
      offsetsAsked++;
      if (offsetsAsked <= 2 * (opts.notServingFor ?? 0))
        throw Object.assign(new Error("This server is not the leader for that topic-partition"), { type: "NOT_LEADER_FOR_PARTITION", topic });
      return [0, 1, 2].map((partition) => ({ partition, offset: "0", high: "0", low: "0" }));
    },
  };
  const bus = new KafkaBus({ clientId: "unit", brokers: ["127.0.0.1:9"], logger: createLogger("unit", "silent") });
  (bus as unknown as { admin: Admin }).admin = admin as unknown as Admin;
  return { bus, created, asked: () => asked, offsetsAsked: () => offsetsAsked };
}

describe("KafkaBus.ensureTopics", () => {
  it("returns only once every new partition has a leader, through the broker's unknown-topic answers", async () => {
    const broker = brokerAfterCreate({ unknownFor: 3, leaderlessFor: 2 });
    expect(await broker.bus.ensureTopics(["vulnscan.scans"])).toEqual(["vulnscan.scans", "vulnscan.scans.dlq"]);
    expect(broker.created).toEqual(["vulnscan.scans", "vulnscan.scans.dlq"]);
    expect(broker.asked()).toBe(6);
  });

  it("returns only once the leaders serve the new partitions (ListOffsets), not when Metadata first names them", async () => {
    const broker = brokerAfterCreate({ unknownFor: 0, leaderlessFor: 0, notServingFor: 3 });
    await broker.bus.ensureTopics(["vulnscan.scans"]);
    // Three rounds refused (both topics asked each time), the fourth answered.
    expect(broker.asked()).toBe(4);
    expect(broker.offsetsAsked()).toBe(8);
  });

  it("creates nothing and returns no names when every topic exists", async () => {
    const broker = brokerAfterCreate({ unknownFor: 0, leaderlessFor: 0 });
    (broker.bus as unknown as { admin: { listTopics: () => Promise<string[]> } }).admin.listTopics = async () => ["vulnscan.scans", "vulnscan.scans.dlq"];
    expect(await broker.bus.ensureTopics(["vulnscan.scans"])).toEqual([]);
    expect(broker.created).toEqual([]);
  });

  it("accepts a create another replica won, once the topics are there", async () => {
    const broker = brokerAfterCreate({ unknownFor: 1, leaderlessFor: 0, createFails: new Error("Topic with this name already exists") });
    await broker.bus.ensureTopics(["vulnscan.scans"]);
    expect(broker.asked()).toBe(2);
  });
});
