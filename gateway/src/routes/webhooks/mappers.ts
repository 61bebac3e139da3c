import { enumName } from "@vulnscan/kit";
import { type Delivery, DeliveryStatus, type Webhook } from "@vulnscan/proto/vulnscan/webhooks/v1/webhooks_service_pb.js";
import { iso } from "../../schemas.js";

/** proto → the spec's JSON for the webhooks routes; the secret is never part of any answer. */

export function webhookJson(w: Webhook) {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    events: w.events,
    active: w.active,
    created_at: iso(w.createdAt),
    updated_at: iso(w.updatedAt),
    has_secret: w.hasSecret,
    ...(w.disabledReason ? { disabled_reason: w.disabledReason } : {}),
  };
}

export const statusName = (s: DeliveryStatus) => enumName(DeliveryStatus, s);

export function deliveryJson(d: Delivery) {
  return {
    id: d.id,
    event: d.event,
    status: statusName(d.status),
    response_code: d.responseCode,
    response_time_ms: d.responseTimeMs,
    attempts: d.attempts,
    ...(d.error ? { error: d.error } : {}),
    created_at: iso(d.createdAt),
    delivered_at: iso(d.deliveredAt),
    next_retry: iso(d.nextRetry),
    deferred_until: iso(d.deferredUntil),
  };
}
