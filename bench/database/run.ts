// FerretDB on PostgreSQL (docs/decisions.md "Database"): inserts, a point lookup by `_id`, an
// equality filter on two fields and updates by `_id`, at N findings-like documents, on a fresh
// server started by the stack scripts (SQLite, the other backend once measured here, was removed
// in stop 26).
//
//   npx tsx bench/database/run.ts [--docs 50000] [--lookups 300]
//
// It also prints PostgreSQL's plan of the SQL FerretDB sends for both queries, to show the
// indexes serve them.
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { ensureIndexes, type IndexSpec } from "@vulnscan/kit";
import { MongoClient, type Document } from "mongodb";
import pg from "pg";
import { startStack } from "../../scripts/stack/index.js";

const { values } = parseArgs({
  options: {
    docs: { type: "string", default: "50000" },
    lookups: { type: "string", default: "300" },
  },
});
const N = Number(values.docs);
const LOOKUPS = Number(values.lookups);
const ORGS = 100;
const STATUSES = ["open", "in_progress", "resolved", "false_positive", "accepted"];
const BATCH = 1000;

const indexes: IndexSpec[] = [{ collection: "findings", key: { org_id: 1, status: 1, _id: -1 }, options: { name: "org_status" } }];

function doc(i: number): Document {
  return {
    _id: `finding_${i.toString(36).padStart(6, "0")}`,
    org_id: `org_${i % ORGS}`,
    status: STATUSES[Math.floor(i / ORGS) % STATUSES.length],
    severity: ["critical", "high", "medium", "low", "info"][i % 5],
    title: `Finding ${i}: outdated component with a known vulnerability`,
    target: `10.0.${(i >> 8) & 255}.${i & 255}`,
    port: 443,
    cvss_score: (i % 100) / 10,
    cve_ids: [`CVE-2024-${10000 + (i % 5000)}`],
    description: "A longer description of the finding, as scanners produce them. ".repeat(4),
    detected_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000),
  };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(0));

async function timed(times: number, fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await fn(i);
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { p50: pct(samples, 50), p99: pct(samples, 99) };
}

interface Result {
  server: string;
  insertsPerSec: number;
  point: { p50: number; p99: number };
  equality: { p50: number; p99: number; matched: number };
  updatesPerSec: number;
  plans: string[];
}

async function pgPlans(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const meta = await client.query<{ tbl: string }>(
      `SELECT _jsonb->>'table' AS tbl FROM "bench"."_ferretdb_database_metadata" WHERE _jsonb->>'_id' = 'findings'`,
    );
    const table = `"bench"."${meta.rows[0]!.tbl}"`;
    const plan = async (label: string, sql: string) =>
      `${label}: ${(await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`)).rows.map((r) => r["QUERY PLAN"].trim()).join(" | ")}`;
    // The SQL FerretDB v1.24 (patched, scripts/stack/ferretdb.ts) sends, with the values in place.
    return [
      await plan("point", `SELECT _jsonb FROM ${table} WHERE _jsonb->'_id' = '"finding_000abc"'`),
      await plan("equality", `SELECT _jsonb FROM ${table} WHERE _jsonb->'org_id' @> '"org_7"' AND _jsonb->'status' @> '"open"'`),
    ];
  } finally {
    await client.end();
  }
}

async function bench(): Promise<Result> {
  const stack = await startStack({ kafka: false, ferretdb: "postgresql", log: (l) => process.stderr.write(`[stack] ${l}\n`) });
  const client = new MongoClient(stack.mongoUrl);
  try {
    const db = client.db("bench");
    await ensureIndexes(db, indexes, { ferretdbPostgresqlUrl: stack.serviceEnv.FERRETDB_POSTGRESQL_URL ?? "" });
    const coll = db.collection("findings");
    let t0 = performance.now();
    for (let start = 0; start < N; start += BATCH) {
      await coll.insertMany(
        Array.from({ length: Math.min(BATCH, N - start) }, (_, k) => doc(start + k)),
        { ordered: false },
      );
    }
    const insertsPerSec = N / ((performance.now() - t0) / 1000);
    // Postgres plans with fresh statistics, as autovacuum would have them after a while.
    if (stack.serviceEnv.FERRETDB_POSTGRESQL_URL) {
      const c = new pg.Client({ connectionString: stack.serviceEnv.FERRETDB_POSTGRESQL_URL });
      await c.connect();
      await c.query("ANALYZE");
      await c.end();
    }
    const ids = Array.from({ length: LOOKUPS }, (_, i) => doc((i * 7919) % N)._id as string);
    const point = await timed(LOOKUPS, async (i) => {
      if (!(await coll.findOne({ _id: ids[i] } as Document))) throw new Error(`missing ${ids[i]}`);
    });
    let matched = 0;
    const equality = await timed(Math.max(5, LOOKUPS), async (i) => {
      matched = (await coll.find({ org_id: `org_${i % ORGS}`, status: "open" }).toArray()).length;
    });
    const updates = Math.min(LOOKUPS, 300);
    t0 = performance.now();
    for (let i = 0; i < updates; i++) await coll.updateOne({ _id: ids[i] } as Document, { $set: { status: "resolved" } });
    const updatesPerSec = updates / ((performance.now() - t0) / 1000);
    const plans = stack.serviceEnv.FERRETDB_POSTGRESQL_URL ? await pgPlans(stack.serviceEnv.FERRETDB_POSTGRESQL_URL) : [];
    return { server: stack.mongoServer, insertsPerSec, point, equality: { ...equality, matched }, updatesPerSec, plans };
  } finally {
    await client.close();
    await stack.stop();
  }
}

const results: Result[] = [await bench()];

console.log(
  `\n${N.toLocaleString("en-US")} findings-like documents, ${ORGS} organizations; ${LOOKUPS} point lookups; equality filter {org_id, status} matching ${results[0]?.equality.matched} each`,
);
const rows: Array<[string, (r: Result) => string]> = [
  ["server", (r) => r.server],
  ["inserts/s (insertMany of 1,000)", (r) => r.insertsPerSec.toFixed(0)],
  ["point lookup by _id p50 / p99 (ms)", (r) => `${fmt(r.point.p50)} / ${fmt(r.point.p99)}`],
  ["equality {org_id, status} p50 / p99 (ms)", (r) => `${fmt(r.equality.p50)} / ${fmt(r.equality.p99)}`],
  ["updateOne by _id /s", (r) => r.updatesPerSec.toFixed(0)],
];
for (const [label, get] of rows) console.log(`${label.padEnd(42)} ${results.map((r) => get(r).padEnd(34)).join("")}`);
for (const r of results) for (const p of r.plans) console.log(`plan (${r.server}) ${p}`);
process.exit(0);
