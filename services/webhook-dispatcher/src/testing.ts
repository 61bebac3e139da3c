// Unit-test wiring: the domain on in-memory adapters, a clock the test moves, a scripted sender.
import { WEBHOOK_EVENT_KINDS } from "@vulnscan/kit/event-kinds";
import { UrlPolicy } from "./delivery/url-policy.js";
import { DeliveryOperations } from "./domain/delivery-operations.js";
import { Dispatcher } from "./domain/dispatch.js";
import type { OutgoingRequest, WebhookPlan } from "./domain/ports.js";
import type { AttemptResult } from "./domain/types.js";
import { WebhookRegistry } from "./domain/webhooks.js";
import { MemoryBudget, MemoryDeliveries, MemoryWebhookCount, MemoryWebhooks } from "./testing/memory.js";

export const PLANS: Record<string, WebhookPlan> = {
  startup: { enabled: false, maxWebhooks: 0, eventsPerHour: 0 },
  professional: { enabled: true, maxWebhooks: 5, eventsPerHour: 1000 },
  enterprise: { enabled: true, eventsPerHour: 10_000 },
};

export function testDispatcher(opts: { start?: Date; plan?: (orgId: string) => WebhookPlan; hosts?: Record<string, string> } = {}) {
  let now = opts.start ?? new Date("2026-03-01T12:00:00.000Z");
  const clock = () => new Date(now);
  const sent: OutgoingRequest[] = [];
  /** The answers the receiver gives, in order; when empty, 200. */
  const answers: AttemptResult[] = [];
  /** While set, the receiver answers nothing (a slow receiver) until it resolves. */
  let held: Promise<void> | undefined;
  const webhooks = new MemoryWebhooks();
  const deliveries = new MemoryDeliveries();
  const plans = { webhookPlan: async (orgId: string) => opts.plan?.(orgId) ?? PLANS.professional! };
  const hosts = opts.hosts ?? { "hooks.example.com": "93.184.216.34" };
  const urls = new UrlPolicy({
    allowPrivate: false,
    allowed: undefined,
    resolve: async (h) => (hosts[h] ? [{ address: hosts[h]!, family: hosts[h]!.includes(":") ? 6 : 4 }] : []),
  });
  const registry = new WebhookRegistry({ webhooks, count: new MemoryWebhookCount(), plans, urls, now: clock, eventKinds: WEBHOOK_EVENT_KINDS });
  const dispatcher = new Dispatcher({
    webhooks,
    deliveries,
    plans,
    budget: new MemoryBudget(),
    now: clock,
    random: () => 0,
    sender: {
      send: async (req) => {
        sent.push(req);
        await held;
        return answers.shift() ?? { responseCode: 200, responseTimeMs: 5 };
      },
    },
  });
  const operations = new DeliveryOperations({ registry, dispatcher, deliveries, now: clock });
  return {
    registry,
    dispatcher,
    operations,
    webhooks,
    deliveries,
    sent,
    answers,
    now: clock,
    /** Holds the receiver's answers until the function returned is called. */
    holdAnswers(): () => void {
      let answer!: () => void;
      held = new Promise<void>((r) => (answer = r));
      return () => {
        held = undefined;
        answer();
      };
    },
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
  };
}
