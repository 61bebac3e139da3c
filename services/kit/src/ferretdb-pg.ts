import type pg from "pg";
import {
  declarationCheck,
  declarationComment,
  declarationName,
  isScalarClass,
  parseDeclarationComment,
  sqlLiteral,
  type FieldClass,
  type FieldTypes,
} from "./field-types.js";
import type { IndexSpec } from "./index-spec.js";

/*
 * What FerretDB v1 on PostgreSQL needs beside the indexes it makes itself, added straight in
 * PostgreSQL (FerretDB keeps its index list in its own metadata and never sees these):
 *
 *  - Field declarations (field-types.ts): a CHECK constraint per declared field, commented
 *    `vulnscan:<class>:<field>`. The project's FerretDB build pushes filters, sorts, limits and
 *    counts on such fields down to SQL, and serves their equality with its own btree indexes.
 *  - GIN expression indexes for the other index-key fields. FerretDB sends a top-level
 *    equality on an undeclared field as `_jsonb->'field' @> value`, which no btree serves and a
 *    GIN index on `(_jsonb->'field')` does (measured: 2.2 s → 1–2 ms at 1,000,000 documents).
 *    Array fields (`string[]`) keep theirs: element matches stay `@>`.
 *  `_id` needs neither index: the project's FerretDB build sends `_id` equality as `=`, which
 *  FerretDB's unique `_id` btree serves (scripts/stack/ferretdb.ts).
 *
 * Read from FerretDB v1.24.0 (internal/backends/postgresql): a MongoDB database is a schema of
 * the same name; `<schema>._ferretdb_database_metadata` maps a collection (`_jsonb->>'_id'`) to
 * its table (`_jsonb->>'table'`). Tables are dropped with their collection, and all of this
 * with them; the next ensureIndexes adds it again.
 */

const METADATA_TABLE = "_ferretdb_database_metadata";

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A declaration that could not be added: its field stays without pushdown (and keeps its GIN index). */
export interface SkippedDeclaration {
  collection: string;
  field: string;
  fieldClass: FieldClass;
  reason: string;
}

export interface FerretdbPostgresResult {
  /** Constraints added by this call (0 when all were there). */
  constraints: number;
  /** GIN indexes added by this call. */
  indexes: number;
  skipped: SkippedDeclaration[];
}

/**
 * Top-level fields of every declared key that need a GIN index, by collection: not `_id`, not
 * dotted paths (never pushed down), not fields declared scalar in `fields`.
 */
export function ginFieldsByCollection(specs: IndexSpec[], fields: FieldTypes = {}): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const spec of specs) {
    const declared = fields[spec.collection] ?? {};
    const keyFields = Object.keys(spec.key as Record<string, unknown>).filter((f) => f !== "_id" && !f.includes(".") && !f.startsWith("$"));
    const wanted = keyFields.filter((f) => !(declared[f] && isScalarClass(declared[f])));
    if (wanted.length === 0) continue;
    const set = out.get(spec.collection) ?? new Set<string>();
    for (const f of wanted) set.add(f);
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

const codeOf = (err: unknown) => (err as { code?: string }).code ?? "";
/** Errors that mean "another process created it first" (duplicate object, relation, catalog key). */
const alreadyThere = (err: unknown) => ["42710", "42P07", "23505"].includes(codeOf(err));
/** check_violation: rows already stored break the declaration. */
const violatedByRows = (err: unknown) => codeOf(err) === "23514";

/**
 * Adds the declarations of one collection's table, each with its comment in one transaction
 * (FerretDB must never see a constraint without its comment, or a comment on another check).
 * A declaration of the field with another class is dropped first, in a statement of its own:
 * the code now writes the new class, which the old constraint would refuse, so it goes even
 * when the new one cannot be added.
 */
async function declareFields(
  client: pg.Client,
  schema: string,
  table: string,
  collection: string,
  wanted: Record<string, FieldClass>,
  skipped: SkippedDeclaration[],
): Promise<number> {
  const qualified = `${ident(schema)}.${ident(table)}`;
  const { rows } = await client.query<{ conname: string; comment: string | null }>(
    "SELECT conname, obj_description(oid, 'pg_constraint') AS comment FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'c'",
    [qualified],
  );
  const existing = rows.map((r) => ({ name: r.conname, declared: parseDeclarationComment(r.comment) }));
  let added = 0;
  for (const [field, cls] of Object.entries(wanted)) {
    for (const other of existing.filter((e) => e.declared?.field === field && e.declared.fieldClass !== cls)) {
      await client.query(`ALTER TABLE ${qualified} DROP CONSTRAINT IF EXISTS ${ident(other.name)}`);
    }
    if (existing.some((e) => e.declared?.field === field && e.declared.fieldClass === cls)) continue;
    const name = ident(declarationName(table, field, cls));
    try {
      await client.query("BEGIN");
      await client.query(`ALTER TABLE ${qualified} ADD CONSTRAINT ${name} CHECK (${declarationCheck(field, cls)})`);
      await client.query(`COMMENT ON CONSTRAINT ${name} ON ${qualified} IS ${sqlLiteral(declarationComment(field, cls))}`);
      await client.query("COMMIT");
      added++;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      if (alreadyThere(err)) continue; // a replica starting beside this one added it
      if (!violatedByRows(err)) throw err;
      skipped.push({ collection, field, fieldClass: cls, reason: `stored documents hold other types: ${(err as Error).message}` });
    }
  }
  return added;
}

/**
 * Adds the declarations of `fields` and the GIN indexes of `specs` for database `dbName`
 * behind FerretDB. The collections must exist (ensureIndexes creates them first, through
 * FerretDB). Idempotent, and safe with several replicas at once. A declaration that stored
 * documents break is skipped, not thrown: its field just gets no pushdown.
 */
export async function ensureFerretdbPostgres(
  postgresqlUrl: string,
  dbName: string,
  specs: IndexSpec[],
  fields: FieldTypes = {},
): Promise<FerretdbPostgresResult> {
  const result: FerretdbPostgresResult = { constraints: 0, indexes: 0, skipped: [] };
  const collections = [...new Set([...Object.keys(fields), ...specs.map((s) => s.collection)])];
  if (collections.length === 0) return result;
  // Imported here: a service on MongoDB (no FERRETDB_POSTGRESQL_URL) never loads pg (~3 MiB).
  const { default: postgres } = await import("pg");
  const client = new postgres.Client({ connectionString: postgresqlUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ coll: string; tbl: string }>(
      `SELECT _jsonb->>'_id' AS coll, _jsonb->>'table' AS tbl FROM ${ident(dbName)}.${ident(METADATA_TABLE)} WHERE _jsonb->>'_id' = ANY($1)`,
      [collections],
    );
    const tables = new Map(rows.map((r) => [r.coll, r.tbl]));

    for (const [collection, wanted] of Object.entries(fields)) {
      const table = tables.get(collection);
      if (!table) {
        for (const [field, cls] of Object.entries(wanted)) result.skipped.push({ collection, field, fieldClass: cls, reason: "the collection has no table" });
        continue;
      }
      result.constraints += await declareFields(client, dbName, table, collection, wanted, result.skipped);
    }

    // A skipped declaration gets no pushdown: its field keeps (or gets) a GIN index.
    const inForce: FieldTypes = {};
    for (const [collection, wanted] of Object.entries(fields)) {
      inForce[collection] = Object.fromEntries(
        Object.entries(wanted).filter(([f]) => !result.skipped.some((s) => s.collection === collection && s.field === f)),
      );
    }
    for (const [collection, ginFields] of ginFieldsByCollection(specs, inForce)) {
      const table = tables.get(collection);
      if (!table) continue;
      for (const field of ginFields) {
        const name = indexName(table, field);
        const exists = await client.query("SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND indexname = $2", [dbName, name]);
        if (exists.rowCount) continue;
        try {
          await client.query(`CREATE INDEX IF NOT EXISTS ${ident(name)} ON ${ident(dbName)}.${ident(table)} USING gin ((_jsonb->${sqlLiteral(field)}))`);
          result.indexes++;
        } catch (err) {
          if (!alreadyThere(err)) throw err;
        }
      }
    }
  } finally {
    await client.end().catch(() => undefined);
  }
  return result;
}
