import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { WEBHOOK_EVENT_KINDS } from "@vulnscan/kit/event-kinds";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";

function typeOf(f: DescField): string {
  const list = f.fieldKind === "list";
  const kind = list ? f.listKind : f.fieldKind;
  let t: string;
  if (kind === "message") {
    const m = (f as { message: DescMessage }).message;
    t = m.typeName === "google.protobuf.Timestamp" ? "timestamp" : `{${m.fields.map((x) => x.name).join(", ")}}`;
  } else {
    const s = (f as { scalar: ScalarType }).scalar;
    t = s === ScalarType.STRING ? "string" : s === ScalarType.BOOL ? "boolean" : s === ScalarType.DOUBLE || s === ScalarType.FLOAT ? "number" : "integer";
  }
  return list ? `array of ${t}` : t;
}

/**
 * Object fields a producer leaves unset at times (their proto comments say when). Proto3 gives
 * every message field presence, so the descriptor cannot tell these from always-set ones.
 */
const SOMETIMES_UNSET = new Set(["vulnscan.events.v1.ScanCompleted.comparison"]);

const optional = (f: DescField) => f.proto.proto3Optional || SOMETIMES_UNSET.has(`${f.parent.typeName}.${f.name}`);

/** One row per event kind, read from the event contracts themselves, so the table cannot drift. */
function dataTable(): string {
  const rows = [...WEBHOOK_EVENT_KINDS, "webhook.test"].map((kind) => {
    const field = EventEnvelopeSchema.fields.find((f) => f.name === kind.replace(".", "_"));
    const msg = field?.fieldKind === "message" ? field.message : undefined;
    const cols = msg ? msg.fields.map((f) => `${f.name} (${typeOf(f)}${optional(f) ? ", optional" : ""})`).join(", ") : "";
    return `| ${kind} | ${cols} |`;
  });
  return ["| event | data fields |", "|---|---|", ...rows].join("\n");
}

/** The receiver guide of the API docs (spec "Events"; DESIGN.md "webhook secret"). */
export const RECEIVER_GUIDE = `Webhooks (Professional and Enterprise) POST each subscribed event to your HTTPS URL.

**Body**: \`{"id": "delivery_…", "event": "<kind>", "timestamp": "<when it happened, ISO 8601>", "data": {…}}\`.
Optional fields and timestamps that are not set are omitted; every other field is always present.

**Headers**: \`X-Service-Event\` (kind), \`X-Service-Delivery\` (delivery id), and with a secret
\`X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the exact body bytes, keyed by the secret>\`.
The Standard Webhooks headers are sent too: \`webhook-id\` (delivery id), \`webhook-timestamp\`
(Unix seconds of this attempt) and \`webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">\`,
keyed by the secret's UTF-8 bytes: with the \`standardwebhooks\` libraries pass the secret as raw bytes
(JavaScript: \`new Webhook(secret, { format: "raw" })\`).

**Verifying** (examples/webhook-receiver in the repository does all of this):
1. Compute the HMAC over the raw body bytes *before* parsing JSON; compare with \`crypto.timingSafeEqual\`
   (or your language's constant-time compare), never \`==\`. Reject a mismatch with 401.
2. Reject stale messages: refuse a \`webhook-timestamp\` (or the body's \`timestamp\` for the event time) more than 5 minutes old.
3. Be idempotent: keep the delivery ids you have processed and answer 2xx to a repeat without acting again.
4. Answer any 2xx within 30 seconds; do the work after answering. Redirects are not followed.

**Retries**: attempts at once, then 5 min, 30 min, 2 h and 8 h after the previous failure (up to 5 % later).
A \`Retry-After\` on 429/503 moves the next attempt later (at most 8 h). After the 5th failure the delivery
is \`failed\`. A webhook whose every attempt has failed for 3 days is set inactive, with \`disabled_reason\`;
PATCH \`active: true\` re-enables it. Deliveries beyond the plan's events per hour (Professional 1000,
Enterprise 10000) are deferred to the next hour, never dropped (\`deferred_until\` on the delivery).

**Data per event kind**:

${dataTable()}
`;
