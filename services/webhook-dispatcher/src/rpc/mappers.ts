import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { DeliveryStatus } from "@vulnscan/proto/vulnscan/webhooks/v1/webhooks_service_pb.js";
import type { Delivery, Webhook } from "../domain/types.js";

const ts = (d: Date | undefined) => (d ? timestampFromDate(d) : undefined);

const STATUS = { pending: DeliveryStatus.PENDING, success: DeliveryStatus.SUCCESS, failed: DeliveryStatus.FAILED } as const;

export const statusOf = (s: DeliveryStatus): Delivery["status"] | undefined =>
  s === DeliveryStatus.PENDING ? "pending" : s === DeliveryStatus.SUCCESS ? "success" : s === DeliveryStatus.FAILED ? "failed" : undefined;

/** The secret never leaves: only whether one is set. */
export function webhookMsg(w: Webhook) {
  return {
    id: w.id,
    orgId: w.orgId,
    name: w.name,
    url: w.url,
    events: w.events,
    active: w.active,
    createdAt: ts(w.createdAt),
    updatedAt: ts(w.updatedAt),
    hasSecret: w.secret !== undefined,
    disabledReason: w.disabledReason ?? "",
  };
}

export function deliveryMsg(d: Delivery) {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    event: d.event,
    status: STATUS[d.status],
    responseCode: d.responseCode,
    responseTimeMs: d.responseTimeMs,
    attempts: d.attempts,
    error: d.error ?? "",
    createdAt: ts(d.createdAt),
    deliveredAt: ts(d.deliveredAt),
    nextRetry: ts(d.nextAttemptAt),
    deferredUntil: ts(d.deferredUntil),
  };
}

/** The spec's page defaults: page from 1, 20 per page, at most 100. */
export function pageOf(p: { page: number; perPage: number } | undefined) {
  const page = Math.max(1, p?.page || 1);
  const perPage = Math.min(100, Math.max(1, p?.perPage || 20));
  return { page, perPage };
}

export const pageInfo = (total: number, page: number, perPage: number) => ({ total, page, perPage, pages: Math.ceil(total / perPage) });
