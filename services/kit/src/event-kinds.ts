import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";

/*
 * The spec's event kinds, read from the envelope's payload oneof (one field per kind, named after
 * it with '.' as '_'), so the contract is the one list. auth.* (internal facts for the gateways)
 * and webhook.test (the test operation's) are not customer event kinds.
 */
const payloadKinds = EventEnvelopeSchema.oneofs[0]!.fields.map((f) => f.name.replace("_", "."));

/** The kinds a webhook may subscribe to and receive, in the envelope's order: the spec's 18, each group's additions (target.*, finding.*) after it. */
export const WEBHOOK_EVENT_KINDS: readonly string[] = payloadKinds.filter((k) => !k.startsWith("auth.") && k !== "webhook.test");
