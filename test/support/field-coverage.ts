import type { FieldClass, RecordedShape } from "@vulnscan/kit";
import { BSON, type Document } from "mongodb";
import { declaredIndexes, type DeclaredIndexes } from "./declared-indexes.js";

/*
 * The field-declaration guard (services/kit/src/field-types.ts): FerretDB on PostgreSQL pushes
 * a query down only on declared fields, so every field a recorded query shape (equality, range,
 * sort) or an index key uses must be declared for its service and collection, with the class
 * the values it is queried with have. Dotted paths are never pushed down and need none; nor do
 * the key fields of `arrays` specs (their own shapes still count).
 */

const topLevel = (field: string) => !field.includes(".") && !field.startsWith("$");

/** `service: collection.field (where it is used)` for each field used but not declared. */
export function undeclaredFields(shapes: RecordedShape[], declared: Record<string, DeclaredIndexes> = declaredIndexes): string[] {
  const missing = new Map<string, string>();
  const need = (service: string, collection: string, field: string, where: string) => {
    if (!topLevel(field) || declared[service]?.fields[collection]?.[field]) return;
    const key = `${service}: ${collection}.${field}`;
    if (!missing.has(key)) missing.set(key, where);
  };
  for (const s of shapes) {
    if (!declared[s.service]) continue;
    for (const f of s.equality) need(s.service, s.collection, f, `equality of a ${s.op}`);
    for (const f of s.range) need(s.service, s.collection, f, `range of a ${s.op}`);
    for (const [f] of s.sort) need(s.service, s.collection, f, `sort of a ${s.op}`);
  }
  for (const [service, d] of Object.entries(declared)) {
    for (const spec of d.indexes) {
      if (spec.arrays) continue;
      for (const f of Object.keys(spec.key as Record<string, unknown>))
        need(service, spec.collection, f, `key of index ${spec.options?.name ?? JSON.stringify(spec.key)}`);
    }
  }
  return [...missing].map(([key, where]) => `${key} (${where})`).sort();
}

/** The class a filter value belongs to; null matches any class (a declared field may be null or absent). */
function classesOf(value: unknown): FieldClass[] | "any" | undefined {
  if (value === null || value === undefined) return "any";
  if (typeof value === "string" || value instanceof RegExp) return ["string", "string[]"];
  if (typeof value === "boolean") return ["bool"];
  if (typeof value === "number") return ["number"];
  if (value instanceof Date) return ["date"];
  if (Array.isArray(value)) return value.every((v) => typeof v === "string") ? ["string[]"] : undefined;
  switch ((value as { _bsontype?: string })._bsontype) {
    case "Int32":
    case "Double":
    case "Long":
      return ["number"];
    case "ObjectId":
      return ["objectId"];
    case "BSONRegExp":
      return ["string", "string[]"];
    default:
      return undefined;
  }
}

const isOperators = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !("_bsontype" in v) && !(v instanceof Date) && Object.keys(v).every((k) => k.startsWith("$"));

/** Each top-level field of a filter with the values it is compared to. */
function comparedValues(filter: Document, out: Array<[string, unknown]> = []): Array<[string, unknown]> {
  for (const [key, value] of Object.entries(filter)) {
    if ((key === "$and" || key === "$or") && Array.isArray(value)) for (const sub of value) comparedValues(sub as Document, out);
    else if (key.startsWith("$") || !topLevel(key)) continue;
    else if (isOperators(value)) {
      for (const [op, arg] of Object.entries(value)) {
        if (["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$regex"].includes(op)) out.push([key, arg]);
        else if ((op === "$in" || op === "$nin") && Array.isArray(arg)) for (const v of arg) out.push([key, v]);
      }
    } else out.push([key, value]);
  }
  return out;
}

/**
 * `service: collection.field` for each declared field a recorded sample query compares with a
 * value of another class: the declaration would make the stored values of that query fail.
 */
export function mistypedFields(shapes: RecordedShape[], declared: Record<string, DeclaredIndexes> = declaredIndexes): string[] {
  const problems = new Set<string>();
  for (const s of shapes) {
    const fields = declared[s.service]?.fields[s.collection];
    if (!fields) continue;
    const { filter } = BSON.EJSON.parse(s.sample, { relaxed: false }) as { filter: Document };
    for (const [field, value] of comparedValues(filter)) {
      const cls = fields[field];
      if (!cls) continue;
      const fits = classesOf(value);
      if (fits !== "any" && !fits?.includes(cls))
        problems.add(`${s.service}: ${s.collection}.${field} is declared ${cls} but queried with ${BSON.EJSON.stringify(value as never, { relaxed: false })}`);
    }
  }
  return [...problems].sort();
}
