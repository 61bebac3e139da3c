import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { configureTextEncoding, getTextEncoding } from "@bufbuild/protobuf/wire";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { afterEach, describe, expect, it } from "vitest";
import { useNodeTextEncoding } from "./text-encoding.js";

const platform = getTextEncoding();
afterEach(() => configureTextEncoding(platform));

// Strings of every UTF-8 length class, an unpaired surrogate (TextEncoder writes U+FFFD) and an empty one.
const texts = ["", "plain ascii", "café", "漏洞扫描", "🛡️ shield", "lone \ud800 surrogate", "x".repeat(5000)];

describe("useNodeTextEncoding", () => {
  it("encodes strings with Buffer.from: the same bytes as TextEncoder", () => {
    useNodeTextEncoding();
    const { encodeUtf8 } = getTextEncoding();
    for (const t of texts) {
      const bytes = encodeUtf8(t);
      expect(Buffer.isBuffer(bytes)).toBe(true);
      expect([...bytes]).toEqual([...new TextEncoder().encode(t)]);
    }
  });

  it("leaves messages byte for byte as they were, and they decode to their strings", () => {
    const messages = texts.map((t) => create(EventEnvelopeSchema, { id: `evt_${t.slice(0, 10)}`, type: t, orgId: t }));
    const before = messages.map((m) => toBinary(EventEnvelopeSchema, m));
    useNodeTextEncoding();
    const after = messages.map((m) => toBinary(EventEnvelopeSchema, m));
    expect(after).toEqual(before);
    expect(after.map((b) => fromBinary(EventEnvelopeSchema, b).orgId)).toEqual(texts.map((t) => t.replace("\ud800", "\ufffd")));
  });
});
