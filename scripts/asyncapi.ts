// The AsyncAPI 3 document of our public Kafka events, written from the protos (buf's descriptor
// set, with their comments) and the kit's topic table, so it cannot drift from either.
// `npx tsx scripts/asyncapi.ts` rewrites it; test/unit/asyncapi.test.ts fails while it is stale.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createFileRegistry, fromBinary, ScalarType, type DescField, type DescMessage, type FileRegistry } from "@bufbuild/protobuf";
import { pathInFileDesc } from "@bufbuild/protobuf/codegenv2";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { TOPIC_SPECS, type TopicSpec } from "../services/kit/src/topics.js";
import { ROOT } from "./lib/root.js";
import { run } from "./lib/run.js";

/** Where the document is committed: beside the gateway route that serves it. */
export const ASYNCAPI_PATH = path.join(ROOT, "gateway", "src", "routes", "events", "asyncapi.json");
export const ENVELOPE = "vulnscan.events.v1.EventEnvelope";
/** The partition count a deployment gets unless it sets KAFKA_PARTITIONS (services/kit/src/config.ts). */
const DEFAULT_PARTITIONS = 6;

/** buf's FileDescriptorSet of the event protos and everything they import, with source comments. */
export function buildDescriptorSet(out: string): void {
  run("buf", ["build", "--path", "proto/vulnscan/events/v1", "--as-file-descriptor-set", "-o", out], { quiet: true });
}

function loadRegistry(): FileRegistry {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-asyncapi-"));
  try {
    const file = path.join(dir, "events.binpb");
    buildDescriptorSet(file);
    return createFileRegistry(fromBinary(FileDescriptorSetSchema, fs.readFileSync(file)));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The leading comment of a message (or of one of its fields), as one paragraph per blank line. */
function commentOf(message: DescMessage, field?: DescField): string | undefined {
  // pathInFileDesc gives indexes only; source info paths name the descriptor field too (4 message_type, 3 nested_type, 2 field).
  const at = [...pathInFileDesc(message).flatMap((i, depth) => [depth === 0 ? 4 : 3, i]), ...(field ? [2, message.proto.field.indexOf(field.proto)] : [])];
  const loc = message.file.proto.sourceCodeInfo?.location.find((l) => l.path.length === at.length && l.path.every((p, i) => p === at[i]));
  const text = loc?.leadingComments
    .split("\n")
    .map((l) => l.trim())
    .join("\n")
    .trim();
  return text ? text.replace(/([^\n])\n(?=[^\n])/g, "$1 ") : undefined;
}

const ref = (typeName: string) => ({ $ref: `#/components/schemas/${typeName}` });

type Schema = Record<string, unknown>;

/** JSON Schema of a scalar in the proto3 JSON mapping. */
function scalarSchema(t: ScalarType): Schema {
  switch (t) {
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.BYTES:
      return { type: "string", contentEncoding: "base64" };
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return { type: "number" };
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return { type: "string", pattern: "^-?[0-9]+$" };
    default:
      return { type: "integer", format: t === ScalarType.UINT32 || t === ScalarType.FIXED32 ? "uint32" : "int32" };
  }
}

/**
 * Schemas of every message reachable from `root`, keyed by full name. They describe each
 * record's fields as protobuf's JSON mapping names them (proto field names, as the webhook
 * `data` does); the bytes on the topic are the binary encoding of the same message.
 */
function collectSchemas(root: DescMessage, into: Record<string, Schema>): void {
  if (into[root.typeName]) return;
  if (root.typeName === "google.protobuf.Timestamp") {
    into[root.typeName] = { type: "string", format: "date-time", description: "RFC 3339, UTC (protobuf Timestamp; JSON mapping)." };
    return;
  }
  const schema: Schema = { type: "object", "x-protobuf-message": root.typeName };
  into[root.typeName] = schema;
  const description = commentOf(root);
  if (description) schema.description = description;
  const properties: Record<string, Schema> = {};
  for (const f of root.fields) {
    let s: Schema;
    if (f.fieldKind === "scalar") s = scalarSchema(f.scalar);
    else if (f.fieldKind === "enum") s = { type: "string", enum: f.enum.values.map((v) => v.name) };
    else if (f.fieldKind === "message") {
      collectSchemas(f.message, into);
      s = ref(f.message.typeName);
    } else if (f.fieldKind === "list") {
      const item: Schema =
        f.listKind === "scalar"
          ? scalarSchema(f.scalar)
          : f.listKind === "enum"
            ? { type: "string", enum: f.enum.values.map((v) => v.name) }
            : (collectSchemas(f.message, into), ref(f.message.typeName));
      s = { type: "array", items: item };
    } else {
      const value: Schema =
        f.mapKind === "scalar"
          ? scalarSchema(f.scalar)
          : f.mapKind === "enum"
            ? { type: "string", enum: f.enum.values.map((v) => v.name) }
            : (collectSchemas(f.message, into), ref(f.message.typeName));
      s = { type: "object", additionalProperties: value };
    }
    const c = commentOf(root, f);
    const extra = [c, f.proto.proto3Optional ? "Optional: absent when unset." : undefined].filter(Boolean).join(" ");
    // A $ref carries no siblings in JSON Schema draft 7 (AsyncAPI's default): wrap it.
    properties[f.name] = { ...("$ref" in s ? { allOf: [s] } : s), ...(extra ? { description: extra } : {}), "x-protobuf-field": f.number };
  }
  schema.properties = properties;
}

const kindOf = (field: DescField) => field.name.replace("_", ".");

function topicOfKind(kind: string): [string, TopicSpec] {
  const hits = Object.entries(TOPIC_SPECS).filter(([, spec]) => spec.kinds.some((p) => kind.startsWith(p)));
  if (hits.length !== 1) throw new Error(`event kind ${kind} is carried by ${hits.length} topics in services/kit/src/topics.ts; it must be exactly one`);
  return hits[0]!;
}

const channelId = (topic: string) => topic.replace(/^vulnscan\./, "").replace(/\.(\w)/g, (_, c: string) => c.toUpperCase());

const DESCRIPTION = `The Kafka events vulnscan publishes for other services to consume. The human-readable
catalogue, with the delivery, ordering and compatibility guarantees, is docs/events.md.

Every record's value is one \`vulnscan.events.v1.EventEnvelope\` in protobuf's binary encoding
(no schema-registry framing). Its \`type\` names the event kind and exactly one payload field,
named after the kind with '.' as '_', is set. The schemas here give the fields as protobuf's JSON
mapping names them (proto field names), which is also the webhook delivery's \`data\`.

Delivery is at least once: de-duplicate by the envelope's \`id\`. Skip an envelope whose \`type\`
you do not know (no payload field of yours is set), and ignore fields you do not know: within
\`v1\` changes are additive only (checked with \`buf breaking\`).`;

export async function generateAsyncApi(): Promise<string> {
  const registry = loadRegistry();
  const envelope = registry.getMessage(ENVELOPE);
  if (!envelope) throw new Error(`${ENVELOPE} is not in the descriptor set`);
  const oneof = envelope.oneofs.find((o) => o.name === "payload");
  if (!oneof) throw new Error("EventEnvelope has no payload oneof");

  const schemas: Record<string, Schema> = {};
  const base = envelope.fields.filter((f) => !f.oneof);
  for (const f of base) if (f.message) collectSchemas(f.message, schemas);
  const envelopeProps = (kind: string, payload: DescField) => {
    const props: Record<string, Schema> = {};
    for (const f of base) {
      const s: Schema = f.message ? { allOf: [ref(f.message.typeName)] } : scalarSchema((f as { scalar: ScalarType }).scalar);
      const c = commentOf(envelope, f);
      props[f.name] = { ...s, ...(c ? { description: c } : {}), "x-protobuf-field": f.number };
      if (f.name === "type") props[f.name] = { ...props[f.name], const: kind };
    }
    props[payload.name] = { allOf: [ref(payload.message!.typeName)], "x-protobuf-field": payload.number };
    return props;
  };

  const headers = {
    type: "object",
    properties: {
      "content-type": { type: "string", const: "application/x-protobuf" },
      "message-type": { type: "string", const: ENVELOPE, description: "Full protobuf name of the value." },
      traceparent: { type: "string", description: "W3C trace context of the change that produced the event, when it was traced." },
      tracestate: { type: "string", description: "W3C trace state, with traceparent." },
    },
  };

  const messages: Record<string, Schema> = {};
  const channels: Record<string, Schema> = {};
  const operations: Record<string, Schema> = {};
  const byTopic = new Map<string, string[]>();
  for (const field of oneof.fields) {
    if (!field.message) throw new Error(`payload field ${field.name} is not a message`);
    const kind = kindOf(field);
    const [topic, spec] = topicOfKind(kind);
    collectSchemas(field.message, schemas);
    // auth.* are facts for the gateways, never delivered; webhook.test is delivered, by the test operation only, and not on Kafka today.
    const note = kind.startsWith("auth.")
      ? "Internal: not a customer event kind, never delivered to webhooks."
      : kind === "webhook.test"
        ? "Not published on Kafka today: the webhook test operation builds and delivers it in-process. A webhook cannot subscribe to it."
        : undefined;
    messages[kind] = {
      name: kind,
      title: kind,
      summary: commentOf(field.message) ?? kind,
      contentType: "application/x-protobuf",
      headers,
      payload: {
        type: "object",
        "x-protobuf-message": ENVELOPE,
        required: ["id", "type", "org_id", "occurred_at", field.name],
        properties: envelopeProps(kind, field),
      },
      bindings: { kafka: { key: { type: "string", description: spec.key }, bindingVersion: "0.5.0" } },
      ...(note ? { "x-internal": true, description: note } : {}),
    };
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), kind]);
  }
  for (const [topic, spec] of Object.entries(TOPIC_SPECS)) {
    if (spec.audience !== "public") continue;
    const id = channelId(topic);
    const kinds = byTopic.get(topic) ?? [];
    channels[id] = {
      address: topic,
      title: topic,
      description: `${spec.description}\n\nKey: ${spec.key}. Producer: ${spec.producer}.`,
      messages: Object.fromEntries(kinds.map((k) => [k, { $ref: `#/components/messages/${k}` }])),
      bindings: {
        kafka: {
          topic,
          partitions: DEFAULT_PARTITIONS,
          topicConfiguration: { "cleanup.policy": [spec.cleanupPolicy], "retention.ms": spec.retentionMs },
          bindingVersion: "0.5.0",
        },
      },
      "x-partitions": "KAFKA_PARTITIONS of the deployment (default 6); the key, not the partition number, is the contract.",
    };
    operations[`publish${id[0]!.toUpperCase()}${id.slice(1)}`] = {
      action: "send",
      title: `${spec.producer} publishes to ${topic}`,
      channel: { $ref: `#/channels/${id}` },
      messages: kinds.map((k) => ({ $ref: `#/channels/${id}/messages/${k}` })),
    };
  }

  const doc = {
    asyncapi: "3.1.0",
    info: { title: "vulnscan events", version: "v1", description: DESCRIPTION },
    defaultContentType: "application/x-protobuf",
    channels,
    operations,
    components: { messages, schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))) },
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.writeFileSync(ASYNCAPI_PATH, await generateAsyncApi());
  console.log(`asyncapi: wrote ${path.relative(ROOT, ASYNCAPI_PATH)}`);
}
