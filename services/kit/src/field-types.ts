import { createHash } from "node:crypto";

/*
 * Declared field types. The project's FerretDB build (on PostgreSQL) pushes a filter, sort,
 * limit or count on a field down to SQL only when the field is a "declared scalar": it holds
 * values of one type class in every document of the collection. Each service says which
 * fields those are, beside its indexes, and ensureIndexes turns each declaration into a CHECK
 * constraint on the collection's table (ferretdb-pg.ts), whose COMMENT tells FerretDB the
 * field and class. PostgreSQL then enforces it, so a write of another type fails instead of
 * silently making pushed-down answers wrong.
 *
 * The SQL and the comment format are the contract with the FerretDB patch: do not change them
 * without it. FerretDB keeps each document as one jsonb column `_jsonb`, top-level field f in
 * `_jsonb->'f'` and its BSON type in `_jsonb->'$s'->'p'->'f'->>'t'` (absent: no such field);
 * an array's element types are in `…->'f'->'i'`, as `{"t": …}` objects.
 */

/** `string[]`: a string or an array of strings (array fields matched by element equality). */
export type FieldClass = "string" | "number" | "date" | "bool" | "objectId" | "string[]";

/** Collection → top-level field → class. */
export type FieldTypes = Record<string, Record<string, FieldClass>>;

export const FIELD_CLASSES: readonly FieldClass[] = ["string", "number", "date", "bool", "objectId", "string[]"];

/** Scalar classes get pushdown; `string[]` is declared too, but array fields keep their GIN indexes. */
export const isScalarClass = (c: FieldClass): boolean => c !== "string[]";

/**
 * One declaration of several (the kit's collections and a service's own); a field declared with
 * two classes is a mistake in the code, caught when the module loads.
 */
export function mergeFieldTypes(...parts: FieldTypes[]): FieldTypes {
  const out: FieldTypes = {};
  for (const part of parts) {
    for (const [collection, fields] of Object.entries(part)) {
      const into = out[collection] ?? {};
      out[collection] = into;
      for (const [field, cls] of Object.entries(fields)) {
        const known = into[field];
        if (known && known !== cls) throw new Error(`field ${collection}.${field} declared both ${known} and ${cls}`);
        into[field] = cls;
      }
    }
  }
  return out;
}

/** A string as an SQL literal (standard_conforming_strings: only quotes are doubled). */
export const sqlLiteral = (s: string): string => `'${s.replaceAll("'", "''")}'`;

/** The CHECK expression of a declaration (the contract's exact text, see above). */
export function declarationCheck(field: string, cls: FieldClass): string {
  const f = sqlLiteral(field);
  const schema = `_jsonb->'$s'->'p'->${f}`;
  const t = `(${schema}->>'t')`;
  switch (cls) {
    case "string":
      return `${t} IS NULL OR ${t} IN ('string','null')`;
    case "number":
      return `${t} IS NULL OR ${t} = 'null' OR (${t} IN ('int','long','double') AND jsonb_typeof(_jsonb->${f}) = 'number')`;
    case "date":
      return `${t} IS NULL OR ${t} IN ('date','null')`;
    case "bool":
      return `${t} IS NULL OR ${t} IN ('bool','null')`;
    case "objectId":
      return `${t} IS NULL OR ${t} IN ('objectId','null')`;
    case "string[]":
      return `${t} IS NULL OR ${t} IN ('string','null') OR (${t} = 'array' AND NOT jsonb_path_exists(${schema}->'i', '$[*] ? (@.t != "string")'))`;
  }
}

const COMMENT_PREFIX = "vulnscan:";

/** The constraint's COMMENT, which is what FerretDB reads: `vulnscan:<class>:<field>`. */
export const declarationComment = (field: string, cls: FieldClass): string => `${COMMENT_PREFIX}${cls}:${field}`;

/** The declaration a constraint comment states, if it is one of ours. */
export function parseDeclarationComment(comment: string | null | undefined): { field: string; fieldClass: FieldClass } | undefined {
  if (!comment?.startsWith(COMMENT_PREFIX)) return undefined;
  const rest = comment.slice(COMMENT_PREFIX.length);
  for (const cls of FIELD_CLASSES) {
    if (rest.startsWith(`${cls}:`) && rest.length > cls.length + 1) return { field: rest.slice(cls.length + 1), fieldClass: cls };
  }
  return undefined;
}

const MAX_NAME_BYTES = 63;
const slug = (s: string, max: number) => s.replace(/[^A-Za-z0-9_]/g, "_").slice(0, max);

/**
 * Constraint name: PostgreSQL truncates names past 63 bytes, so it is short (ASCII, ≤ 57
 * bytes), readable (table and field prefixes) and unique per table, field and class (hash).
 */
export function declarationName(table: string, field: string, cls: FieldClass): string {
  const hash = createHash("sha256").update(`${table}\0${field}\0${cls}`).digest("hex").slice(0, 12);
  const name = `vs_${slug(table, 20)}_${slug(field, 20)}_${hash}`;
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw new Error(`constraint name too long: ${name}`);
  return name;
}
