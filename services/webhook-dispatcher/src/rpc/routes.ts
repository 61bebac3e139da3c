import type { ConnectRouter } from "@connectrpc/connect";
import { WebhookService } from "@vulnscan/proto/vulnscan/webhooks/v1/webhooks_service_pb.js";
import type { WebhookRpcService } from "./webhook-service.js";

export const webhookServiceNames = [WebhookService.typeName];

export const webhookRoutes = (impl: WebhookRpcService) => (router: ConnectRouter) => {
  router.service(WebhookService, impl);
};
