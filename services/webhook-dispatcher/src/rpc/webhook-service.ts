import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { validationError } from "@vulnscan/kit";
import type * as pb from "@vulnscan/proto/vulnscan/webhooks/v1/webhooks_service_pb.js";
import type { DeliveryOperations } from "../domain/delivery-operations.js";
import type { WebhookRegistry } from "../domain/webhooks.js";
import { deliveryMsg, pageInfo, pageOf, statusOf, webhookMsg } from "./mappers.js";

/** Every request names its organization (DESIGN.md §1); an empty one is the caller's bug. */
function orgOf(req: { orgId: string }): string {
  if (req.orgId === "") throw validationError("org_id", "org_id is required");
  return req.orgId;
}

/** vulnscan.webhooks.v1.WebhookService: map the request, call one use case, map the answer. */
export class WebhookRpcService implements ServiceImpl<typeof pb.WebhookService> {
  constructor(
    private readonly registry: WebhookRegistry,
    private readonly deliveries: DeliveryOperations,
  ) {}

  async createWebhook(req: pb.CreateWebhookRequest) {
    const w = await this.registry.create(orgOf(req), {
      name: req.name,
      url: req.url,
      events: req.events,
      ...(req.secret !== undefined ? { secret: req.secret } : {}),
      ...(req.active !== undefined ? { active: req.active } : {}),
    });
    return { webhook: webhookMsg(w) };
  }

  async listWebhooks(req: pb.ListWebhooksRequest) {
    const { page, perPage } = pageOf(req.pagination);
    const res = await this.registry.list(orgOf(req), page, perPage);
    return { webhooks: res.items.map(webhookMsg), pageInfo: pageInfo(res.total, page, perPage) };
  }

  async getWebhook(req: pb.GetWebhookRequest) {
    return { webhook: webhookMsg(await this.registry.get(orgOf(req), req.webhookId)) };
  }

  async updateWebhook(req: pb.UpdateWebhookRequest) {
    const w = await this.registry.update(orgOf(req), req.webhookId, {
      ...(req.name !== undefined ? { name: req.name } : {}),
      ...(req.url !== undefined ? { url: req.url } : {}),
      ...(req.events ? { events: req.events.events } : {}),
      ...(req.secret !== undefined ? { secret: req.secret } : {}),
      ...(req.active !== undefined ? { active: req.active } : {}),
    });
    return { webhook: webhookMsg(w) };
  }

  async deleteWebhook(req: pb.DeleteWebhookRequest) {
    await this.registry.remove(orgOf(req), req.webhookId);
    return {};
  }

  async testWebhook(req: pb.TestWebhookRequest) {
    const d = await this.deliveries.test(orgOf(req), req.webhookId);
    const m = deliveryMsg(d);
    return { deliveryId: d.id, status: m.status, responseCode: d.responseCode, responseTimeMs: d.responseTimeMs, error: m.error };
  }

  async listDeliveries(req: pb.ListDeliveriesRequest) {
    const { page, perPage } = pageOf(req.pagination);
    const status = statusOf(req.status);
    const res = await this.deliveries.list(
      orgOf(req),
      req.webhookId,
      { ...(status ? { status } : {}), ...(req.event ? { event: req.event } : {}) },
      page,
      perPage,
    );
    return { deliveries: res.items.map(deliveryMsg), pageInfo: pageInfo(res.total, page, perPage) };
  }

  async retryDelivery(req: pb.RetryDeliveryRequest) {
    const d = await this.deliveries.retry(orgOf(req), req.webhookId, req.deliveryId);
    return { delivery: deliveryMsg(d) };
  }

  async replayFailedDeliveries(req: pb.ReplayFailedDeliveriesRequest) {
    const from = req.from ? timestampDate(req.from) : new Date(0);
    const to = req.to ? timestampDate(req.to) : new Date();
    if (from >= to) throw validationError("from", "from must be before to");
    return { scheduled: await this.deliveries.replayFailed(orgOf(req), req.webhookId, from, to) };
  }
}
