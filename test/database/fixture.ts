import { ensureIndexes, type FieldClass, type FieldTypes, type IndexSpec, type RecordedShape } from "@vulnscan/kit";
import { BSON, ObjectId, type Db, type Document } from "mongodb";

/*
 * Documents for the database tests: every collection a service queries, filled from its field
 * declarations with the awkward cases a planner and a pushdown must get right (missing fields,
 * nulls, many ties, the sample values of the recorded queries in a large share of documents, so
 * a recorded query selects a realistic slice rather than nothing).
 */

export interface SampleQuery {
  filter: Document;
  sort: Document;
}

export const parseSample = (shape: RecordedShape): SampleQuery => BSON.EJSON.parse(shape.sample, { relaxed: false }) as SampleQuery;

/** A small deterministic generator, so a failure can be replayed. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The literal values each field is compared with in the recorded samples, by collection. */
export function sampleValues(shapes: RecordedShape[]): { values: Map<string, unknown[]>; nullable: Set<string> } {
  const out = new Map<string, unknown[]>();
  const nullable = new Set<string>();
  const add = (collection: string, field: string, v: unknown) => {
    if (v === null) nullable.add(`${collection}\0${field}`);
    if (v === null || v === undefined || (typeof v === "object" && !(v instanceof Date) && !(v instanceof ObjectId))) return;
    const key = `${collection}\0${field}`;
    const list = out.get(key) ?? [];
    if (!list.some((x) => String(x) === String(v))) list.push(v);
    out.set(key, list);
  };
  const walk = (collection: string, filter: Document) => {
    for (const [k, v] of Object.entries(filter)) {
      if (k === "$and" || k === "$or") for (const sub of v as Document[]) walk(collection, sub);
      else if (k.startsWith("$")) continue;
      else if (v && typeof v === "object" && !(v instanceof Date) && !(v instanceof ObjectId) && !Array.isArray(v)) {
        for (const [op, arg] of Object.entries(v as Document)) {
          if (op === "$in") for (const x of arg as unknown[]) add(collection, k, x);
          else if (["$eq", "$gt", "$gte", "$lt", "$lte", "$ne"].includes(op)) add(collection, k, arg);
        }
      } else add(collection, k, v);
    }
  };
  for (const shape of shapes) walk(shape.collection, parseSample(shape).filter);
  return { values: out, nullable };
}

const BASE = Date.UTC(2026, 0, 1);

/*
 * How often a recorded sample value is stored: a large tenant's share for strings and numbers
 * (10%), rare for flags and object ids (a pending outbox, one file's chunks). Dates cluster just
 * after the latest sample cutoff (most leases, sessions and keys are live; few are expired), and a
 * date field the code compares with null (revoked_at, next_retry) is null in most documents.
 */
const SAMPLE_SHARE: Record<FieldClass, number> = { string: 0.1, number: 0.1, date: 0.05, bool: 0.03, objectId: 0.02, "string[]": 0.1 };

function fieldValue(cls: FieldClass, r: () => number, samples: unknown[]): unknown {
  const dates = samples.filter((s): s is Date => s instanceof Date);
  if (cls === "date" && dates.length > 0) {
    const latest = Math.max(...dates.map((d) => d.getTime()));
    if (r() < SAMPLE_SHARE.date) return new Date(dates[Math.floor(r() * dates.length)]!.getTime() + Math.round((r() - 0.5) * 3_600_000));
    return new Date(latest + 1 + Math.floor(r() * 30 * 86_400_000));
  }
  const scalars = samples.filter((s) => typeof s !== "boolean" || cls === "bool");
  if (scalars.length > 0 && r() < SAMPLE_SHARE[cls]) {
    const s = scalars[Math.floor(r() * scalars.length)];
    if (cls === "string[]") return r() < 0.5 ? s : [s, `v${Math.floor(r() * 40)}`];
    return s;
  }
  switch (cls) {
    case "string":
      return `v${Math.floor(r() * 40)}`;
    case "number":
      return r() < 0.5 ? Math.floor(r() * 10) : Math.round(r() * 100) / 10;
    case "date":
      return new Date(BASE + Math.floor(r() * 400) * 86_400_000 + (r() < 0.3 ? 0 : Math.floor(r() * 1000) * 60_000));
    case "bool":
      return scalars.length > 0 ? !scalars[0] : r() < 0.5;
    case "objectId":
      return ObjectId.createFromTime(1_700_000_000 + Math.floor(r() * 5000));
    case "string[]": {
      if (r() < 0.15) return `v${Math.floor(r() * 40)}`;
      return Array.from({ length: Math.floor(r() * 4) }, () => `v${Math.floor(r() * 40)}`);
    }
  }
}

/** Fields that must differ between documents: the last key of each unique index. */
function uniqueFields(indexes: IndexSpec[], collection: string): Set<string> {
  const out = new Set<string>();
  for (const spec of indexes) {
    if (spec.collection !== collection || !spec.options?.unique) continue;
    const keys = Object.keys(spec.key as Record<string, unknown>);
    out.add(keys[keys.length - 1]!);
  }
  return out;
}

/** Sets `path` in doc, a dotted path as nested documents (a field name may not hold a dot). */
function put(doc: Document, path: string, value: unknown): void {
  const parts = path.split(".");
  let at = doc;
  for (const p of parts.slice(0, -1)) {
    at[p] ??= {};
    at = at[p] as Document;
  }
  at[parts.at(-1)!] = value;
}

export function makeDocs(
  collection: string,
  fields: Record<string, FieldClass>,
  indexes: IndexSpec[],
  samples: Map<string, unknown[]>,
  nullable: Set<string>,
  n: number,
  seed: number,
): Document[] {
  const r = rng(seed);
  const uniq = uniqueFields(indexes, collection);
  const docs: Document[] = [];
  for (let i = 0; i < n; i++) {
    const doc: Document = {};
    doc._id = fields._id === "objectId" ? new ObjectId() : `${collection.slice(0, 6)}_${i.toString(36).padStart(5, "0")}_${Math.floor(r() * 1e6).toString(36)}`;
    for (const [field, cls] of Object.entries(fields)) {
      if (field === "_id") continue;
      if (uniq.has(field)) {
        put(doc, field, cls === "number" ? i : cls === "objectId" ? new ObjectId() : cls === "date" ? new Date(BASE + i) : `${field}_${i}`);
        continue;
      }
      const known = samples.get(`${collection}\0${field}`) ?? [];
      const nulls = nullable.has(`${collection}\0${field}`) ? 0.85 : 0.07;
      const roll = r();
      if (roll < 0.05) continue; // missing
      put(doc, field, roll < 0.05 + nulls ? null : fieldValue(cls, r, known));
    }
    docs.push(doc);
  }
  return docs;
}

/** Creates the service's indexes and declarations in db and fills each collection. */
export async function seedService(
  db: Db,
  declared: { indexes: IndexSpec[]; fields: FieldTypes },
  samples: { values: Map<string, unknown[]>; nullable: Set<string> },
  sizeOf: (collection: string) => number,
): Promise<string[]> {
  await ensureIndexes(db, declared.indexes, { fields: declared.fields });
  const collections = Object.keys(declared.fields);
  for (const [i, collection] of collections.entries()) {
    const docs = makeDocs(collection, declared.fields[collection]!, declared.indexes, samples.values, samples.nullable, sizeOf(collection), 1000 + i);
    for (let at = 0; at < docs.length; at += 5000) await db.collection(collection).insertMany(docs.slice(at, at + 5000), { ordered: false });
  }
  return collections;
}
