import { newId, notFound } from "@vulnscan/kit/core";
import { deliveryOf, type Dispatcher } from "./dispatch.js";
import type { Clock, DeliveryFilter, DeliveryStore } from "./ports.js";
import { TEST_EVENT, type Delivery } from "./types.js";
import type { WebhookRegistry } from "./webhooks.js";

export const REPLAY_MAX = 1000;

/** The API's use cases on deliveries: history, the test event, a manual retry, a window replay. */
export class DeliveryOperations {
  constructor(private readonly deps: { registry: WebhookRegistry; dispatcher: Dispatcher; deliveries: DeliveryStore; now: Clock }) {}

  async list(orgId: string, webhookId: string, filter: DeliveryFilter, page: number, perPage: number) {
    await this.deps.registry.get(orgId, webhookId);
    return this.deps.deliveries.list(orgId, webhookId, filter, (page - 1) * perPage, perPage);
  }

  /** The test operation: a webhook.test delivery sent now, once, recorded like any other. */
  async test(orgId: string, webhookId: string): Promise<Delivery> {
    const w = await this.deps.registry.get(orgId, webhookId);
    const now = this.deps.now();
    // The data of the contract's WebhookTest payload.
    const event = {
      id: newId("evt", now.getTime()),
      type: TEST_EVENT,
      orgId,
      occurredAt: now,
      data: { webhook_id: webhookId, message: "This is a test event from vulnscan" },
    };
    const d = deliveryOf(newId("delivery", now.getTime()), w, event, now);
    await this.deps.dispatcher.admit(d, true);
    return this.deps.dispatcher.attempt(d, true);
  }

  /** Makes one more attempt of a delivery now (beyond the spec); a failure schedules the next step if attempts remain. */
  async retry(orgId: string, webhookId: string, deliveryId: string): Promise<Delivery> {
    await this.deps.registry.get(orgId, webhookId);
    const d = await this.deps.deliveries.get(deliveryId);
    if (!d || d.orgId !== orgId || d.webhookId !== webhookId) throw notFound("Delivery");
    // Another replica holding an attempt of it: that attempt is the one made now.
    const taken = await this.deps.dispatcher.take(d.id, true);
    return taken ? this.deps.dispatcher.attempt(taken, true) : d;
  }

  /** Makes every final failed delivery created in [from, to) due for one more attempt now. */
  async replayFailed(orgId: string, webhookId: string, from: Date, to: Date): Promise<number> {
    await this.deps.registry.get(orgId, webhookId);
    return this.deps.deliveries.replayFailed(orgId, webhookId, from, to, this.deps.now(), REPLAY_MAX);
  }
}
