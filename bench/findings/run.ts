// Findings benchmark: for each size N (default 10,000 and 100,000; add 1,000,000 on MongoDB),
// one organization seeded with N ready findings (bulk inserts, rollups rebuilt from them), then
// through the real findings service: ingestion of new detections from Kafka beside plain bulk
// inserts of the same documents, stats, point lookups and list pages (p50/p99).
//
// Usage: npx tsx bench/findings/run.ts [--findings 10000,100000] [--ingest 3000] [--runs 40]
// Uses KAFKA_BROKERS / MONGO_URL when set, else starts the local stack (FerretDB where no
// MongoDB is available; on FerretDB, PostgreSQL with the indexes and field declarations the
// services declare).
// Not part of CI; it drops its databases at the end.

import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createLogger, createRpcClient, ensureIndexes, KafkaBus, loadConfig, newId, runService, startRpcServer } from "@vulnscan/kit";
import { AuthService } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { DetectionSchema } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import { FindingService, FindingSortField, FindingStatus, Severity, SlaState, SortOrder } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { MongoClient, type Db } from "mongodb";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { startStack } from "../../scripts/stack/index.js";
import { cpuDelta, readCpu, type Measured } from "../capacity/procs.js";
import { databasePorts, processFinder } from "../capacity/system.js";
import { compose } from "../../services/findings/src/compose.js";
import { configSchema } from "../../services/findings/src/config.js";
import { newFinding } from "../../services/findings/src/domain/changes.js";
import { fingerprint } from "../../services/findings/src/domain/fingerprint.js";
import { announceBreach, DEFAULT_POLICY, slaDiff, slaFields } from "../../services/findings/src/domain/sla.js";
import { SEVERITIES, STATUSES, type DetectionFacts, type FindingDoc } from "../../services/findings/src/domain/types.js";
import { findingFields, findingIndexes } from "../../services/findings/src/storage/indexes.js";
import { countSla } from "../../services/findings/src/storage/list-query.js";
import { rebuildRollups } from "../../services/findings/src/storage/rollups.js";

const { values: args } = parseArgs({
  options: {
    findings: { type: "string", default: "10000,100000" },
    ingest: { type: "string", default: "3000" },
    runs: { type: "string", default: "40" },
  },
});
const SIZES = args.findings.split(",").map(Number);
const INGEST = Number(args.ingest);
const RUNS = Number(args.runs);
const BATCH = 500;
/** Runs of each list measurement (p99 of 40 is the slowest: the first, uncached request of a list is among them). */
const LIST_RUNS = 40;
const log = (s: string) => process.stderr.write(`[bench] ${s}\n`);
const stamp = Date.now().toString(36);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
};
async function timed(fn: (i: number) => Promise<unknown>, runs = RUNS, budgetMs = 60_000) {
  const xs: number[] = [];
  const until = Date.now() + budgetMs;
  for (let i = 0; i < runs && (i === 0 || Date.now() < until); i++) {
    const t = performance.now();
    await fn(i);
    xs.push(performance.now() - t);
  }
  return `${ms(pct(xs, 50))} / ${ms(pct(xs, 99))} (n=${xs.length})`;
}
const ms = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`);

function facts(org: string, i: number, t: number): DetectionFacts {
  return {
    detection_id: `seed-${i}`,
    org_id: org,
    scan_id: `scan_${Math.floor(i / 500)}`,
    target: `host-${i % 200}.example.test`,
    template_id: `check-${i}`,
    title: `Benchmark finding ${i}`,
    severity: SEVERITIES[i % 5]!,
    cvss_score: Math.round((i * 7919) % 100) / 10,
    cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
    cwe_ids: ["CWE-79"],
    cve_ids: i % 10 === 0 ? [`CVE-2024-${10000 + (i % 5000)}`] : [],
    tool: ["nuclei", "nmap", "tls", "headers"][i % 4]!,
    affected_component: `https://host-${i % 200}.example.test/path/${i}`,
    description:
      "A realistic amount of description text for a finding, about two hundred characters long, so that documents have the size they have in production.",
    impact: "An attacker could do harm.",
    remediation: { summary: "Fix it", steps: ["Step one", "Step two"], code_example: "", references: ["https://example.test/ref"] },
    evidence: { request: "GET / HTTP/1.1", response: "HTTP/1.1 200 OK", screenshot_url: null },
    frameworks: [{ name: "pci_dss", controls: ["6.2.4"] }],
    epss_score: 0.05,
    kev: false,
    // Spread over 60 days, so date filters and trends read many day and month documents.
    detected_at: new Date(t - (i % 60) * 24 * 3600_000),
  };
}

function detectionBytes(f: DetectionFacts): Buffer {
  return Buffer.from(
    toBinary(
      DetectionSchema,
      create(DetectionSchema, {
        detectionId: f.detection_id,
        orgId: f.org_id,
        scanId: f.scan_id,
        target: f.target,
        templateId: f.template_id,
        title: f.title,
        severity: Severity.HIGH,
        cvssScore: f.cvss_score,
        cvssVector: f.cvss_vector,
        cweIds: f.cwe_ids,
        cveIds: f.cve_ids,
        tool: f.tool,
        affectedComponent: f.affected_component,
        description: f.description,
        impact: f.impact,
        remediation: { summary: f.remediation.summary, steps: f.remediation.steps, codeExample: "", references: f.remediation.references },
        evidence: { request: f.evidence.request, response: f.evidence.response },
        frameworks: [],
        kev: false,
        detectedAt: timestampFromDate(f.detected_at),
        phase: "vulnerability_scanning",
      }),
    ),
  );
}

/**
 * CPU milliseconds per 1,000 documents of this process (the bench, and the findings service it
 * runs) and of each server over `fn`: unlike throughput, comparable on a machine others use.
 */
async function cpuPer1000(servers: Measured[], docs: number, fn: () => Promise<void>): Promise<string> {
  const before = readCpu(servers);
  const self = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(self);
  const d = cpuDelta(before, readCpu(servers));
  const per = (ms: number) => Math.round((ms * 1000) / docs);
  const parts = [["Node", (used.user + used.system) / 1000] as const, ...Object.entries(d.ms)];
  const total = parts.reduce((a, [, ms]) => a + ms, 0);
  return `${parts.map(([name, ms]) => `${name} ${per(ms)}`).join(" · ")} = ${per(total)} ms`;
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-findings-"));
  const stack = await startStack({ log, dataDir });
  // The services' environment for this server (FERRETDB_POSTGRESQL_URL on PostgreSQL), so the
  // kit's ensureIndexes here and in the in-process service creates the backend's indexes.
  Object.assign(process.env, stack.serviceEnv);
  log(`${stack.mongoServer} at ${stack.mongoUrl}; ${stack.kafkaServer}`);
  const mongo = new MongoClient(stack.mongoUrl);
  await mongo.connect();
  const auth = await startRpcServer({
    host: "127.0.0.1",
    port: 0,
    interceptors: [],
    routes: (r) => {
      r.service(AuthService, { getPlan: () => ({ plan: { limits: { aiCreditsPerMonth: { unlimited: true } } } }) });
    },
  });
  // The database's processes and Kafka's (an external server is not measured).
  const ports = [...databasePorts(stack.mongoUrl, stack.serviceEnv), { name: "kafka", port: Number(stack.kafkaBrokers.split(":").at(-1)) }];
  const servers = processFinder(ports)().filter((m) => m.pid > 0);
  const bus = new KafkaBus({ clientId: `bench-${stamp}`, brokers: [stack.kafkaBrokers], logger: createLogger("bench", "silent"), partitions: 1 });
  const sections: string[] = [];
  const dbs: Db[] = [];
  try {
    for (const N of SIZES) {
      const org = `org_bench${stamp}n${N}`;
      const dbName = `bench_findings_${stamp}_${N}`;
      const db = mongo.db(dbName);
      dbs.push(db);
      const rows: string[] = [];
      const row = (metric: string, value: string) => rows.push(`| ${metric} | ${value} |`);
      await ensureIndexes(db, findingIndexes, { fields: findingFields });

      // Seed: ready documents in bulk (not through the service).
      const findings = db.collection<FindingDoc>("findings");
      const base = Date.now() - 3600_000;
      const s0 = Date.now();
      for (let at = 0; at < N; at += 1000) {
        const docs: FindingDoc[] = [];
        for (let i = at; i < Math.min(N, at + 1000); i++) {
          const t = base + i;
          const f = facts(org, i, t);
          const fp = fingerprint(f);
          const { doc } = newFinding(f, fp, newId("finding", t), new Date(t));
          doc.status = STATUSES[i % 5]!;
          if (doc.status === "resolved")
            Object.assign(doc, { resolved_at: new Date(t), resolution_minutes: Math.round((t - f.detected_at.getTime()) / 60_000) });
          // The SLA instants the service keeps (the default policy; 60 days of detections give findings
          // within, at risk and breached), each breach already announced, as it was when it came due:
          // a store of thousands of unannounced breaches kept the service's upkeep announcing them
          // while the benchmark measured (page 1 p99 about 200 ms instead of 30).
          const withSla = { ...doc, ...slaDiff(doc, slaFields(doc, DEFAULT_POLICY.sla_days, false)) };
          docs.push({ ...withSla, ...announceBreach(withSla, new Date())?.set });
        }
        await findings.insertMany(docs, { ordered: false });
        if ((at + 1000) % 50_000 === 0) log(`N=${N}: seeded ${at + 1000}`);
      }
      const seedSecs = (Date.now() - s0) / 1000;
      const r0 = Date.now();
      const rebuilt = await rebuildRollups(db, org);
      const rebuildSecs = (Date.now() - r0) / 1000;
      log(`N=${N}: seeded in ${seedSecs.toFixed(1)} s, rollups rebuilt in ${rebuildSecs.toFixed(1)} s`);

      const topic = `vulnscan.bench.detected.${stamp}.${N}`;
      await bus.ensureTopics([topic]);
      const config = loadConfig(configSchema, {
        RPC_PORT: "0",
        ADMIN_PORT: "0",
        MONGO_URL: stack.mongoUrl,
        MONGO_DB: dbName,
        KAFKA_BROKERS: stack.kafkaBrokers,
        KAFKA_PARTITIONS: "1",
        LOG_LEVEL: "warn",
        AUTH_URL: `http://127.0.0.1:${auth.port}`,
        DETECTIONS_TOPIC: topic,
        FINDING_EVENTS_TOPIC: `vulnscan.bench.events.${stamp}.${N}`,
        CONSUMER_GROUP: `bench-${stamp}-${N}`,
        INGEST_BATCH_SIZE: String(BATCH),
      });
      const svc = await runService({ name: "findings", config, compose: (ctx) => compose(ctx) });
      await svc.started;
      const client = createRpcClient(FindingService, `http://127.0.0.1:${svc.rpcPort}`, { breaker: false, timeoutMs: 10 * 60_000 });
      // A detection is ingested once its finding is stored (the unique fingerprint is the de-duplication).
      const waitFp = async (f: DetectionFacts) => {
        const fp = fingerprint(f);
        while (!(await findings.findOne({ fingerprint: fp }, { projection: { _id: 1 } }))) await sleep(50);
      };

      // Ingestion: a warm-up detection (the consumer joins its group), then INGEST new ones.
      const warm = facts(org, N + 10_000_000, Date.now());
      await bus.publishRawMany([{ topic, key: "warm", value: detectionBytes(warm), messageType: DetectionSchema.typeName }]);
      await waitFp(warm);
      // As scanners report them: each scan one target, 100 detections, detected now.
      const fresh = Array.from({ length: INGEST }, (_, i) => ({
        ...facts(org, N + i, Date.now()),
        detection_id: `ingest-${stamp}-${N}-${i}`,
        scan_id: `scan_ingest_${Math.floor(i / 100)}`,
        target: `scanned-${Math.floor(i / 100)}.example.test`,
        detected_at: new Date(),
      }));
      // Encoded before the clock starts, as the plain documents below are built before theirs: what a
      // scanner spends on its detections is not the findings service's.
      const records = fresh.map((f) => ({ topic, key: f.scan_id, value: detectionBytes(f), messageType: DetectionSchema.typeName }));
      const i0 = performance.now();
      const ingestCpu = await cpuPer1000(servers, INGEST, async () => {
        for (let at = 0; at < records.length; at += 1000) await bus.publishRawMany(records.slice(at, at + 1000));
        await waitFp(fresh.at(-1)!);
      });
      const ingestSecs = (performance.now() - i0) / 1000;
      // Plain: the same finding documents, bulk-inserted in the same batch size into a collection with the same indexes.
      await ensureIndexes(
        db,
        findingIndexes.filter((x) => x.collection === "findings").map((x) => ({ ...x, collection: "plain_findings" })),
        { fields: { plain_findings: findingFields.findings! } }, // the same declarations (CHECK constraints) as findings
      );
      // The documents ingestion stores: with the SLA fields the default policy gives and the write revision.
      const plainDocs = fresh.map((f, i) => {
        const doc = newFinding(f, fingerprint(f), newId("finding", Date.now() + i), new Date()).doc;
        return { ...doc, ...slaDiff(doc, slaFields(doc, DEFAULT_POLICY.sla_days, false)), rev: 1 };
      });
      const p0 = performance.now();
      const plainCpu = await cpuPer1000(servers, INGEST, async () => {
        for (let at = 0; at < plainDocs.length; at += BATCH)
          await db.collection<FindingDoc>("plain_findings").insertMany(plainDocs.slice(at, at + BATCH), { ordered: false });
      });
      const plainSecs = (performance.now() - p0) / 1000;
      const ingestRate = INGEST / ingestSecs;
      const plainRate = INGEST / plainSecs;
      row(`ingestion, ${INGEST} new detections via Kafka (findings/s)`, `**${ingestRate.toFixed(0)}/s** (${ingestSecs.toFixed(2)} s; batches of ${BATCH})`);
      row(
        "plain insertMany of the same finding documents (docs/s)",
        `${plainRate.toFixed(0)}/s (${plainSecs.toFixed(2)} s) → ingestion = **${(ingestRate / plainRate).toFixed(2)}×** plain`,
      );
      row("CPU per 1,000 findings, ingestion (ms)", ingestCpu);
      row("CPU per 1,000 documents, plain insertMany (ms)", plainCpu);

      // De-duplication lookup shapes, 500 fingerprints: parallel point reads vs one `$in` (unique fingerprint index).
      const sampleFps = Array.from({ length: 500 }, (_, i) => fingerprint(facts(org, Math.floor((i * N) / 500), 0)));
      row(
        "de-dup: 500 parallel `{fingerprint}` reads p50 / p99",
        await timed(() => Promise.all(sampleFps.map((fp) => findings.findOne({ fingerprint: fp }))), 5),
      );
      row("de-dup: one `{fingerprint: {$in: 500}}` read p50 / p99", await timed(() => findings.find({ fingerprint: { $in: sampleFps } }).toArray(), 3));

      // Requests through the service.
      const ids = (
        await findings
          .find({ org_id: org }, { projection: { _id: 1 } })
          .limit(200)
          .toArray()
      ).map((d) => d._id);
      row("stats, no filter p50 / p99", await timed(() => client.getStats({ orgId: org })));
      const from = timestampFromDate(new Date(Date.now() - 45 * 24 * 3600_000));
      row("stats, target + from_date (45 days) p50 / p99", await timed(() => client.getStats({ orgId: org, target: "host-7.example.test", fromDate: from })));
      row("point lookup (GetFinding) p50 / p99", await timed((i) => client.getFinding({ orgId: org, findingId: ids[i % ids.length]! })));
      // Every list answer carries its total: from the rollups for the filters they keep, else a
      // count of the matches (scan_id, cve), which the last two rows measure.
      const list = (filter?: { status?: FindingStatus; severity?: Severity; scanId?: string }) =>
        timed(() => client.listFindings({ orgId: org, ...(filter ? { filter } : {}), pagination: { page: 1, perPage: 20 } }), LIST_RUNS, 120_000);
      row("list page 1, newest first p50 / p99", await list(undefined));
      row(
        "list page 50, newest first p50 / p99",
        await timed(() => client.listFindings({ orgId: org, pagination: { page: 50, perPage: 20 } }), LIST_RUNS, 120_000),
      );
      row("list status=open & severity=high, page 1 p50 / p99", await list({ status: FindingStatus.OPEN, severity: Severity.HIGH }));
      row("list scan_id, page 1 (total counted) p50 / p99", await list({ scanId: "scan_3" }));
      // Time-dependent filters: the SLA state is compared with the clock on stored instants (domain/sla.ts).
      const slaList = (slaState: SlaState) =>
        timed(() => client.listFindings({ orgId: org, filter: { slaState }, pagination: { page: 1, perPage: 20 } }), LIST_RUNS, 120_000);
      row("list sla_state=at_risk, page 1 (total counted) p50 / p99", await slaList(SlaState.AT_RISK));
      row("list sla_state=breached, page 1 (total counted) p50 / p99", await slaList(SlaState.BREACHED));
      // The at-risk total as the list counts it (two index ranges, storage/list-query.ts) beside the one two-sided query it replaced.
      const atNow = new Date();
      row(
        "at-risk count: two ranges (passed − breached) p50 / p99",
        await timed(() => countSla((q) => findings.countDocuments(q), { org_id: org }, atNow), LIST_RUNS),
      );
      row(
        "at-risk count: one two-sided query (baseline) p50 / p99",
        await timed(() => findings.countDocuments({ org_id: org, sla_at_risk_at: { $lte: atNow }, sla_breach_at: { $gt: atNow } }), LIST_RUNS),
      );
      row("count of the organization's findings (countDocuments) p50 / p99", await timed(() => findings.countDocuments({ org_id: org }), LIST_RUNS));
      row(
        "list status=open by severity, page 1 p50 / p99",
        await timed(
          () =>
            client.listFindings({
              orgId: org,
              filter: { status: FindingStatus.OPEN },
              sort: FindingSortField.SEVERITY,
              order: SortOrder.DESC,
              pagination: { page: 1, perPage: 20 },
            }),
          LIST_RUNS,
          120_000,
        ),
      );
      await svc.stop();
      sections.push(
        [
          `### ${N.toLocaleString("en")} findings (${stack.mongoServer})`,
          "",
          `Seeded ${N.toLocaleString("en")} ready findings in ${seedSecs.toFixed(1)} s (${Math.round(N / seedSecs)}/s); rollups rebuilt from them in ${rebuildSecs.toFixed(1)} s (${rebuilt.documents} documents).`,
          "",
          "| metric | value |",
          "|---|---|",
          ...rows,
          "",
        ].join("\n"),
      );
      process.stderr.write(`${sections.at(-1)}\n`);
    }
    process.stdout.write(["", `## Findings benchmark (${stack.mongoServer}, ${stack.kafkaServer})`, "", ...sections].join("\n"));
  } finally {
    for (const db of dbs) await db.dropDatabase().catch(() => undefined);
    await bus.close();
    await auth.close();
    await mongo.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
