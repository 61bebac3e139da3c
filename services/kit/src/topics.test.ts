import { describe, expect, it } from "vitest";
import { DLQ_RETENTION_MS, EVENT_RETENTION_MS, INTERNAL_RETENTION_MS, TOPIC_SPECS, Topics, topicConfig } from "./topics.js";

describe("the topic table", () => {
  it("describes every topic, public ones carrying envelopes and internal ones none of the event kinds", () => {
    expect(Object.keys(TOPIC_SPECS).sort()).toEqual(Object.values(Topics).sort());
    for (const [topic, spec] of Object.entries(TOPIC_SPECS)) {
      if (spec.audience === "public") {
        expect(spec.message, topic).toBe("vulnscan.events.v1.EventEnvelope");
        expect(spec.kinds.length, topic).toBeGreaterThan(0);
      } else expect(spec.kinds, topic).toEqual([]);
    }
  });

  it("gives every topic its retention, delete policy and producer timestamps; dead-letter topics a month, unknown topics the internal settings", () => {
    expect(topicConfig(Topics.scanEvents)).toEqual({
      "cleanup.policy": "delete",
      "retention.ms": String(EVENT_RETENTION_MS),
      "message.timestamp.type": "CreateTime",
    });
    expect(topicConfig(Topics.scanJobs)["retention.ms"]).toBe(String(INTERNAL_RETENTION_MS));
    expect(topicConfig(`${Topics.findingEvents}.dlq`)["retention.ms"]).toBe(String(DLQ_RETENTION_MS));
    expect(topicConfig("a-test-topic")["retention.ms"]).toBe(String(INTERNAL_RETENTION_MS));
    expect([EVENT_RETENTION_MS, INTERNAL_RETENTION_MS, DLQ_RETENTION_MS].map((ms) => ms / 86_400_000)).toEqual([14, 7, 30]);
  });
});
