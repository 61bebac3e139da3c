import { createRpcClient, newId, Outbox, Topics, type ServiceContext, type ServiceParts, type Subscription } from "@vulnscan/kit";
import { AuthService } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { ScanDiffService } from "@vulnscan/proto/vulnscan/findings/v1/scan_diff_service_pb.js";
import type { Config } from "./config.js";
import { createScanDomain } from "./domain/index.js";
import { parseNetworkList } from "@vulnscan/kit/networks";
import { followPlanChanges } from "@vulnscan/kit/plan-events";
import { startPeriodic, type PeriodicJob } from "@vulnscan/kit/periodic";
import { TargetPolicy } from "./domain/target.js";
import { TargetUseCases } from "./domain/targets.js";
import { dnsClient } from "./net/dns.js";
import { HttpProofReader } from "./net/http-proof.js";
import { targetRoutes, targetServiceImpl, targetServiceNames } from "./rpc/target-service.js";
import { MongoTargetStore, TargetCollections } from "./storage/targets.js";
import { TargetInventory } from "./domain/inventory.js";
import { consumeInventoryEvents } from "./events/inventory-consumer.js";
import { MongoInventoryStore } from "./storage/inventory.js";
import { consumeReports } from "./events/reports-consumer.js";
import { findingsComparisons } from "./findings/comparisons.js";
import { scanObserver } from "./metrics.js";
import { authPlanProvider } from "./plans/auth-plans.js";
import { scanRoutes, scanServiceImpl, scanServiceNames } from "./rpc/scan-service.js";
import { CachedMonthCounts } from "./storage/cached-month-counts.js";
import { MongoScanDurations } from "./storage/durations.js";
import { MongoScanLimits } from "./storage/limits.js";
import { COMMANDS_FIELD } from "./events/messages.js";
import { Collections, MongoScanStore, MongoScheduleStore, outboxCollections, scanFields, scanIndexes } from "./storage/mongo-store.js";

/** The repair of places left held runs every this many watchdog passes. */
const REPAIR_EVERY = 12;

/** Wiring: mongo → repositories → outboxes → auth plans → domain → rpc, consumer, loops. */
export function compose(ctx: ServiceContext<Config>): ServiceParts {
  const { config, logger, db } = ctx;
  const plans = authPlanProvider(createRpcClient(AuthService, config.AUTH_URL, { timeoutMs: 5000 }), config.PLAN_CACHE_TTL_MS);
  const outbox = new Outbox(db, ctx.kafka, logger, outboxCollections, { intervalMs: config.OUTBOX_RELAY_INTERVAL_MS });
  const commands = new Outbox(db, ctx.kafka, logger, outboxCollections, { intervalMs: config.OUTBOX_RELAY_INTERVAL_MS, field: COMMANDS_FIELD });
  const dns = dnsClient(config.DNS_SERVERS);
  const policy = new TargetPolicy({
    allowPrivate: config.SCAN_ALLOW_PRIVATE_TARGETS,
    allowedNetworks: parseNetworkList(config.SCAN_ALLOWED_NETWORKS),
    resolver: dns,
  });
  const targetOutbox = new Outbox(db, ctx.kafka, logger, [TargetCollections.targets], { intervalMs: config.OUTBOX_RELAY_INTERVAL_MS });
  const http = new HttpProofReader({
    rules: {
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS,
      allowed: parseNetworkList(config.WEBHOOK_ALLOWED_NETWORKS),
      allowlistName: "WEBHOOK_ALLOWED_NETWORKS",
    },
    dns,
    httpsPort: config.VERIFICATION_HTTPS_PORT,
    httpPort: config.VERIFICATION_HTTP_PORT,
  });
  const targets = new TargetUseCases({
    store: new MongoTargetStore(db, targetOutbox),
    policy,
    proofs: { txt: dns.txt, reverse: dns.reverse, httpFile: (host) => http.httpFile(host) },
    resolver: dns,
    settings: {
      recheckAfterMs: config.TARGET_RECHECK_DAYS * 86_400_000,
      exemptNetworks: parseNetworkList(config.SCAN_VERIFIED_NETWORKS),
      maxRechecksPerRun: 20,
    },
    now: () => new Date(),
    newTargetId: () => newId("target"),
    newAttemptId: () => newId("attempt"),
  });
  const inventory = new TargetInventory(new MongoInventoryStore(db));
  const domain = createScanDomain({
    scanStore: new MongoScanStore(db, outbox, commands, config.LIST_CACHE_MS),
    scheduleStore: new MongoScheduleStore(db),
    plans,
    policy,
    targets,
    limits: new CachedMonthCounts(new MongoScanLimits(db, Collections)),
    durations: new MongoScanDurations(db.collection(Collections.durations)),
    observer: scanObserver(ctx.metrics.registry),
    comparisons: findingsComparisons(
      createRpcClient(ScanDiffService, config.FINDINGS_URL, { timeoutMs: 5000 }),
      { waitMs: config.SCAN_COMPARISON_WAIT_MS },
      logger,
    ),
    settings: {
      maxDurationSeconds: config.SCAN_MAX_DURATION_SECONDS,
      redispatchAfterMs: config.SCAN_REDISPATCH_AFTER_SECONDS * 1000,
      maxAttempts: config.SCAN_MAX_ATTEMPTS,
    },
    now: () => new Date(),
    newId: (prefix) => newId(prefix),
  });

  const loops: PeriodicJob[] = [];
  const every = (intervalMs: number, name: string, run: () => Promise<unknown>) => loops.push(startPeriodic({ name, intervalMs, run, logger }));

  let subscription: Subscription | undefined;
  let inventorySubscriptions: Subscription[] = [];
  let planEvents: { stop(): Promise<void> } | undefined;
  let passes = 0;
  return {
    routes: (router) => {
      scanRoutes(scanServiceImpl(domain.scans, domain.schedules))(router);
      targetRoutes(targetServiceImpl(targets, inventory))(router);
    },
    serviceNames: [...scanServiceNames, ...targetServiceNames],
    indexes: scanIndexes,
    fields: scanFields,
    topics: [Topics.scanEvents, Topics.scanJobs, Topics.scanCancellations, Topics.scanReports, Topics.findingsDetected],
    start: async () => {
      outbox.start();
      commands.start();
      targetOutbox.start();
      planEvents = followPlanChanges({ kafka: ctx.kafka, plans: plans.cache, logger, groupPrefix: "scan-orchestrator" });
      subscription = await consumeReports({
        kafka: ctx.kafka,
        groupId: config.REPORTS_CONSUMER_GROUP,
        fromBeginning: !config.REPORTS_SKIP_BACKLOG,
        reports: domain.reports,
        logger,
      });
      inventorySubscriptions = await consumeInventoryEvents({
        kafka: ctx.kafka,
        inventory,
        logger,
        groupBase: config.REPORTS_CONSUMER_GROUP,
        fromBeginning: !config.REPORTS_SKIP_BACKLOG,
      });
      every(config.SCAN_WATCHDOG_INTERVAL_MS, "watchdog", async () => {
        await domain.watchdog.pass();
        if (passes++ % REPAIR_EVERY === 0) await domain.watchdog.repairPlaces();
      });
      every(config.SCHEDULER_INTERVAL_MS, "scheduler", () => domain.schedules.runDue());
      every(config.TARGET_RECHECK_INTERVAL_MS, "target-recheck", () => targets.recheckDue());
      logger.info(
        {
          allow_private_targets: config.SCAN_ALLOW_PRIVATE_TARGETS,
          allowed_networks: config.SCAN_ALLOWED_NETWORKS || "(any)",
          verified_networks: config.SCAN_VERIFIED_NETWORKS || "(none: every target needs verification)",
          redispatch_after_s: config.SCAN_REDISPATCH_AFTER_SECONDS,
        },
        "scan orchestration running",
      );
    },
    stop: async () => {
      await Promise.all(loops.map((l) => l.stop()));
      await subscription?.stop();
      await Promise.all(inventorySubscriptions.map((s) => s.stop()));
      await planEvents?.stop();
      await outbox.stop();
      await commands.stop();
      await targetOutbox.stop();
    },
  };
}
