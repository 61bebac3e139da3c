// Horizontal scaling of the scanner (issue 15, deploy/README.md "Scaling"): N replicas in one
// consumer group share the jobs of one topic. Each partition is read by exactly one replica, so
// every job runs once, and with as many partitions as replicas every replica gets work. This is
// what KEDA's ScaledObject relies on when it adds scanner pods on consumer lag (and why
// maxReplicas may not exceed kafka.partitions).
import net from "node:net";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createLogger, KafkaBus, loadConfig, type RunningService, runService } from "@vulnscan/kit";
import { ScanJobSchema, type ScanReport, ScanReportSchema } from "@vulnscan/proto/vulnscan/scans/v1/jobs_pb.js";
import { ScanType } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { Kafka, logLevel, Partitioners } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { compose } from "../../services/scanner/src/compose.js";
import { configSchema } from "../../services/scanner/src/config.js";
import { unique } from "../support/names.js";

const REPLICAS = 3;
const JOBS_PER_PARTITION = 2;

const tag = unique("replicas");
const topics = {
  jobs: `vulnscan.test.${tag}.jobs`,
  cancellations: `vulnscan.test.${tag}.cancellations`,
  reports: `vulnscan.test.${tag}.reports`,
  detections: `vulnscan.test.${tag}.detections`,
};
const replicas: RunningService[] = [];
let bus: KafkaBus;
let target: net.Server;
let port = 0;
const reports: ScanReport[] = [];

/** The partition the producer's partitioner (the one KafkaBus uses) sends a key to. */
const partitionOf = (() => {
  const partitioner = Partitioners.DefaultPartitioner();
  const partitionMetadata = Array.from({ length: REPLICAS }, (_, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));
  return (key: string) => partitioner({ topic: topics.jobs, partitionMetadata, message: { key, value: null } });
})();

beforeAll(async () => {
  // A TCP port that accepts, so the discovery phase finds something and the job completes.
  target = net.createServer((s) => {
    s.on("error", () => undefined); // probes reset their connections
    s.end();
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  port = (target.address() as net.AddressInfo).port;
  for (let i = 0; i < REPLICAS; i++) {
    const config = loadConfig(configSchema, {
      MONGO_URL: inject("mongoUrl"),
      MONGO_DB: `${tag}_scanner`,
      KAFKA_BROKERS: inject("kafkaBrokers"),
      KAFKA_PARTITIONS: String(REPLICAS),
      RPC_PORT: "0",
      ADMIN_PORT: "0",
      LOG_LEVEL: "silent",
      SCAN_ALLOWED_NETWORKS: "127.0.0.0/8",
      SCAN_ALLOW_PRIVATE_TARGETS: "true",
      // One group for every replica, as in a Deployment; each replica its own worker id (pod name).
      SCANNER_CONSUMER_GROUP: `${tag}-scanner`,
      WORKER_ID: `${tag}-replica-${i}`,
    });
    const running = await runService({ name: "scanner", config, compose: (ctx) => compose(ctx, { topics }) });
    await running.started;
    replicas.push(running);
  }
  bus = new KafkaBus({ clientId: `${tag}-test`, brokers: [inject("kafkaBrokers")], logger: createLogger("replicas-test", "silent") });
  await bus.subscribe({ groupId: `${tag}-reader`, topic: topics.reports, schema: ScanReportSchema, handle: async (r) => void reports.push(r) });
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(replicas.map((r) => r.stop()));
  await bus?.close();
  await new Promise((r) => target?.close(r));
});

describe(`${REPLICAS} scanner replicas in one consumer group`, () => {
  it("share one topic's jobs: every job runs exactly once, and every replica runs some", async () => {
    // Scan ids chosen so that each partition holds JOBS_PER_PARTITION jobs.
    const perPartition = new Map<number, string[]>();
    while ([...perPartition.values()].reduce((n, ids) => n + ids.length, 0) < REPLICAS * JOBS_PER_PARTITION) {
      const scanId = unique("scan");
      const p = partitionOf(scanId);
      const ids = perPartition.get(p) ?? [];
      if (ids.length < JOBS_PER_PARTITION) perPartition.set(p, [...ids, scanId]);
    }
    const scanIds = [...perPartition.values()].flat();
    // Publish once the group is stable with every replica a member: a job sent during the
    // rebalance would still run once, but maybe on fewer replicas.
    const admin = new Kafka({ clientId: `${tag}-admin`, brokers: [inject("kafkaBrokers")], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const until = Date.now() + 60_000;
      for (;;) {
        const [group] = (await admin.describeGroups([`${tag}-scanner`])).groups;
        if (group?.state === "Stable" && group.members.length === REPLICAS) break;
        if (Date.now() > until) throw new Error(`consumer group not stable with ${REPLICAS} members: ${group?.state}, ${group?.members.length}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      await admin.disconnect();
    }
    for (const scanId of scanIds) {
      const job = create(ScanJobSchema, {
        scanId,
        orgId: "org_replicas_test",
        target: "127.0.0.1",
        scanType: ScanType.FULL,
        ports: String(port),
        phases: ["discovery"],
        frameworks: [],
        attempt: 1,
        deadline: timestampFromDate(new Date(Date.now() + 5 * 60_000)),
        createdAt: timestampFromDate(new Date()),
      });
      await bus.publish(topics.jobs, ScanJobSchema, job, { key: scanId });
    }

    const finished = () => reports.filter((r) => r.report.case === "completed" || r.report.case === "failed");
    const deadline = Date.now() + 60_000;
    while (new Set(finished().map((r) => r.scanId)).size < scanIds.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));

    const ends = finished();
    expect(ends.map((r) => r.report.case).sort()).toEqual(scanIds.map(() => "completed"));
    expect(ends.map((r) => r.scanId).sort(), "each job finished exactly once").toEqual([...scanIds].sort());
    // Every report of one scan came from one replica: no job was run twice.
    for (const scanId of scanIds) expect(new Set(reports.filter((r) => r.scanId === scanId).map((r) => r.workerId)).size, scanId).toBe(1);
    const byWorker = new Map<string, number>();
    for (const r of ends) byWorker.set(r.workerId, (byWorker.get(r.workerId) ?? 0) + 1);
    console.log(`[k8s] ${scanIds.length} jobs over ${REPLICAS} partitions, finished per replica: ${JSON.stringify(Object.fromEntries(byWorker))}`);
    expect([...byWorker.keys()].sort(), "every replica ran jobs").toEqual(Array.from({ length: REPLICAS }, (_, i) => `${tag}-replica-${i}`));
  }, 120_000);
});
