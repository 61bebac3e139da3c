import pg from "pg";
import type { IndexSpec } from "./mongo.js";

/*
 * FerretDB v1 on PostgreSQL stores each collection as a table of one jsonb column `_jsonb` and
 * sends a top-level scalar equality as `_jsonb->'field' @> value`. Its own indexes are btrees,
 * which never serve `@>`; a GIN index on the expression `(_jsonb->'field')` does (measured: 2.2 s
 * → 1–2 ms at 1,000,000 documents). So for every field of every declared index key we add one,
 * straight in PostgreSQL: FerretDB keeps its index list in its own metadata and never sees these.
 * `_id` needs none: the project's FerretDB build sends `_id` equality as `=`, which FerretDB's
 * unique `_id` btree serves (scripts/stack/ferretdb.ts).
 *
 * Read from FerretDB v1.24.0 (internal/backends/postgresql): a MongoDB database is a schema of
 * the same name; `<schema>._ferretdb_database_metadata` maps a collection (`_jsonb->>'_id'`) to
 * its table (`_jsonb->>'table'`). Tables are dropped with their collection, and these indexes
 * with them.
 */

const METADATA_TABLE = "_ferretdb_database_metadata";

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Top-level fields of every declared key, by collection (dotted paths are never pushed down). */
export function ginFieldsByCollection(specs: IndexSpec[]): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const spec of specs) {
    const fields = Object.keys(spec.key as Record<string, unknown>).filter((f) => f !== "_id" && !f.includes(".") && !f.startsWith("$"));
    if (fields.length === 0) continue;
    const set = out.get(spec.collection) ?? new Set<string>();
    for (const f of fields) set.add(f);
    out.set(spec.collection, set);
  }
  return new Map([...out].map(([c, s]) => [c, [...s]]));
}

/** PostgreSQL names are at most 63 bytes: keep it short and unique per table and field. */
function indexName(table: string, field: string): string {
  let h = 0;
  for (const ch of `${table}\0${field}`) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  const hash = (h >>> 0).toString(16).padStart(8, "0");
  return `${table.slice(0, 30)}_${field.slice(0, 20)}_gin_${hash}`;
}

/** Errors that mean "another process created it first". */
const alreadyThere = (err: unknown) => ["42P07", "23505"].includes((err as { code?: string }).code ?? "");

/**
 * Creates the GIN expression indexes of `specs` for database `dbName` behind FerretDB. The
 * collections must exist (ensureIndexes creates them first, through FerretDB). Idempotent.
 */
export async function ensureFerretdbPostgresIndexes(postgresqlUrl: string, dbName: string, specs: IndexSpec[]): Promise<number> {
  const wanted = ginFieldsByCollection(specs);
  if (wanted.size === 0) return 0;
  const client = new pg.Client({ connectionString: postgresqlUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  let created = 0;
  try {
    const { rows } = await client.query<{ coll: string; tbl: string }>(
      `SELECT _jsonb->>'_id' AS coll, _jsonb->>'table' AS tbl FROM ${ident(dbName)}.${ident(METADATA_TABLE)} WHERE _jsonb->>'_id' = ANY($1)`,
      [[...wanted.keys()]],
    );
    for (const { coll, tbl } of rows) {
      for (const field of wanted.get(coll) ?? []) {
        const name = indexName(tbl, field);
        const exists = await client.query("SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND indexname = $2", [dbName, name]);
        if (exists.rowCount) continue;
        try {
          // The field name is an SQL literal here: quote it as one.
          await client.query(
            `CREATE INDEX IF NOT EXISTS ${ident(name)} ON ${ident(dbName)}.${ident(tbl)} USING gin ((_jsonb->'${field.replaceAll("'", "''")}'))`,
          );
          created++;
        } catch (err) {
          if (!alreadyThere(err)) throw err;
        }
      }
    }
  } finally {
    await client.end().catch(() => undefined);
  }
  return created;
}
