import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { createMongo, ensureIndexes, type IndexSpec, type MongoHandle } from "../src/index.js";

/*
 * On FerretDB over PostgreSQL, ensureIndexes adds GIN expression indexes for the declared fields,
 * and PostgreSQL uses them (and FerretDB's own `_id` index) for the SQL FerretDB sends.
 */
const pgUrl = process.env.FERRETDB_POSTGRESQL_URL;
let mongo: MongoHandle | undefined;

afterAll(async () => {
  await mongo?.db.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

describe.skipIf(!pgUrl)("GIN indexes behind FerretDB on PostgreSQL", () => {
  it("creates one per declared field, idempotently, and the planner serves equality and _id with indexes", async () => {
    const dbName = unique("ginidx");
    mongo = createMongo(inject("mongoUrl"), dbName, "kit-test");
    const specs: IndexSpec[] = [{ collection: "things", key: { org_id: 1, status: 1, created_at: -1 } }];
    await ensureIndexes(mongo.db, specs);
    await ensureIndexes(mongo.db, specs); // a restart: nothing new, no error
    const docs = Array.from({ length: 3000 }, (_, i) => ({ _id: `t${i}`, org_id: `org_${i % 100}`, status: i % 3 ? "open" : "done", created_at: new Date() }));
    await mongo.db.collection<{ _id: string }>("things").insertMany(docs);
    expect(await mongo.db.collection("things").countDocuments({ org_id: "org_7", status: "open" })).toBe(20);

    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexdef LIKE '%USING gin%'", [
        dbName,
      ]);
      expect(rows.map((r) => /->\s*'(\w+)'/.exec(r.indexdef)?.[1]).sort()).toEqual(["created_at", "org_id", "status"]);
      const meta = await client.query<{ tbl: string }>(
        `SELECT _jsonb->>'table' AS tbl FROM "${dbName}"."_ferretdb_database_metadata" WHERE _jsonb->>'_id' = 'things'`,
      );
      const table = `"${dbName}"."${meta.rows[0]!.tbl}"`;
      await client.query(`ANALYZE ${table}`);
      const plan = async (where: string) =>
        (await client.query(`EXPLAIN SELECT _jsonb FROM ${table} WHERE ${where}`)).rows.map((r) => r["QUERY PLAN"]).join("\n");
      expect(await plan(`_jsonb->'org_id' @> '"org_7"' AND _jsonb->'status' @> '"open"'`)).toMatch(/Bitmap Index Scan on \S*org_id_gin/);
      expect(await plan(`_jsonb->'_id' = '"t42"'`)).toMatch(/Index Scan using \S*__id_/);
    } finally {
      await client.end();
    }
  });
});
