import fs from "node:fs";
import { Parser } from "@asyncapi/parser";
import { describe, expect, it } from "vitest";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { ASYNCAPI_PATH, generateAsyncApi } from "../../scripts/asyncapi.js";
import { TOPIC_SPECS } from "../../services/kit/src/topics.js";

/*
 * The AsyncAPI document of our Kafka events is generated (scripts/asyncapi.ts) and committed
 * beside the gateway route that serves it; like proto/gen, a proto or topic change without
 * regenerating it fails here.
 */
describe("the AsyncAPI document of the Kafka events", () => {
  it("is what scripts/asyncapi.ts writes from the protos and the topic table (run `npx tsx scripts/asyncapi.ts`)", async () => {
    expect(fs.readFileSync(ASYNCAPI_PATH, "utf8") === (await generateAsyncApi()), "gateway/src/routes/events/asyncapi.json is stale").toBe(true);
  });

  it("is valid for the AsyncAPI parser, without a warning", async () => {
    const { document, diagnostics } = await new Parser().parse(fs.readFileSync(ASYNCAPI_PATH, "utf8"));
    // 0 error, 1 warning (2 information, 3 hint)
    expect(diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.code}: ${d.message} at ${d.path.join("/")}`)).toEqual([]);
    expect(document?.version()).toMatch(/^3\./);
  });

  it("has a channel per public topic with its settings, and every event kind on exactly one of them", async () => {
    const { document } = await new Parser().parse(fs.readFileSync(ASYNCAPI_PATH, "utf8"));
    const publicTopics = Object.entries(TOPIC_SPECS).filter(([, s]) => s.audience === "public");
    expect(
      document!
        .channels()
        .all()
        .map((c) => c.address())
        .sort(),
    ).toEqual(publicTopics.map(([t]) => t).sort());
    const kinds = EventEnvelopeSchema.oneofs[0]!.fields.map((f) => f.name.replace("_", "."));
    const onChannels = document!
      .channels()
      .all()
      .flatMap((c) =>
        c
          .messages()
          .all()
          .map((m) => m.name()),
      );
    expect(onChannels.sort()).toEqual([...kinds].sort());
    for (const [topic, spec] of publicTopics) {
      const kafka = document!
        .channels()
        .all()
        .find((c) => c.address() === topic)!
        .bindings()
        .get("kafka")!
        .value();
      expect(kafka.topicConfiguration, topic).toEqual({ "cleanup.policy": ["delete"], "retention.ms": spec.retentionMs });
    }
  });
});
