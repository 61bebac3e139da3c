import type { Client } from "@connectrpc/connect";
import type { WebhookService } from "@vulnscan/proto/vulnscan/webhooks/v1/webhooks_service_pb.js";
import type { FastifyPluginAsync } from "fastify";
import { typed } from "../typed.js";
import { webhookHandlers } from "./handlers.js";
import * as schema from "./schemas.js";

/*
 * Webhooks need a bearer token (docs/decisions.md): a webhook receives every kind of data of the
 * organization (scans, findings, GRC, security events), which no single API-key permission
 * covers, and it holds a signing secret, like the key management that is bearer-only too.
 */
const bearer = { bearerOnly: true } as const;

/** Webhooks and their deliveries (spec "Webhooks"), served by webhook-dispatcher. */
export const webhookRoutes =
  (hooks: Client<typeof WebhookService>): FastifyPluginAsync =>
  async (fastify) => {
    const app = typed(fastify);
    const h = webhookHandlers(hooks);
    app.post("/api/v1/webhooks", { config: bearer, schema: schema.createWebhook }, h.createWebhook);
    app.get("/api/v1/webhooks", { config: bearer, schema: schema.listWebhooks }, h.listWebhooks);
    app.get("/api/v1/webhooks/:webhook_id", { config: bearer, schema: schema.getWebhook }, h.getWebhook);
    app.patch("/api/v1/webhooks/:webhook_id", { config: bearer, schema: schema.updateWebhook }, h.updateWebhook);
    app.delete("/api/v1/webhooks/:webhook_id", { config: bearer, schema: schema.deleteWebhook }, h.deleteWebhook);
    app.post("/api/v1/webhooks/:webhook_id/test", { config: bearer, schema: schema.testWebhook }, h.testWebhook);
    app.get("/api/v1/webhooks/:webhook_id/deliveries", { config: bearer, schema: schema.listDeliveries }, h.listDeliveries);
    app.post("/api/v1/webhooks/:webhook_id/deliveries/replay", { config: bearer, schema: schema.replayDeliveries }, h.replayDeliveries);
    app.post("/api/v1/webhooks/:webhook_id/deliveries/:delivery_id/retry", { config: bearer, schema: schema.retryDelivery }, h.retryDelivery);
  };
