import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createLogger, KafkaBus, loadConfig, runService, type RunningService } from "@vulnscan/kit";
import { DetectionSchema, type Detection } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import { ScanCancellationSchema, ScanJobSchema, ScanReportSchema, type ScanJob, type ScanReport } from "@vulnscan/proto/vulnscan/scans/v1/jobs_pb.js";
import { ScanType } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { inject } from "vitest";
import { unique } from "../../../../test/support/names.js";
import { compose, type ComposeOverrides } from "../../src/compose.js";
import { configSchema } from "../../src/config.js";
import type { WorkerTopics } from "../../src/worker/scan-worker.js";
import { setTimeout as sleep } from "node:timers/promises";

/*
 * The scanner service in-process on the real broker and database, with topics and consumer
 * groups of its own (so test files and other suites on the same broker never share jobs), and
 * a recorder that reads back every ScanReport and Detection it produces.
 */

export interface Scanner {
  running: RunningService;
  topics: WorkerTopics;
  bus: KafkaBus;
  recorder: Recorder;
  publishJob(job: Partial<ScanJob> & { scanId: string }): Promise<ScanJob>;
  cancel(scanId: string, orgId?: string): Promise<void>;
  stop(): Promise<void>;
}

export async function until<T>(fn: () => T | undefined | false, timeoutMs = 30_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await sleep(50);
  }
}

export class Recorder {
  readonly reports: { r: ScanReport; at: number }[] = [];
  readonly detections: Detection[] = [];
  /** Coverage records (detection.proto: `coverage` set), kept apart from the detections. */
  readonly coverage: Detection[] = [];

  reportsOf(scanId: string, attempt?: number): ScanReport[] {
    return this.reports.map((x) => x.r).filter((r) => r.scanId === scanId && (attempt === undefined || r.attempt === attempt));
  }

  detectionsOf(scanId: string): Detection[] {
    return this.detections.filter((d) => d.scanId === scanId);
  }

  coverageOf(scanId: string): Detection[] {
    return this.coverage.filter((d) => d.scanId === scanId);
  }

  /** The report kinds of a scan in order, heartbeats left out ("phaseStarted:discovery", ..., "completed"). */
  timeline(scanId: string, attempt?: number): string[] {
    return this.reportsOf(scanId, attempt)
      .filter((r) => r.report.case !== "heartbeat")
      .map((r) => (r.report.case === "phaseStarted" || r.report.case === "phaseCompleted" ? `${r.report.case}:${r.report.value.phase}` : `${r.report.case}`));
  }

  finished(scanId: string): ScanReport | undefined {
    return this.reportsOf(scanId).find((r) => r.report.case === "completed" || r.report.case === "failed");
  }
}

export function scanJob(x: Partial<ScanJob> & { scanId: string }): ScanJob {
  return create(ScanJobSchema, {
    orgId: "org_scanner_test",
    target: "127.0.0.1",
    scanType: ScanType.FULL,
    ports: "",
    frameworks: [],
    phases: [],
    attempt: 1,
    deadline: timestampFromDate(new Date(Date.now() + 5 * 60_000)),
    createdAt: timestampFromDate(new Date()),
    ...x,
  });
}

export async function startScanner(opts: { overrides?: ComposeOverrides; env?: Record<string, string> } = {}): Promise<Scanner> {
  const tag = unique("scanner");
  const topics: WorkerTopics = {
    jobs: `vulnscan.test.${tag}.jobs`,
    cancellations: `vulnscan.test.${tag}.cancellations`,
    reports: `vulnscan.test.${tag}.reports`,
    detections: `vulnscan.test.${tag}.detections`,
  };
  const config = loadConfig(configSchema, {
    MONGO_URL: inject("mongoUrl"),
    MONGO_DB: tag,
    KAFKA_BROKERS: inject("kafkaBrokers"),
    KAFKA_PARTITIONS: "2",
    RPC_PORT: "0",
    ADMIN_PORT: "0",
    LOG_LEVEL: process.env.SCANNER_TEST_LOG_LEVEL ?? "silent",
    SCAN_ALLOWED_NETWORKS: "127.0.0.0/8",
    SCANNER_CONSUMER_GROUP: `${tag}-jobs`,
    WORKER_ID: tag,
    SCANNER_HEARTBEAT_MS: "500",
    ...opts.env,
  });
  const running = await runService({ name: "scanner", config, compose: (ctx) => compose(ctx, { ...opts.overrides, topics }) });
  await running.started;

  const bus = new KafkaBus({ clientId: `${tag}-test`, brokers: [inject("kafkaBrokers")], logger: createLogger("scanner-test", "silent") });
  const recorder = new Recorder();
  const group = `${tag}-reader`;
  const subs = [
    await bus.subscribe({
      groupId: `${group}-r`,
      topic: topics.reports,
      schema: ScanReportSchema,
      handle: async (r) => void recorder.reports.push({ r, at: Date.now() }),
    }),
    await bus.subscribe({
      groupId: `${group}-d`,
      topic: topics.detections,
      schema: DetectionSchema,
      handle: async (d) => void (d.coverage ? recorder.coverage : recorder.detections).push(d),
    }),
  ];
  return {
    running,
    topics,
    bus,
    recorder,
    publishJob: async (x) => {
      const job = scanJob(x);
      await bus.publish(topics.jobs, ScanJobSchema, job, { key: job.scanId });
      return job;
    },
    cancel: async (scanId, orgId = "org_scanner_test") => {
      const c = create(ScanCancellationSchema, { scanId, orgId, requestedAt: timestampFromDate(new Date()) });
      await bus.publish(topics.cancellations, ScanCancellationSchema, c, { key: scanId });
    },
    stop: async () => {
      await Promise.allSettled(subs.map((s) => s.stop()));
      await running.stop();
      await bus.close();
    },
  };
}
