import { Catalogue, ComplianceMap } from "@vulnscan/compliance-catalogue";
import { Outbox, type ServiceContext, type ServiceParts, type Subscription } from "@vulnscan/kit";
import { startPeriodic, type PeriodicJob } from "@vulnscan/kit/periodic";
import type { Config } from "./config.js";
import { createGrcDomain, type GrcDomain } from "./domain/index.js";
import type { MalwareScanner } from "./domain/ports.js";
import { subscribeGrcInputs } from "./events/consumers.js";
import { ClamdScanner } from "./malware/clamd.js";
import { GrcRpcService } from "./rpc/grc-service.js";
import { grcRoutes, grcServiceNames } from "./rpc/routes.js";
import { grcFields, grcIndexes, outboxCollections } from "./storage/collections.js";
import { periodLease } from "./storage/leases.js";
import { mongoStores } from "./storage/mongo.js";

export interface ComposeOverrides {
  malware?: MalwareScanner;
}

/** Wiring: mongo → stores (outbox for events) → use cases → rpc, consumers and the leased jobs. */
export async function compose(ctx: ServiceContext<Config>, overrides: ComposeOverrides = {}): Promise<ServiceParts & { domain: GrcDomain }> {
  const { config, db, kafka, logger } = ctx;
  const outbox = new Outbox(db, kafka, logger, outboxCollections, { intervalMs: config.RELAY_INTERVAL_MS });
  const stores = mongoStores(db, outbox, config.GRC_EVENTS_TOPIC);
  const malware = overrides.malware ?? ClamdScanner.fromAddress(config.CLAMD_ADDRESS, config.CLAMD_TIMEOUT_MS);
  const domain = createGrcDomain({
    ...stores,
    catalogue: Catalogue.load(),
    mapping: await ComplianceMap.load(),
    malware,
    now: () => new Date(),
    viewMaxAgeMs: config.VIEW_MAX_AGE_MS,
  });

  let subscriptions: Subscription[] = [];
  let jobs: PeriodicJob[] = [];
  return {
    domain,
    routes: grcRoutes(new GrcRpcService(domain)),
    serviceNames: grcServiceNames,
    indexes: grcIndexes,
    fields: grcFields,
    topics: [config.FINDING_EVENTS_TOPIC, config.SCAN_EVENTS_TOPIC, config.GRC_EVENTS_TOPIC],
    start: async () => {
      subscriptions = await subscribeGrcInputs(kafka, domain, {
        findingTopic: config.FINDING_EVENTS_TOPIC,
        scanTopic: config.SCAN_EVENTS_TOPIC,
        groupId: config.CONSUMER_GROUP,
        processed: ctx.processedEvents,
      });
      outbox.start();
      jobs = [
        startPeriodic({
          name: "evidence expiry pass",
          intervalMs: config.EVIDENCE_EXPIRY_INTERVAL_MS,
          immediate: true,
          lease: periodLease(db, "evidence-expiry", config.EVIDENCE_EXPIRY_INTERVAL_MS),
          run: async () => {
            const r = await domain.evidence.expiryPass();
            if (r.announced || r.expired) logger.info(r, "evidence expiry pass");
          },
          logger,
        }),
        startPeriodic({
          name: "pending evidence rescan",
          intervalMs: config.EVIDENCE_RESCAN_INTERVAL_MS,
          jitter: 0.1,
          lease: periodLease(db, "evidence-rescan", config.EVIDENCE_RESCAN_INTERVAL_MS),
          run: () => domain.evidence.rescanPending(),
          logger,
        }),
      ];
    },
    stop: async () => {
      await Promise.all(jobs.map((j) => j.stop()));
      await Promise.all(subscriptions.map((s) => s.stop()));
      await outbox.stop();
    },
  };
}
