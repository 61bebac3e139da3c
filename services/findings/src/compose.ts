import { createRpcClient, Outbox, type ServiceContext, type ServiceParts, type Subscription } from "@vulnscan/kit";
import { startPeriodic, type PeriodicJob } from "@vulnscan/kit/periodic";
import { followPlanChanges, type PlanSink } from "@vulnscan/kit/plan-events";
import { PlanClient } from "@vulnscan/kit/plans";
import { AuthService, type Plan } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { BuiltinAnalyst } from "./ai/analyst.js";
import { OpenAiCompatibleProvider } from "./ai/openai.js";
import type { AiProvider } from "./ai/provider.js";
import { serviceClock } from "./clock.js";
import type { Config } from "./config.js";
import { createFindingsDomain, type FindingsDomain } from "./domain/index.js";
import type { PlanPort } from "./domain/ports.js";
import { subscribeDetections } from "./events/detections-consumer.js";
import { subscribeRetestResults } from "./events/retest-results-consumer.js";
import { exportWriters } from "./export/index.js";
import { FindingRpcService } from "./rpc/finding-service.js";
import { RetestRpcService } from "./rpc/retest-service.js";
import { findingRoutes, findingServiceNames } from "./rpc/routes.js";
import type { FindingStore } from "./storage/finding-store.js";
import { FINDINGS, findingFields, findingIndexes, mongoRepositories } from "./storage/index.js";
import { MongoRetestBudget, MongoRetestStore, retestFields, retestIndexes } from "./storage/retests.js";
import { mergeFieldTypes, Topics } from "@vulnscan/kit";
import type { RetestPlans } from "./domain/retest.js";
import { RETESTS_PER_SCAN } from "./domain/retest.js";
import { ScanDiffs } from "./domain/coverage.js";
import { slaRepository } from "./domain/sla-upkeep.js";
import { ScanDiffRpcService } from "./rpc/scan-diff-service.js";
import { coverageFields, coverageIndexes, MongoCoverageStore } from "./storage/coverage.js";

export interface ComposeOverrides {
  /** Plan facts (tests); default: auth's GetPlan at AUTH_URL. */
  plans?: PlanPort;
  /** Monthly retests (tests); default: RETESTS_PER_SCAN × the plan's monthly scans, from auth. */
  retestPlans?: RetestPlans;
  /** Retest topics (tests isolate them). */
  retestTopics?: { jobs: string; results: string };
  ai?: AiProvider;
}

/** The AI credit limit of an organization's plan; an unset limit fails closed (0). */
const aiCreditsOf = (plan: Plan | undefined) => {
  const limit = plan?.limits?.aiCreditsPerMonth;
  return { unlimited: limit?.unlimited ?? false, max: Math.max(0, limit?.max ?? 0) };
};

/** Retests are a budget of their own: RETESTS_PER_SCAN per monthly scan of the plan (unlimited scans: unlimited retests). */
const retestsOf = (plan: Plan | undefined) => {
  const limit = plan?.limits?.scansPerMonth;
  return { unlimited: limit?.unlimited ?? false, max: Math.max(0, (limit?.max ?? 0) * RETESTS_PER_SCAN) };
};

/** Plan facts from auth's GetPlan, cached at most `ttlMs` (≤ 30 s); `cache` takes auth.plan_changed so a change reaches the AI quota at once. */
function authPlans(auth: ConstructorParameters<typeof PlanClient>[0], ttlMs: number): { port: PlanPort; retests: RetestPlans; cache: PlanSink } {
  const client = new PlanClient(auth, { project: (p) => ({ ai: aiCreditsOf(p), retests: retestsOf(p) }), ttlMs });
  return {
    port: { aiCredits: async (orgId) => (await client.get(orgId)).ai },
    retests: { retestsPerMonth: async (orgId) => (await client.get(orgId)).retests },
    cache: client,
  };
}

/** Wiring: mongo → repositories (the store with its event publisher) → use cases → rpc, the detections consumer, the outbox relay and housekeeping. */
export function compose(ctx: ServiceContext<Config>, overrides: ComposeOverrides = {}): ServiceParts & { app: FindingsDomain; store: FindingStore } {
  const { config, db, kafka, logger } = ctx;
  const now = serviceClock(config.CLOCK_OFFSET_FILE);
  const repos = mongoRepositories(db, kafka, logger, config.FINDING_EVENTS_TOPIC, now, config.LIST_CACHE_MS);
  const { store, credits } = repos;
  const { rollups } = store; // its housekeeping (repos.counts may be the kept totals over it)
  const ai =
    overrides.ai ??
    (config.AI_PROVIDER_URL && config.AI_API_KEY
      ? new OpenAiCompatibleProvider({ url: config.AI_PROVIDER_URL, apiKey: config.AI_API_KEY, model: config.AI_MODEL, timeoutMs: config.AI_TIMEOUT_MS })
      : new BuiltinAnalyst());
  const fromAuth = overrides.plans ? undefined : authPlans(createRpcClient(AuthService, config.AUTH_URL), config.PLAN_CACHE_MS);
  const plans = overrides.plans ?? fromAuth!.port;
  const planCache = fromAuth?.cache;
  const retestPlans: RetestPlans = overrides.retestPlans ?? fromAuth?.retests ?? { retestsPerMonth: async () => ({ unlimited: true, max: 0 }) };
  const retestTopics = overrides.retestTopics ?? { jobs: Topics.retestJobs, results: Topics.retestResults };
  const retests = new MongoRetestStore(db, kafka, logger, { events: config.FINDING_EVENTS_TOPIC, jobs: retestTopics.jobs }, config.RELAY_INTERVAL_MS);
  const retestBudget = new MongoRetestBudget(db);
  const app = createFindingsDomain({ ...repos, retests, retestBudget, retestPlans, ai, plans, writers: exportWriters, logger, now });
  // Scan comparison and auto-resolution (issue 28): writes go through the SLA-keeping repository like every use case's.
  const diffs = new ScanDiffs({
    coverage: new MongoCoverageStore(db),
    findings: slaRepository(repos.findings, repos.policies),
    policy: { autoResolve: async (orgId) => (await repos.policies.get(orgId))?.auto_resolve === true },
    now,
  });
  // Events the writers could not publish (a crash, the broker away): the kit's relay publishes them.
  const outbox = new Outbox(db, kafka, logger, [FINDINGS], { intervalMs: config.RELAY_INTERVAL_MS });

  let subscription: Subscription | undefined;
  let retestResults: Subscription | undefined;
  let planEvents: { stop(): Promise<void> } | undefined;
  let housekeeping: PeriodicJob | undefined;
  let lastPrune = 0;
  const housekeep = async () => {
    await rollups.recover();
    await rollups.dropReleased();
    // SLA breaches to announce and acceptances that ran out (domain/sla-upkeep.ts).
    await app.upkeep.run();
    // Policy refreshes of open findings' due dates a saving request left running (domain/sla-upkeep.ts).
    await app.policies.continueRefreshes();
    // Retests whose scanner worker was lost end as inconclusive (timeout).
    await app.retests.timeOutOverdue();
    if (Date.now() - lastPrune > 10 * 60_000) {
      lastPrune = Date.now();
      await credits.prune();
      await retestBudget.prune();
    }
  };
  return {
    app,
    store,
    routes: findingRoutes(new FindingRpcService(app, logger, now), new RetestRpcService(app.retests), new ScanDiffRpcService(diffs)),
    serviceNames: findingServiceNames,
    indexes: [...findingIndexes, ...retestIndexes, ...coverageIndexes],
    fields: mergeFieldTypes(findingFields, retestFields, coverageFields),
    topics: [config.DETECTIONS_TOPIC, config.FINDING_EVENTS_TOPIC, retestTopics.jobs, retestTopics.results],
    start: async () => {
      subscription = await subscribeDetections(kafka, app.ingestion, {
        topic: config.DETECTIONS_TOPIC,
        groupId: config.CONSUMER_GROUP,
        batchSize: config.INGEST_BATCH_SIZE,
        coverage: diffs,
        now,
      });
      retestResults = await subscribeRetestResults(kafka, app.retests, { topic: retestTopics.results, groupId: `${config.CONSUMER_GROUP}-retest` });
      outbox.start();
      retests.start();
      if (planCache) planEvents = followPlanChanges({ kafka, plans: planCache, logger, groupPrefix: "findings" });
      housekeeping = startPeriodic({ name: "findings housekeeping (rollup intents, credits)", intervalMs: config.RELAY_INTERVAL_MS, run: housekeep, logger });
    },
    stop: async () => {
      await housekeeping?.stop();
      await subscription?.stop();
      await store.settle();
      await retestResults?.stop();
      await planEvents?.stop();
      await outbox.stop();
      await retests.stop();
    },
  };
}
