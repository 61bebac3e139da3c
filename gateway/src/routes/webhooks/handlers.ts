import type { Client } from "@connectrpc/connect";
import type { FastifyRequest } from "fastify";
import { enumValue } from "@vulnscan/kit";
import { DeliveryStatus, type WebhookService } from "@vulnscan/proto/vulnscan/webhooks/v1/webhooks_service_pb.js";
import { principalOf } from "../../auth/guard.js";
import { dateParam, envelope } from "../../rest.js";
import type { ReplyOf, RequestOf } from "../typed.js";
import { deliveryJson, statusName, webhookJson } from "./mappers.js";
import type * as schema from "./schemas.js";

/** The webhooks routes' handlers: validated request → one webhook-dispatcher RPC → the spec's JSON. */
export function webhookHandlers(hooks: Client<typeof WebhookService>) {
  const ids = (req: FastifyRequest & { params: { webhook_id: string } }) => ({ orgId: principalOf(req).orgId, webhookId: req.params.webhook_id });

  async function createWebhook(req: RequestOf<typeof schema.createWebhook>, reply: ReplyOf<typeof schema.createWebhook>) {
    const b = req.body;
    const { webhook } = await hooks.createWebhook({ orgId: principalOf(req).orgId, ...b });
    return reply.code(201).send(webhookJson(webhook!));
  }

  async function listWebhooks(req: RequestOf<typeof schema.listWebhooks>) {
    const res = await hooks.listWebhooks({ orgId: principalOf(req).orgId, pagination: { page: req.query.page, perPage: req.query.per_page } });
    return envelope(res.webhooks.map(webhookJson), res.pageInfo);
  }

  async function getWebhook(req: RequestOf<typeof schema.getWebhook>) {
    return webhookJson((await hooks.getWebhook(ids(req))).webhook!);
  }

  async function updateWebhook(req: RequestOf<typeof schema.updateWebhook>) {
    const { events, secret, ...rest } = req.body;
    const { webhook } = await hooks.updateWebhook({
      ...ids(req),
      ...rest,
      ...(events ? { events: { events } } : {}),
      ...(secret !== undefined ? { secret: secret ?? "" } : {}),
    });
    return webhookJson(webhook!);
  }

  async function deleteWebhook(req: RequestOf<typeof schema.deleteWebhook>, reply: ReplyOf<typeof schema.deleteWebhook>) {
    await hooks.deleteWebhook(ids(req));
    return reply.code(204).send();
  }

  async function testWebhook(req: RequestOf<typeof schema.testWebhook>) {
    const r = await hooks.testWebhook(ids(req));
    return {
      delivery_id: r.deliveryId,
      status: statusName(r.status),
      response_code: r.responseCode,
      response_time_ms: r.responseTimeMs,
      ...(r.error ? { error: r.error } : {}),
    };
  }

  async function listDeliveries(req: RequestOf<typeof schema.listDeliveries>) {
    const q = req.query;
    const res = await hooks.listDeliveries({
      ...ids(req),
      pagination: { page: q.page, perPage: q.per_page },
      ...(q.status ? { status: enumValue(DeliveryStatus, q.status) } : {}),
      ...(q.event ? { event: q.event } : {}),
    });
    return envelope(res.deliveries.map(deliveryJson), res.pageInfo);
  }

  async function retryDelivery(req: RequestOf<typeof schema.retryDelivery>) {
    const { delivery } = await hooks.retryDelivery({ ...ids(req), deliveryId: req.params.delivery_id });
    return deliveryJson(delivery!);
  }

  async function replayDeliveries(req: RequestOf<typeof schema.replayDeliveries>, reply: ReplyOf<typeof schema.replayDeliveries>) {
    const { scheduled } = await hooks.replayFailedDeliveries({ ...ids(req), from: dateParam(req.body?.from, "from"), to: dateParam(req.body?.to, "to") });
    return reply.code(202).send({ scheduled });
  }

  return { createWebhook, listWebhooks, getWebhook, updateWebhook, deleteWebhook, testWebhook, listDeliveries, retryDelivery, replayDeliveries };
}
