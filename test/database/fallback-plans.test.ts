import { createMongo, ensureIndexes, type MongoHandle, type RecordedShape } from "@vulnscan/kit";
import type { Document } from "mongodb";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { declaredIndexes } from "../support/declared-indexes.js";
import { checkShape, describeShape } from "../support/index-check.js";
import { unique } from "../support/names.js";
import { readSnapshot } from "../support/query-coverage.js";
import { parseSample, sampleValues, seedService } from "./fixture.js";

/*
 * Where the fallback runs (FerretDB on PostgreSQL), PostgreSQL's own EXPLAIN of every recorded
 * query shape shows an index at work:
 *  - the planner's own choice (explain through FerretDB) reads no collection table sequentially.
 *    The collections a shape sorts or ranges over hold 20,000 documents, the others 5,000, and the
 *    recorded sample values are in a realistic share of them (fixture.ts), so the choice is the
 *    one it makes at scale;
 *  - a sorted page (limit 21, as the lists ask) is sorted in SQL and can be read in index order:
 *    the pushed-down statement, explained with sorting disabled (`enable_sort = off`), has no
 *    Sort node. (With enabled sorting the planner may still sort a match it expects to be small,
 *    which is its right; what matters is that an ordered index exists for a large one.)
 * Declared scans (the services' allowances, each with its reason) are left out, and so is the one
 * sort the fallback cannot avoid, listed below with its reason. On MongoDB,
 * test/index-coverage.test.ts asserts the same with explain().
 */

const pgUrl = process.env.FERRETDB_POSTGRESQL_URL;
const onFallback = inject("mongoKind") === "ferretdb" && Boolean(pgUrl);

const HOT = 20_000;
const COLD = 5_000;

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

function nodes(plan: unknown, out: PlanNode[] = []): PlanNode[] {
  if (Array.isArray(plan)) for (const p of plan) nodes(p, out);
  else if (plan && typeof plan === "object") {
    const node = plan as Record<string, unknown>;
    if (typeof node["Node Type"] === "string") out.push(node as unknown as PlanNode);
    for (const v of Object.values(node)) if (v && typeof v === "object") nodes(v, out);
  }
  return out;
}

const shapes = readSnapshot();
const samples = sampleValues(shapes);
/**
 * Equality on an array field (a finding's scan_ids or cve_keys) is jsonb containment, served by a
 * GIN index, which has no order: the matches of that one scan or CVE are sorted. MongoDB's
 * multikey index has the order; PostgreSQL's btree on the whole array cannot give it.
 */
const arrayEqualitySorts = (s: RecordedShape) => s.equality.some((f) => declaredIndexes[s.service]!.fields[s.collection]?.[f] === "string[]");

const hotCollections = new Set(shapes.filter((s) => s.sort.length > 0 || s.range.length > 0).map((s) => `${s.service}\0${s.collection}`));
const isAllowedScan = (s: RecordedShape) => {
  const declared = declaredIndexes[s.service]!;
  return checkShape(s, declared.indexes, declared.allowances).by?.startsWith("allowed scan") ?? false;
};

let mongo: MongoHandle | undefined;
const dbs = new Map<string, string>();

beforeAll(async () => {
  if (!onFallback) return;
  mongo = createMongo(inject("mongoUrl"), "admin", "fallback-plans-test");
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    for (const service of new Set(shapes.map((s) => s.service))) {
      const dbName = unique(`plans_${service.replaceAll("-", "_")}`);
      dbs.set(service, dbName);
      const db = mongo.client.db(dbName);
      await seedService(db, declaredIndexes[service]!, samples, (c) => (hotCollections.has(`${service}\0${c}`) ? HOT : COLD));
    }
    await client.query("ANALYZE"); // statistics as autovacuum would have them by now
  } finally {
    await client.end();
  }
}, 900_000);

afterAll(async () => {
  for (const dbName of dbs.values())
    await mongo?.client
      .db(dbName)
      .dropDatabase()
      .catch(() => undefined);
  await mongo?.close();
});

describe.skipIf(!onFallback)("the fallback plans every recorded query shape from an index", () => {
  it("reads no collection table sequentially, and sorts pages in SQL from an index in their order", async () => {
    const problems: string[] = [];
    let explained = 0;
    let ordered = 0;
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      await client.query("SET enable_sort = off");
      for (const shape of shapes) {
        if (isAllowedScan(shape)) continue;
        const { filter, sort } = parseSample(shape);
        const sorted = Object.keys(sort ?? {}).length > 0;
        const limit = shape.op === "findAndModify" ? 1 : sorted && shape.op === "find" ? 21 : 0;
        const coll = mongo!.client.db(dbs.get(shape.service)!).collection(shape.collection);
        const result = (await coll.find(filter, { sort, ...(limit ? { limit } : {}) }).explain()) as Document;
        explained++;
        const where = `${shape.service}: ${describeShape(shape)} ${shape.sample}`;
        const seq = nodes(result.queryPlanner).filter((n) => n["Node Type"] === "Seq Scan" && !n["Relation Name"]?.startsWith("_ferretdb"));
        if (seq.length > 0) problems.push(`sequential scan of ${seq.map((n) => n["Relation Name"]).join(", ")}: ${where}`);
        if (limit <= 1 || arrayEqualitySorts(shape)) continue;
        if (!result.sortPushdown || !result.vulnscanSQL) {
          problems.push(`sorted in FerretDB, not in SQL: ${where}`);
          continue;
        }
        const forced = await client.query(`EXPLAIN (FORMAT JSON) ${result.vulnscanSQL}`, result.vulnscanArgs as string[]);
        const sorts = nodes(forced.rows[0]["QUERY PLAN"]).filter((n) => n["Node Type"].includes("Sort"));
        if (sorts.length > 0) problems.push(`no index reads it in order: ${where}`);
        else ordered++;
      }
    } finally {
      await client.end();
    }
    expect(explained).toBeGreaterThan(150);
    expect(ordered).toBeGreaterThan(30);
    expect(problems).toEqual([]);
  });
});

describe.skipIf(!onFallback)("the fallback counts from an index", () => {
  /*
   * FerretDB keeps a document in one jsonb value, stored out of line once it passes 2 KB, and each
   * `->` on it decompresses the whole value. Priced at PostgreSQL's default, reading a field looks
   * free and the heap looks tiny, so counting an organization that holds the whole table read
   * every document (217 ms for 13,000 findings) instead of the org_id index (8 ms). The fallback
   * prices a field read as what it is (FerretDB's overlay, vsFieldCost).
   */
  it("counts an organization that holds every document of a table of large documents without reading them", async () => {
    const db = mongo!.client.db(unique("plans_count"));
    dbs.set("count", db.databaseName);
    await ensureIndexes(db, [{ collection: "docs", key: { org_id: 1, _id: -1 }, options: { name: "org_newest" } }], {
      fields: { docs: { org_id: "string" } },
      ferretdbPostgresqlUrl: pgUrl,
    });
    const text = "finding evidence ".repeat(400); // about 6.8 KB, as a finding with its evidence
    for (let at = 0; at < 3_000; at += 500)
      await db
        .collection<{ _id: string; org_id: string; evidence: string }>("docs")
        .insertMany(Array.from({ length: 500 }, (_, i) => ({ _id: `doc_${at + i}`, org_id: "org_large", evidence: `${at + i} ${text}` })));
    // The count FerretDB runs for a pushed-down filter (vulnscan_pushdown.go): its WHERE clause under count(*).
    const found = (await db.collection("docs").find({ org_id: "org_large" }).explain()) as Document;
    expect(found.filterPushdown).toBe(true);
    const where = String(found.vulnscanSQL).slice(String(found.vulnscanSQL).indexOf(" FROM "));
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      await client.query(`ANALYZE ${where.split(" ")[2]}`);
      const plan = await client.query(`EXPLAIN (FORMAT JSON) SELECT count(*)${where}`, found.vulnscanArgs as string[]);
      const read = nodes(plan.rows[0]["QUERY PLAN"]).filter((n) => n["Relation Name"] !== undefined || n["Index Name"] !== undefined);
      expect(read.map((n) => n["Node Type"])).not.toContain("Seq Scan");
      expect(read.some((n) => n["Index Name"] !== undefined)).toBe(true);
    } finally {
      await client.end();
    }
  });
});
