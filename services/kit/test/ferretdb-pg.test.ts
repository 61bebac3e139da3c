import pg from "pg";
import type { Db } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { unique } from "../../../test/support/names.js";
import { createMongo, ensureIndexes, type FieldTypes, type IndexSpec, type MongoHandle } from "../src/index.js";

/*
 * On FerretDB over PostgreSQL, ensureIndexes turns the field declarations into commented CHECK
 * constraints (what the project's FerretDB build reads to push queries down), which PostgreSQL
 * then enforces on every write, and adds GIN expression indexes for the other index-key fields,
 * which PostgreSQL uses (and FerretDB's own `_id` index) for the SQL FerretDB sends.
 */
const pgUrl = process.env.FERRETDB_POSTGRESQL_URL;
let mongo: MongoHandle | undefined;
let client: pg.Client | undefined;
const databases: Db[] = [];

function database(prefix: string): Db {
  mongo ??= createMongo(inject("mongoUrl"), unique(prefix), "kit-test");
  const db = mongo.client.db(unique(prefix));
  databases.push(db);
  return db;
}

beforeAll(async () => {
  if (!pgUrl) return;
  client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
});

afterAll(async () => {
  for (const db of databases) await db.dropDatabase().catch(() => undefined);
  await mongo?.close();
  await client?.end();
});

const pgClient = () => client!;

async function tableOf(db: Db, collection: string): Promise<string> {
  const meta = await pgClient().query<{ tbl: string }>(
    `SELECT _jsonb->>'table' AS tbl FROM "${db.databaseName}"."_ferretdb_database_metadata" WHERE _jsonb->>'_id' = $1`,
    [collection],
  );
  return `"${db.databaseName}"."${meta.rows[0]!.tbl}"`;
}

/** The comments of the table's CHECK constraints, sorted. */
async function declarations(db: Db, collection: string): Promise<string[]> {
  const { rows } = await pgClient().query<{ comment: string | null }>(
    "SELECT obj_description(oid, 'pg_constraint') AS comment FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'c'",
    [await tableOf(db, collection)],
  );
  return rows.map((r) => r.comment ?? "(no comment)").sort();
}

/** The fields of the schema's GIN expression indexes, sorted. */
async function ginFields(db: Db): Promise<string[]> {
  const { rows } = await pgClient().query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexdef LIKE '%USING gin%'", [
    db.databaseName,
  ]);
  return rows.map((r) => /->\s*'(\w+)'/.exec(r.indexdef)?.[1] ?? r.indexdef).sort();
}

const specs: IndexSpec[] = [
  { collection: "things", key: { org_id: 1, status: 1, created_at: -1 } },
  { collection: "things", key: { org_id: 1, tags: 1, _id: -1 }, arrays: true },
  { collection: "things", key: { org_id: 1, label: 1 } },
];
const fields: FieldTypes = {
  things: { _id: "string", org_id: "string", status: "string", created_at: "date", n: "number", done: "bool", owner: "objectId", tags: "string[]" },
  // Declared only: ensureIndexes creates the collection to put the constraint on its table.
  files: { _id: "objectId" },
};

describe.skipIf(!pgUrl)("field declarations and GIN indexes behind FerretDB on PostgreSQL", () => {
  it("declares each field by a commented CHECK, idempotently, with GIN indexes only for the fields not declared scalar", async () => {
    const db = database("decl");
    expect(await ensureIndexes(db, specs, { fields })).toEqual({ skipped: [] });
    expect(await ensureIndexes(db, specs, { fields })).toEqual({ skipped: [] }); // a restart: nothing new, no error
    expect(await declarations(db, "things")).toEqual([
      "vulnscan:bool:done",
      "vulnscan:date:created_at",
      "vulnscan:number:n",
      "vulnscan:objectId:owner",
      "vulnscan:string:_id",
      "vulnscan:string:org_id",
      "vulnscan:string:status",
      "vulnscan:string[]:tags",
    ]);
    expect(await declarations(db, "files")).toEqual(["vulnscan:objectId:_id"]);
    expect(await ginFields(db)).toEqual(["label", "tags"]);

    // Documents of the declared classes, with nulls and missing fields, are stored as before.
    const docs = Array.from({ length: 3000 }, (_, i) => ({
      _id: `t${i}`,
      org_id: `org_${i % 100}`,
      ...(i % 7 ? { status: i % 3 ? "open" : "done" } : { status: null }),
      created_at: new Date(),
      n: [1, 2 ** 40, 1.5][i % 3],
      done: i % 2 === 0,
      tags: i % 5 ? [`tag${i}`, "all"] : i % 2 ? "single" : [],
    }));
    const things = db.collection<{ _id: string }>("things");
    await things.insertMany(docs);
    const expected = docs.filter((d) => d.org_id === "org_7" && d.status === "open").length;
    expect(expected).toBeGreaterThan(0);
    expect(await things.countDocuments({ org_id: "org_7", status: "open" })).toBe(expected);

    const table = await tableOf(db, "things");
    await pgClient().query(`ANALYZE ${table}`);
    const plan = async (where: string) =>
      (await pgClient().query(`EXPLAIN SELECT _jsonb FROM ${table} WHERE ${where}`)).rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(await plan(`_jsonb->'tags' @> '"tag7"'`)).toMatch(/Bitmap Index Scan on \S*tags_gin/);
    expect(await plan(`_jsonb->'_id' = '"t42"'`)).toMatch(/Index Scan using \S*__id_/);
  });

  it("rejects a write that breaks a declaration", async () => {
    const db = database("declbad");
    await ensureIndexes(db, specs, { fields });
    const things = db.collection("things");
    await things.insertOne({ _id: "ok" as never, org_id: "o", created_at: new Date(), n: 3, tags: ["a"], owner: null });
    for (const bad of [
      { _id: 1 },
      { _id: "b1", created_at: "2026-01-01" },
      { _id: "b2", n: "3" },
      { _id: "b3", done: 1 },
      { _id: "b4", org_id: ["o"] },
      { _id: "b5", tags: ["a", 1] },
      { _id: "b6", tags: [["a"]] },
      { _id: "b7", owner: "6b095a355c5ab5845bfc251d" },
    ]) {
      await expect(things.insertOne(bad as never), JSON.stringify(bad)).rejects.toThrow();
    }
    await expect(things.updateOne({ _id: "ok" as never }, { $set: { status: 5 } })).rejects.toThrow();
    expect(await things.find({}).toArray()).toHaveLength(1);
  });

  it("replaces a declaration whose class changed", async () => {
    const db = database("declchange");
    await ensureIndexes(db, specs, { fields: { things: { label: "number" } } });
    expect(await declarations(db, "things")).toEqual(["vulnscan:number:label"]);
    expect(await ensureIndexes(db, specs, { fields: { things: { label: "string" } } })).toEqual({ skipped: [] });
    expect(await declarations(db, "things")).toEqual(["vulnscan:string:label"]);
    await db.collection("things").insertOne({ label: "now a string" });
  });

  it("skips, without failing, a declaration that stored documents break, and keeps that field's GIN index", async () => {
    const db = database("declskip");
    await db.collection("mixed").insertMany([
      { x: "a", y: "b" },
      { x: 1, y: "c" },
    ]);
    const warn = vi.fn();
    const mixedSpecs: IndexSpec[] = [{ collection: "mixed", key: { x: 1, y: 1 } }];
    const result = await ensureIndexes(db, mixedSpecs, { fields: { mixed: { x: "string", y: "string" } }, logger: { warn, info: vi.fn() } });
    expect(result.skipped).toEqual([{ collection: "mixed", field: "x", fieldClass: "string", reason: expect.stringMatching(/violated/) }]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(await declarations(db, "mixed")).toEqual(["vulnscan:string:y"]);
    expect(await ginFields(db)).toEqual(["x"]);
    await db.collection("mixed").insertOne({ x: 2, y: "d" }); // nothing enforced on x
  });

  it("adds each declaration once when replicas start together", async () => {
    const db = database("declrace");
    const results = await Promise.all([1, 2, 3, 4].map(() => ensureIndexes(db, specs, { fields })));
    expect(results.flatMap((r) => r.skipped)).toEqual([]);
    expect(await declarations(db, "things")).toHaveLength(Object.keys(fields.things!).length);
  });
});
