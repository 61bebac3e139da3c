// The supported scale of the fallback (FerretDB on PostgreSQL): a filtered, newest-first page of 20
// findings of one organization, timed as the collection grows, with the project's pushdown and,
// beside it in the same run (up to 100,000 documents: it reads every match), the same query with
// pushdown turned off for it (FerretDB's own path: read the matches, sort them in Go). Half the
// documents belong to the measured organization, half of those match the filter.
//
//   npx tsx bench/database/sorted-page.ts [--sizes 10000,100000,300000,1000000] [--runs 40]
//
// Rows per size: page 1 (`{org_id, status}` sorted by `_id` desc, limit 20), a page deep in the
// list by its keyset anchor, the page with a status `$in` of two values, and the filter's count.
// The ready line's note (scripts/stack/index.ts FERRETDB_SCALE_NOTE) and docs/decisions.md
// ("Database") quote these figures.
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { ensureIndexes } from "@vulnscan/kit";
import { MongoClient, type Document } from "mongodb";
import { startStack } from "../../scripts/stack/index.js";

const { values: args } = parseArgs({ options: { sizes: { type: "string", default: "10000,100000,300000,1000000" }, runs: { type: "string", default: "40" } } });
const SIZES = args.sizes.split(",").map(Number);
const RUNS = Number(args.runs);
const BASELINE_MAX = 100_000;
const OFF = "vulnscan:no-pushdown";
const STATUSES = ["open", "resolved", "accepted", "false_positive"];

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
async function timed(fn: () => Promise<unknown>, runs = RUNS): Promise<string> {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  return `${pct(xs, 50).toFixed(1)} / ${pct(xs, 99).toFixed(1)} ms`;
}

const stack = await startStack({ kafka: false, clamav: false, log: () => undefined });
const client = new MongoClient(stack.mongoUrl);
const db = client.db(`scale_${Date.now().toString(36)}`);
try {
  const coll = db.collection<Document>("findings");
  await ensureIndexes(
    db,
    [
      { collection: "findings", key: { org_id: 1, status: 1, _id: -1 } },
      { collection: "findings", key: { org_id: 1, _id: -1 } },
    ],
    {
      ferretdbPostgresqlUrl: stack.serviceEnv.FERRETDB_POSTGRESQL_URL ?? "",
      fields: { findings: { _id: "string", org_id: "string", status: "string", detected_at: "date" } },
    },
  );
  const rows: string[] = [];
  let n = 0;
  for (const size of SIZES) {
    const t0 = performance.now();
    while (n < size) {
      const docs: Document[] = [];
      for (const end = Math.min(size, n + 1000); n < end; n++) {
        docs.push({
          _id: `finding_${String(n).padStart(8, "0")}`,
          org_id: n % 2 ? "org_a" : `org_${n % 50}`,
          status: STATUSES[Math.floor(n / 2) % 4],
          title: `Finding ${n} with a typical title`,
          description: "x".repeat(300),
          detected_at: new Date(Date.UTC(2025, 0, 1) + n * 1000),
        });
      }
      await coll.insertMany(docs, { ordered: false });
    }
    const seeded = (performance.now() - t0) / 1000;
    const filter = { org_id: "org_a", status: "open" };
    const page = (extra: Document = {}, comment?: string) =>
      coll.find({ ...filter, ...extra }, { sort: { _id: -1 }, limit: 20, ...(comment ? { comment } : {}) }).toArray();
    const matches = await coll.countDocuments(filter);
    const [anchor] = await coll.find(filter, { sort: { _id: -1 }, skip: Math.floor(matches / 2), limit: 1, projection: { _id: 1 } }).toArray();
    const deep = { _id: { $lt: anchor!._id } };
    const baseline = size <= BASELINE_MAX;
    rows.push(
      `| ${size.toLocaleString("en")} (${matches.toLocaleString("en")} match; seeded in ${seeded.toFixed(0)} s) | ${await timed(() => page())} | ${await timed(() => page(deep))} | ${await timed(() => coll.find({ org_id: "org_a", status: { $in: ["open", "accepted"] } }, { sort: { _id: -1 }, limit: 20 }).toArray())} | ${await timed(() => coll.countDocuments(filter))} | ${baseline ? await timed(() => page({}, OFF), 5) : "not run (reads every match)"} |`,
    );
    process.stderr.write(`${rows.at(-1)}\n`);
  }
  process.stdout.write(
    [
      "",
      `## A filtered, newest-first page of 20 (${stack.mongoServer}), p50 / p99 of ${RUNS}`,
      "",
      "| documents | page 1 | page by keyset anchor, mid-list | page, status `$in` 2 values | count of the filter | page 1 without pushdown (5 runs) |",
      "|---|---|---|---|---|---|",
      ...rows,
      "",
    ].join("\n"),
  );
} finally {
  await db.dropDatabase().catch(() => undefined);
  await client.close();
  await stack.stop();
}
