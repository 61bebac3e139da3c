// Findings benchmark: one organization with many findings (default 1,000,000), then the list
// (first and deep page), stats, export and ingestion through the real findings service over
// gRPC, each beside the same work done with the raw MongoDB driver in the same run.
//
// Usage: npx tsx bench/findings/run.ts [--findings 1000000] [--seed-seconds 1200]
//          [--ingest 2000] [--export-seconds 60] [--runs 20]
// Uses KAFKA_BROKERS / MONGO_URL when set (`. /tmp/devenv.sh`), else starts the local stack.
// Seeding stops at --seed-seconds and the figures say how many findings were reached.
// On FerretDB v1 (the local test server) every query is a table scan (it uses no secondary
// index, and its `_id` lookups scan too), so list and stats grow linearly with the collection:
// use --findings 20000…50000 there; the 1,000,000 default is for a MongoDB server.
// Not part of CI; it drops its database at the end.

import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createLogger, createRpcClient, KafkaBus, loadConfig, newId, runService, startRpcServer } from "@vulnscan/kit";
import { AuthService } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { DetectionSchema } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import { ExportFormat, FindingService, Severity } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { MongoClient, type Document } from "mongodb";
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { startStack } from "../../scripts/stack/index.js";
import { newFinding } from "../../services/findings/src/domain/changes.js";
import { fingerprint } from "../../services/findings/src/domain/fingerprint.js";
import { filterQuery, mongoSort, sortSpec } from "../../services/findings/src/domain/query.js";
import { SEVERITIES, STATUSES, type DetectionFacts, type FindingDoc } from "../../services/findings/src/domain/types.js";
import { compose } from "../../services/findings/src/compose.js";
import { configSchema } from "../../services/findings/src/config.js";
import { findingIndexes } from "../../services/findings/src/storage/indexes.js";
import { ensureIndexes } from "@vulnscan/kit";

const { values: args } = parseArgs({
  options: {
    findings: { type: "string", default: "1000000" },
    "seed-seconds": { type: "string", default: "1200" },
    ingest: { type: "string", default: "2000" },
    "export-seconds": { type: "string", default: "60" },
    runs: { type: "string", default: "20" },
  },
});
const N = Number(args.findings);
const SEED_BUDGET_MS = Number(args["seed-seconds"]) * 1000;
const INGEST = Number(args.ingest);
const EXPORT_BUDGET_MS = Number(args["export-seconds"]) * 1000;
const RUNS = Number(args.runs);
const log = (s: string) => process.stderr.write(`[bench] ${s}\n`);
const stamp = Date.now().toString(36);
const ORG = `org_bench${stamp}`;
const DB = `bench_findings_${stamp}`;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
};
/** Runs fn up to `runs` times or until `budgetMs` is spent (at least once); latencies in ms. */
async function timed(fn: () => Promise<unknown>, runs = RUNS, budgetMs = 60_000): Promise<{ p50: number; p99: number; n: number }> {
  const xs: number[] = [];
  const until = Date.now() + budgetMs;
  for (let i = 0; i < runs && (i === 0 || Date.now() < until); i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  return { p50: pct(xs, 50), p99: pct(xs, 99), n: xs.length };
}
const ms = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`);

function facts(i: number, t: number): DetectionFacts {
  const sev = SEVERITIES[i % 5]!;
  return {
    detection_id: `seed-${i}`,
    org_id: ORG,
    scan_id: `scan_${Math.floor(i / 500)}`,
    target: `host-${i % 200}.example.test`,
    template_id: `check-${i % 300}`,
    title: `Benchmark finding ${i}`,
    severity: sev,
    cvss_score: Math.round(((i * 7919) % 100)) / 10,
    cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
    cwe_ids: ["CWE-79"],
    cve_ids: i % 10 === 0 ? [`CVE-2024-${10000 + (i % 5000)}`] : [],
    tool: ["nuclei", "nmap", "tls", "headers"][i % 4]!,
    affected_component: `https://host-${i % 200}.example.test/path/${i}`,
    description: "A realistic amount of description text for a finding, about two hundred characters long, so that documents have the size they have in production.",
    impact: "An attacker could do harm.",
    remediation: { summary: "Fix it", steps: ["Step one", "Step two"], code_example: "", references: ["https://example.test/ref"] },
    evidence: { request: "GET / HTTP/1.1", response: "HTTP/1.1 200 OK", screenshot_url: null },
    frameworks: [{ name: "pci_dss", controls: ["6.2.4"] }],
    epss_score: 0.05,
    kev: false,
    detected_at: new Date(t),
  };
}

async function main() {
  const stack = await startStack({ log });
  log(`${stack.mongoServer} at ${stack.mongoUrl}; ${stack.kafkaServer} at ${stack.kafkaBrokers}`);
  const mongo = new MongoClient(stack.mongoUrl);
  await mongo.connect();
  const db = mongo.db(DB);
  const findings = db.collection<FindingDoc>("findings");
  const out: string[] = [];
  const row = (metric: string, service: string, raw: string) => out.push(`| ${metric} | ${service} | ${raw} |`);

  try {
    // Seed with the production indexes in place (their write cost is part of the picture).
    await ensureIndexes(db, findingIndexes);
    const seedStart = Date.now();
    const base = Date.now() - N * 10;
    let seeded = 0;
    const BATCH = 1000;
    while (seeded < N && Date.now() - seedStart < SEED_BUDGET_MS) {
      const docs: FindingDoc[] = [];
      const fps: Document[] = [];
      for (let i = seeded; i < Math.min(N, seeded + BATCH); i++) {
        const t = base + i * 10;
        const f = facts(i, t);
        const fp = fingerprint(f);
        const { doc } = newFinding(f, fp, newId("finding", t), new Date(t));
        doc.status = STATUSES[i % 5]!;
        docs.push(doc);
        fps.push({ _id: fp, finding_id: doc._id, org_id: ORG, created_at: doc.created_at });
      }
      await findings.insertMany(docs, { ordered: false });
      await db.collection("fingerprints").insertMany(fps, { ordered: false });
      seeded += docs.length;
      if (seeded % 50_000 === 0) log(`seeded ${seeded} (${Math.round(seeded / ((Date.now() - seedStart) / 1000))}/s)`);
    }
    const seedSeconds = (Date.now() - seedStart) / 1000;
    log(`seeded ${seeded} findings in ${seedSeconds.toFixed(0)} s`);

    // The service, in-process, on the seeded database; a fake auth answers GetPlan.
    const auth = await startRpcServer({ host: "127.0.0.1", port: 0, interceptors: [], routes: (r) => { r.service(AuthService, { getPlan: () => ({ plan: { limits: { aiCreditsPerMonth: { unlimited: true } } } }) }); } });
    const detectedTopic = `vulnscan.bench.detected.${stamp}`;
    const config = loadConfig(configSchema, {
      RPC_PORT: "0",
      ADMIN_PORT: "0",
      MONGO_URL: stack.mongoUrl,
      MONGO_DB: DB,
      KAFKA_BROKERS: stack.kafkaBrokers,
      KAFKA_PARTITIONS: "1",
      LOG_LEVEL: "warn",
      AUTH_URL: `http://127.0.0.1:${auth.port}`,
      DETECTIONS_TOPIC: detectedTopic,
      FINDING_EVENTS_TOPIC: `vulnscan.bench.events.${stamp}`,
      CONSUMER_GROUP: `bench-${stamp}`,
    });
    const svc = await runService({ name: "findings", config, compose: (ctx) => compose(ctx) });
    await svc.started;
    const client = createRpcClient(FindingService, `http://127.0.0.1:${svc.rpcPort}`, { breaker: false, timeoutMs: 30 * 60_000 });

    // List: first page and a deep page (the middle of the set), newest first and by severity.
    const perPage = 20;
    const deepPage = Math.max(2, Math.floor(seeded / perPage / 2));
    const spec = sortSpec("created_at", "desc");
    const q = filterQuery(ORG, {});
    const rawPage = (page: number, s = spec) => Promise.all([findings.countDocuments(q), findings.find(q, { projection: { comments: 0, history: 0, evidence: 0 } }).sort(mongoSort(s)).skip((page - 1) * perPage).limit(perPage).toArray()]);
    const svcFirst = await timed(() => client.listFindings({ orgId: ORG, pagination: { page: 1, perPage } }));
    const rawFirst = await timed(() => rawPage(1));
    row(`list page 1 (${perPage}/page, newest first) p50 / p99`, `${ms(svcFirst.p50)} / ${ms(svcFirst.p99)} (n=${svcFirst.n})`, `${ms(rawFirst.p50)} / ${ms(rawFirst.p99)} (n=${rawFirst.n})`);
    const svcDeep = await timed(() => client.listFindings({ orgId: ORG, pagination: { page: deepPage, perPage } }));
    const rawDeep = await timed(() => rawPage(deepPage));
    row(`list page ${deepPage} (offset ${(deepPage - 1) * perPage}) p50 / p99`, `${ms(svcDeep.p50)} / ${ms(svcDeep.p99)} (n=${svcDeep.n})`, `${ms(rawDeep.p50)} / ${ms(rawDeep.p99)} (n=${rawDeep.n}, plain skip)`);
    const sevSpec = sortSpec("severity", "desc");
    const svcSev = await timed(() => client.listFindings({ orgId: ORG, filter: { status: 1 }, sort: 1, order: 2, pagination: { page: 1, perPage } }));
    const rawSev = await timed(() => Promise.all([findings.countDocuments({ ...q, status: "open" }), findings.find({ ...q, status: "open" }).sort(mongoSort(sevSpec)).limit(perPage).toArray()]));
    row("list status=open by severity, page 1 p50 / p99", `${ms(svcSev.p50)} / ${ms(svcSev.p99)} (n=${svcSev.n})`, `${ms(rawSev.p50)} / ${ms(rawSev.p99)} (n=${rawSev.n})`);

    // Stats.
    const svcStats = await timed(() => client.getStats({ orgId: ORG }), Math.min(RUNS, 5));
    const rawStats = await timed(() => findings.aggregate([{ $match: q }, { $group: { _id: "$severity", n: { $sum: 1 } } }]).toArray(), Math.min(RUNS, 5));
    row("stats p50 / p99", `${ms(svcStats.p50)} / ${ms(svcStats.p99)} (n=${svcStats.n}; 2 groupings + 2 counts)`, `${ms(rawStats.p50)} / ${ms(rawStats.p99)} (one $group by severity)`);

    // Export: CSV rows/s for up to EXPORT_BUDGET_MS, peak RSS of this process (service + client).
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    let rows = 0;
    const ac = new AbortController();
    const t0 = performance.now();
    try {
      for await (const m of client.exportFindings({ orgId: ORG, format: ExportFormat.CSV }, { signal: ac.signal })) {
        for (const b of m.chunk) if (b === 10) rows++;
        if (performance.now() - t0 > EXPORT_BUDGET_MS) {
          ac.abort();
          break;
        }
      }
    } catch (err) {
      if (!ac.signal.aborted) throw err;
    }
    const exportSecs = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    rows = Math.max(0, rows - 1); // header
    let rawRows = 0;
    const r0 = performance.now();
    for await (const _doc of findings.find(q).sort(mongoSort(spec)).batchSize(500)) {
      rawRows++;
      if (performance.now() - r0 > EXPORT_BUDGET_MS) break;
    }
    const rawSecs = (performance.now() - r0) / 1000;
    row(
      "export CSV rows/s (peak RSS)",
      `${Math.round(rows / exportSecs)} rows/s, ${rows} rows in ${exportSecs.toFixed(1)} s (RSS ${(rssBefore / 2 ** 20).toFixed(0)} → peak ${(peak / 2 ** 20).toFixed(0)} MiB)`,
      `${Math.round(rawRows / rawSecs)} docs/s read with a cursor, ${rawRows} docs`,
    );

    // Ingestion: new detections through Kafka until each has its finding.
    const bus = new KafkaBus({ clientId: `bench-${stamp}`, brokers: [stack.kafkaBrokers], logger: createLogger("bench", "silent"), partitions: 1 });
    const i0 = performance.now();
    const msgs = Array.from({ length: INGEST }, (_, i) => {
      const f = facts(N + i, Date.now());
      return {
        key: "scan_bench",
        value: Buffer.from(
          toBinary(DetectionSchema, {
            $typeName: "vulnscan.findings.v1.Detection",
            detectionId: randomUUID(),
            orgId: ORG,
            scanId: "scan_bench",
            target: f.target,
            templateId: `ingest-${i}`,
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
            frameworks: [],
            kev: false,
            detectedAt: timestampFromDate(new Date()),
            phase: "vulnerability_scanning",
          }),
        ),
      };
    });
    for (const m of msgs) await bus.publishRaw(detectedTopic, m.key, m.value, DetectionSchema.typeName);
    // One partition: the last detection's marker means all were applied (polled by _id, cheaply).
    const processed = db.collection<{ _id: string }>("processed_detections");
    const lastId = msgs.length ? fromBinary(DetectionSchema, msgs.at(-1)!.value).detectionId : "";
    while (lastId && !(await processed.findOne({ _id: lastId }))) await new Promise((r) => setTimeout(r, 1000));
    const created = (await db.collection("fingerprints").countDocuments({ org_id: ORG })) - seeded;
    if (created !== INGEST) throw new Error(`expected ${INGEST} new findings, found ${created}`);
    const ingestSecs = (performance.now() - i0) / 1000;
    await bus.close();
    const rawIngest = db.collection("raw_ingest");
    const w0 = performance.now();
    for (let i = 0; i < Math.min(INGEST, 2000); i++) await rawIngest.insertOne({ _id: `raw_${i}` as never, ...facts(i, Date.now()) });
    const rawWriteSecs = (performance.now() - w0) / 1000;
    row(
      "ingestion findings/s (Kafka → finding + events)",
      `${(INGEST / ingestSecs).toFixed(0)}/s (${INGEST} new detections in ${ingestSecs.toFixed(1)} s, incl. consumer start)`,
      `${(Math.min(INGEST, 2000) / rawWriteSecs).toFixed(0)} single inserts/s (no de-dup, no events)`,
    );

    await svc.stop();
    await auth.close();
    process.stdout.write(
      [
        "",
        `## Findings benchmark (${stack.mongoServer}, ${stack.kafkaServer})`,
        "",
        `Seeded ${seeded.toLocaleString("en")} findings in one organization in ${seedSeconds.toFixed(0)} s (${Math.round(seeded / seedSeconds)}/s, batches of ${BATCH} with the production indexes)${seeded < N ? ` — stopped at the seed budget of ${SEED_BUDGET_MS / 1000} s, short of ${N.toLocaleString("en")}` : ""}.`,
        "",
        "| metric | findings service (gRPC) | raw driver, same run |",
        "|---|---|---|",
        ...out,
        "",
      ].join("\n"),
    );
  } finally {
    await db.dropDatabase().catch(() => undefined);
    await mongo.close();
    await stack.stop();
  }
}

await main();
