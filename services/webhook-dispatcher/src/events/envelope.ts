import { toJson } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { WEBHOOK_EVENT_KINDS } from "@vulnscan/kit/event-kinds";
import { type EventEnvelope, EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import type { DispatchEvent } from "../domain/types.js";

const KINDS: ReadonlySet<string> = new Set(WEBHOOK_EVENT_KINDS);

/**
 * The event a customer may receive, from its Kafka envelope: undefined for auth.* and anything
 * else internal or unknown, which is never delivered. Its data is the payload as proto JSON with
 * proto field names and implicit defaults (envelope.proto's header).
 */
export function dispatchEventOf(env: EventEnvelope): DispatchEvent | undefined {
  if (!KINDS.has(env.type) || !env.orgId || !env.id) return undefined;
  const json = toJson(EventEnvelopeSchema, env, { useProtoFieldName: true, alwaysEmitImplicit: true }) as Record<string, unknown>;
  return {
    id: env.id,
    type: env.type,
    orgId: env.orgId,
    occurredAt: env.occurredAt ? timestampDate(env.occurredAt) : new Date(),
    data: json[env.type.replace(".", "_")] ?? {},
  };
}
