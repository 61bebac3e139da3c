import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { errorInfoOf, errorInterceptor } from "@vulnscan/kit/errors";
import { createLogger } from "@vulnscan/kit/logger";
import { DeliveryStatus, WebhookService } from "@vulnscan/proto/vulnscan/webhooks/v1/webhooks_service_pb.js";
import { describe, expect, it } from "vitest";
import { testDispatcher } from "../testing.js";
import { webhookRoutes } from "./routes.js";
import { WebhookRpcService } from "./webhook-service.js";

function rpcFor() {
  const t = testDispatcher();
  const logger = createLogger("webhooks-rpc-test", "silent");
  const transport = createRouterTransport(webhookRoutes(new WebhookRpcService(t.registry, t.operations)), {
    router: { interceptors: [errorInterceptor(logger)] },
  });
  return { t, rpc: createClient(WebhookService, transport) };
}

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    const ce = ConnectError.from(err);
    return { code: ce.code, ...errorInfoOf(ce) };
  }
  throw new Error("expected a failure");
}

describe("WebhookService mapping (in-memory transport)", () => {
  it("creates, lists, updates, tests and deletes, never answering the secret", async () => {
    const { rpc } = rpcFor();
    const { webhook } = await rpc.createWebhook({
      orgId: "org_a",
      name: "ci",
      url: "https://hooks.example.com/in",
      events: ["scan.completed"],
      secret: "s3cret-value",
    });
    expect(webhook).toMatchObject({ name: "ci", active: true, hasSecret: true, events: ["scan.completed"] });
    expect(Object.values(webhook!)).not.toContain("s3cret-value");
    const list = await rpc.listWebhooks({ orgId: "org_a" });
    expect(list.pageInfo).toMatchObject({ total: 1, page: 1, perPage: 20, pages: 1 });
    const updated = await rpc.updateWebhook({ orgId: "org_a", webhookId: webhook!.id, events: { events: ["scan.failed"] }, active: false });
    expect(updated.webhook).toMatchObject({ events: ["scan.failed"], active: false });
    const test = await rpc.testWebhook({ orgId: "org_a", webhookId: webhook!.id });
    expect(test).toMatchObject({ status: DeliveryStatus.SUCCESS, responseCode: 200 });
    const deliveries = await rpc.listDeliveries({ orgId: "org_a", webhookId: webhook!.id, status: DeliveryStatus.SUCCESS, event: "webhook.test" });
    expect(deliveries.deliveries.map((d) => d.id)).toEqual([test.deliveryId]);
    expect((await rpc.listDeliveries({ orgId: "org_a", webhookId: webhook!.id, status: DeliveryStatus.FAILED })).pageInfo?.total).toBe(0);
    await rpc.deleteWebhook({ orgId: "org_a", webhookId: webhook!.id });
    expect(await failure(rpc.getWebhook({ orgId: "org_a", webhookId: webhook!.id }))).toMatchObject({ code: Code.NotFound, errorCode: "NOT_FOUND" });
  });

  it("answers the spec's error codes with the field named", async () => {
    const { rpc } = rpcFor();
    expect(await failure(rpc.createWebhook({ orgId: "org_a", name: "x", url: "http://hooks.example.com", events: ["scan.completed"] }))).toMatchObject({
      code: Code.InvalidArgument,
      errorCode: "VALIDATION_ERROR",
      field: "url",
    });
    expect(await failure(rpc.listWebhooks({ orgId: "" }))).toMatchObject({ code: Code.InvalidArgument, field: "org_id" });
    const { webhook } = await rpc.createWebhook({ orgId: "org_a", name: "ci", url: "https://hooks.example.com/in", events: ["scan.completed"] });
    expect(await failure(rpc.testWebhook({ orgId: "org_b", webhookId: webhook!.id }))).toMatchObject({ code: Code.NotFound });
    expect(await failure(rpc.replayFailedDeliveries({ orgId: "org_a", webhookId: webhook!.id, from: { seconds: 10n }, to: { seconds: 5n } }))).toMatchObject({
      field: "from",
    });
  });
});
