import type { Client } from "@connectrpc/connect";
import type { WebhookService } from "@vulnscan/proto/vulnscan/webhooks/v1/webhooks_service_pb.js";
import type { FastifyPluginAsync, HTTPMethods, RouteHandlerMethod } from "fastify";
import { webhookHandlers } from "./handlers.js";
import { routeSchemas } from "./schemas.js";

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
    const h = webhookHandlers(hooks);
    const base = "/api/v1/webhooks";
    const table: [HTTPMethods, string, keyof typeof h][] = [
      ["POST", base, "createWebhook"],
      ["GET", base, "listWebhooks"],
      ["GET", `${base}/:webhook_id`, "getWebhook"],
      ["PATCH", `${base}/:webhook_id`, "updateWebhook"],
      ["DELETE", `${base}/:webhook_id`, "deleteWebhook"],
      ["POST", `${base}/:webhook_id/test`, "testWebhook"],
      ["GET", `${base}/:webhook_id/deliveries`, "listDeliveries"],
      ["POST", `${base}/:webhook_id/deliveries/replay`, "replayDeliveries"],
      ["POST", `${base}/:webhook_id/deliveries/:delivery_id/retry`, "retryDelivery"],
    ];
    // Each handler is typed by its own schema (handlers.ts); the table pairs them by name.
    for (const [method, url, name] of table) {
      fastify.route({ method, url, config: bearer, schema: routeSchemas[name], handler: h[name] as RouteHandlerMethod });
    }
  };
