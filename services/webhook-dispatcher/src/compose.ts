import dns from "node:dns/promises";
import { createRpcClient, Topics, type ServiceContext, type ServiceParts, type Subscription } from "@vulnscan/kit";
import { WEBHOOK_EVENT_KINDS } from "@vulnscan/kit/event-kinds";
import { parseNetworkList } from "@vulnscan/kit/networks";
import { startPeriodic, type PeriodicJob } from "@vulnscan/kit/periodic";
import { followPlanChanges, type PlanSink } from "@vulnscan/kit/plan-events";
import { PlanClient, type PlanSource } from "@vulnscan/kit/plans";
import { AuthService, type Plan } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { Config } from "./config.js";
import { HttpSender } from "./delivery/http-sender.js";
import { UrlPolicy } from "./delivery/url-policy.js";
import { DeliveryOperations } from "./domain/delivery-operations.js";
import { Dispatcher } from "./domain/dispatch.js";
import type { PlanPort, WebhookPlan } from "./domain/ports.js";
import { WebhookRegistry } from "./domain/webhooks.js";
import { AttemptGate, EVENT_TOPICS, subscribeEvents } from "./events/event-consumer.js";
import { dispatchMetrics } from "./metrics.js";
import { webhookRoutes, webhookServiceNames } from "./rpc/routes.js";
import { WebhookRpcService } from "./rpc/webhook-service.js";
import { MongoHourlyBudget } from "./storage/budget.js";
import { CachedWebhooks } from "./storage/cached-webhooks.js";
import { webhookFields, webhookIndexes } from "./storage/collections.js";
import { MongoDeliveries } from "./storage/deliveries.js";
import { MongoWebhookCount } from "./storage/webhook-count.js";
import { MongoWebhooks } from "./storage/webhooks.js";

/** What the dispatcher keeps of a plan; a tier without webhooks has a limit of 0 (auth's rule). */
function webhookPlanOf(plan: Plan | undefined): WebhookPlan {
  const l = plan?.limits;
  const cap = (limit: { unlimited: boolean; max: number } | undefined) => (limit?.unlimited ? undefined : Math.max(0, limit?.max ?? 0));
  return { enabled: plan?.webhooksEnabled ?? false, maxWebhooks: cap(l?.webhooks), eventsPerHour: cap(l?.webhookEventsPerHour) };
}

/** Cached at most `ttlMs`; `cache` takes auth.plan_changed so a change reaches the limits at once. */
function authPlans(auth: PlanSource, ttlMs: number): { port: PlanPort; cache: PlanSink } {
  const client = new PlanClient(auth, { project: webhookPlanOf, ttlMs });
  return { port: { webhookPlan: (orgId) => client.get(orgId) }, cache: client };
}

export interface ComposeOverrides {
  plans?: PlanPort;
}

/** Wiring: mongo → repositories → url policy and sender → registry, dispatcher and delivery operations → rpc, consumers, retry pass. */
export function compose(ctx: ServiceContext<Config>, overrides: ComposeOverrides = {}): ServiceParts {
  const { config, db, kafka, logger, metrics } = ctx;
  const webhooks = new MongoWebhooks(db);
  const deliveries = new MongoDeliveries(db);
  const budget = new MongoHourlyBudget(db);
  const { port: plans, cache: planCache } = overrides.plans
    ? { port: overrides.plans, cache: undefined }
    : authPlans(createRpcClient(AuthService, config.AUTH_URL), config.PLAN_CACHE_MS);
  const urls = new UrlPolicy({
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS,
    allowed: parseNetworkList(config.WEBHOOK_ALLOWED_NETWORKS),
    resolve: (host) => dns.lookup(host, { all: true, verbatim: true }),
  });
  const sender = new HttpSender(urls, { timeoutMs: config.DELIVERY_TIMEOUT_MS });
  const now = () => new Date();
  const registry = new WebhookRegistry({ webhooks, count: new MongoWebhookCount(db), plans, urls, now, eventKinds: WEBHOOK_EVENT_KINDS });
  const observer = dispatchMetrics(metrics, deliveries, (msg, fields) => logger.warn(fields, msg));
  const dispatcher = new Dispatcher({
    webhooks: new CachedWebhooks(webhooks, config.WEBHOOK_CACHE_MS),
    deliveries,
    plans,
    budget,
    sender,
    now,
    observer,
    ...(config.WEBHOOK_RETRY_DELAYS_MS ? { delays: config.WEBHOOK_RETRY_DELAYS_MS } : {}),
  });
  const operations = new DeliveryOperations({ registry, dispatcher, deliveries, now });
  const gate = new AttemptGate(config.DELIVERY_CONCURRENCY);
  // Its lease expires into the retry pass, which makes the attempt again.
  const onError = (err: unknown) => logger.warn({ err: (err as Error).message }, "delivery attempt failed to run; the retry pass takes it after its lease");

  let subscriptions: Subscription[] = [];
  let planEvents: { stop(): Promise<void> } | undefined;
  let poll: PeriodicJob | undefined;
  let lastPrune = 0;
  const pass = async () => {
    await dispatcher.runDue(200, config.DELIVERY_CONCURRENCY);
    if (Date.now() - lastPrune > 10 * 60_000) {
      lastPrune = Date.now();
      await budget.prune(new Date());
    }
  };
  return {
    routes: webhookRoutes(new WebhookRpcService(registry, operations)),
    serviceNames: webhookServiceNames,
    indexes: webhookIndexes,
    fields: webhookFields,
    topics: [...EVENT_TOPICS, Topics.webhookEvents],
    start: async () => {
      // Retries first: they need only the database, and joining the consumer groups can wait out
      // a crashed replica's session (30 s) before it returns.
      if (planCache) planEvents = followPlanChanges({ kafka, plans: planCache, logger, groupPrefix: "webhook-dispatcher" });
      poll = startPeriodic({ name: "webhook retry pass", intervalMs: config.RETRY_POLL_MS, jitter: 0.1, immediate: true, run: pass, logger });
      subscriptions = await subscribeEvents(kafka, dispatcher, gate, {
        groupPrefix: config.CONSUMER_GROUP,
        partitions: config.KAFKA_PARTITIONS,
        slotWaitMs: config.ATTEMPT_HANDOVER_MS,
        answerWaitMs: config.FIRST_ANSWER_WAIT_MS,
        onError,
      });
    },
    stop: async () => {
      await poll?.stop();
      await Promise.all(subscriptions.map((s) => s.stop()));
      await planEvents?.stop();
      await gate.drained();
      await sender.close();
    },
  };
}
