import { Topics, type ServiceContext, type ServiceParts } from "@vulnscan/kit";
import { Counter, Gauge } from "prom-client";
import type { Config } from "./config.js";
import { buildPhaseHandlers } from "./engine/phases/index.js";
import type { Phase, PhaseHandler } from "./engine/types.js";
import { ComplianceMap } from "./intel/compliance.js";
import { enrichDetection } from "./intel/enrich.js";
import { IntelStore } from "./intel/store.js";
import { EgressGuard, type Lookup } from "./net/egress.js";
import { loadTemplates } from "./templates-engine/loader.js";
import { RetestWorker } from "./worker/retest-worker.js";
import { ScanWorker, type WorkerTopics } from "./worker/scan-worker.js";

/** Test seams: isolated topic names, replacement phase handlers, a name table instead of DNS. */
export interface ComposeOverrides {
  topics?: Partial<WorkerTopics>;
  retestTopics?: { jobs: string; results: string };
  handlers?: Partial<Record<Phase, PhaseHandler>>;
  lookup?: Lookup;
  stopGraceMs?: number;
  cancelWindowMs?: number;
}

/**
 * Stateless worker pool: consumes scan jobs, runs the engine, produces reports and detections.
 * The intelligence store, compliance map and templates load here, once, before the service
 * reports ready: a broken template or feed file stops the start with the file named.
 */
export async function compose(ctx: ServiceContext<Config>, overrides: ComposeOverrides = {}): Promise<ServiceParts> {
  const { config, logger } = ctx;
  const topics: WorkerTopics = {
    jobs: Topics.scanJobs,
    cancellations: Topics.scanCancellations,
    reports: Topics.scanReports,
    detections: Topics.findingsDetected,
    ...overrides.topics,
  };
  const [intel, compliance, templates] = await Promise.all([IntelStore.load(config.INTEL_DIR), ComplianceMap.load(), loadTemplates(config.TEMPLATES_DIR)]);
  logger.info({ intel_dir: config.INTEL_DIR, ...intel.size, templates: templates.length }, "scan engine loaded");

  const guard = new EgressGuard(config.SCAN_ALLOWED_NETWORKS || undefined, overrides.lookup ? { lookup: overrides.lookup } : {});
  const handlers = { ...buildPhaseHandlers({ templates, intel, compliance }), ...overrides.handlers };

  const registers = [ctx.metrics.registry];
  const jobs = new Counter({ name: "scanner_jobs_total", help: "Scan jobs finished, by outcome", labelNames: ["outcome"], registers });
  const detections = new Counter({ name: "scanner_detections_total", help: "Detections published, by severity", labelNames: ["severity"], registers });
  const running = new Gauge({ name: "scanner_jobs_running", help: "Scan jobs running on this worker", registers });

  const worker = new ScanWorker({
    bus: ctx.kafka,
    topics,
    groupId: config.SCANNER_CONSUMER_GROUP,
    workerId: config.WORKER_ID,
    concurrency: config.SCANNER_CONCURRENCY,
    handlers,
    guard,
    log: logger.child({ component: "worker" }),
    enrichFor: (job) => (d) => enrichDetection(d, { intel, compliance, frameworks: job.frameworks }),
    heartbeatMs: config.SCANNER_HEARTBEAT_MS,
    ...(overrides.stopGraceMs !== undefined ? { stopGraceMs: overrides.stopGraceMs } : {}),
    ...(overrides.cancelWindowMs !== undefined ? { cancelWindowMs: overrides.cancelWindowMs } : {}),
    metrics: {
      jobFinished: (outcome) => jobs.inc({ outcome: outcome.startsWith("failed:") ? outcome.slice(0, 60) : outcome }),
      detection: (severity) => detections.inc({ severity }),
      running: (n) => running.set(n),
    },
  });
  const retestFinished = new Counter({ name: "scanner_retests_total", help: "Retests finished, by verdict", labelNames: ["verdict"], registers });
  const retestTopics = overrides.retestTopics ?? { jobs: Topics.retestJobs, results: Topics.retestResults };
  // Retests share the pool (and its egress guard) but not the scan queue: one check is quick and
  // should not wait behind a full scan.
  const retests = new RetestWorker({
    bus: ctx.kafka,
    topics: retestTopics,
    groupId: `${config.SCANNER_CONSUMER_GROUP}-retest`,
    workerId: config.WORKER_ID,
    concurrency: 4,
    deps: { guard, log: logger, templates, intel },
    log: logger.child({ component: "retest" }),
    metrics: { retestFinished: (verdict) => retestFinished.inc({ verdict }) },
  });
  if (!guard.restricted) logger.warn("SCAN_ALLOWED_NETWORKS is empty: the scanner may connect to any address a job names");

  return {
    topics: [...Object.values(topics), retestTopics.jobs, retestTopics.results],
    start: async () => {
      await worker.start();
      await retests.start();
    },
    stop: async () => {
      await retests.stop();
      await worker.stop();
    },
  };
}
