import { createHash, createHmac } from "node:crypto";
import type { DispatchEvent } from "./types.js";

/*
 * The webhook body and its signatures. The body is built once per delivery and stored, so every
 * attempt (and a manual replay) signs and sends the same bytes.
 */

/** The spec's body: id = delivery id, event = type, timestamp = occurred_at, data = the payload (events/envelope.ts). */
export function webhookBody(deliveryId: string, event: DispatchEvent): string {
  return JSON.stringify({ id: deliveryId, event: event.type, timestamp: event.occurredAt.toISOString(), data: event.data });
}

/**
 * The delivery id of (event, webhook): deterministic, so a redelivered event or a second replica
 * computes the same id and the unique `_id` makes the delivery exist once. Its first 12 hex
 * digits are the event time, like the kit's ids, so ids sort by time.
 */
export function deliveryIdOf(eventId: string, webhookId: string, occurredAt: Date): string {
  const digest = createHash("sha256").update(`${eventId}\n${webhookId}`).digest("hex").slice(0, 16);
  return `delivery_${occurredAt.getTime().toString(16).padStart(12, "0")}${digest}`;
}

/**
 * Headers of one attempt. With a secret: the spec's `X-Service-Signature: sha256=<hex HMAC of the
 * body>`, and the Standard Webhooks signature `v1,<base64 HMAC of "<id>.<timestamp>.<body>">`
 * keyed by the secret's UTF-8 bytes (`new Webhook(secret, { format: "raw" })` verifies it).
 */
export function deliveryHeaders(opts: { deliveryId: string; event: string; body: string; secret?: string; now: Date }): Record<string, string> {
  const seconds = Math.floor(opts.now.getTime() / 1000).toString();
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "vulnscan-webhooks/1",
    "x-service-event": opts.event,
    "x-service-delivery": opts.deliveryId,
    "webhook-id": opts.deliveryId,
    "webhook-timestamp": seconds,
  };
  if (opts.secret) {
    headers["x-service-signature"] = `sha256=${createHmac("sha256", opts.secret).update(opts.body).digest("hex")}`;
    const standard = createHmac("sha256", opts.secret).update(`${opts.deliveryId}.${seconds}.${opts.body}`).digest("base64");
    headers["webhook-signature"] = `v1,${standard}`;
  }
  return headers;
}
