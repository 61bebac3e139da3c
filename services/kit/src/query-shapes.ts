import fs from "node:fs";
import { BSON, type Document, type MongoClient } from "mongodb";
import type { IndexSpec } from "./index-spec.js";

/*
 * Index coverage (DESIGN.md §4): every query shape must have a MongoDB index in
 * equality–sort–range order, or be a scan declared on purpose with its reason.
 *
 * A shape is what a query asks of an index, without values: its equality fields (`f: v`,
 * `$eq`, `$in`), its range fields (`$gt/$gte/$lt/$lte`, an anchored regex), its sort, and the
 * fields filtered after the fact (`$ne`, `$exists`, `$size`, …), which no index narrows.
 *
 * Shapes are recorded from the driver's command monitoring (every find, count, aggregate
 * `$match`, update, delete, findAndModify, distinct a client sends), so they are exactly what the
 * server was asked, whichever API built the query.
 */

export type SortSpec = Array<[string, 1 | -1]>;

export interface QueryShape {
  collection: string;
  /** find, update, delete, aggregate, count, findAndModify, distinct */
  op: string;
  equality: string[];
  range: string[];
  /** Filtered after the index: narrows nothing. */
  residual: string[];
  sort: SortSpec;
}

/** A recorded shape: who asked, and one concrete query (extended JSON) for explain(). */
export interface RecordedShape extends QueryShape {
  service: string;
  sample: string;
}

/** A query allowed to scan, with the reason, declared beside the indexes of its service. */
export interface ScanAllowance {
  collection: string;
  equality?: string[];
  range?: string[];
  sort?: SortSpec;
  reason: string;
}

export function allowScan(collection: string, shape: Omit<ScanAllowance, "collection" | "reason">, reason: string): ScanAllowance {
  if (!reason.trim()) throw new Error("a scan allowance needs its reason");
  return { collection, ...shape, reason };
}

const isOperatorObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" &&
  v !== null &&
  !Array.isArray(v) &&
  !("_bsontype" in v) &&
  !(v instanceof Date) &&
  !(v instanceof RegExp) &&
  Object.keys(v).length > 0 &&
  Object.keys(v).every((k) => k.startsWith("$"));

const isRegex = (v: unknown) => v instanceof RegExp || (typeof v === "object" && v !== null && (v as { _bsontype?: string })._bsontype === "BSONRegExp");

function anchored(pattern: unknown, flags = ""): boolean {
  const source =
    pattern instanceof RegExp
      ? pattern.source
      : typeof pattern === "object" && pattern !== null && "pattern" in pattern
        ? String((pattern as { pattern: string }).pattern)
        : String(pattern);
  const options =
    pattern instanceof RegExp
      ? pattern.flags
      : typeof pattern === "object" && pattern !== null && "options" in pattern
        ? String((pattern as { options: string }).options)
        : flags;
  return source.startsWith("^") && !options.includes("i") && !options.includes("m");
}

interface Terms {
  equality: Set<string>;
  range: Set<string>;
  residual: Set<string>;
}

const emptyTerms = (): Terms => ({ equality: new Set(), range: new Set(), residual: new Set() });

function merge(a: Terms, b: Terms): Terms {
  return {
    equality: new Set([...a.equality, ...b.equality]),
    range: new Set([...a.range, ...b.range]),
    residual: new Set([...a.residual, ...b.residual]),
  };
}

/** The alternatives a filter asks for (one unless it has `$or`: each branch needs an index). */
export function filterTerms(filter: Document | undefined): Terms[] {
  let alternatives: Terms[] = [emptyTerms()];
  const addAll = (branches: Terms[]) => {
    alternatives = alternatives.flatMap((a) => branches.map((b) => merge(a, b)));
  };
  for (const [key, value] of Object.entries(filter ?? {})) {
    if (key === "$and" && Array.isArray(value)) {
      for (const sub of value) addAll(filterTerms(sub as Document));
    } else if (key === "$or" && Array.isArray(value)) {
      addAll(value.flatMap((sub) => filterTerms(sub as Document)));
    } else if (key.startsWith("$")) {
      // $nor, $expr, $where, $comment, $text: narrow nothing through a plain index
    } else if (isOperatorObject(value)) {
      const t = emptyTerms();
      for (const [op, arg] of Object.entries(value)) {
        if (op === "$eq" || op === "$in") t.equality.add(key);
        else if (op === "$gt" || op === "$gte" || op === "$lt" || op === "$lte") t.range.add(key);
        else if (op === "$regex") (anchored(arg, String(value.$options ?? "")) ? t.range : t.residual).add(key);
        else if (op !== "$options") t.residual.add(key);
      }
      addAll([t]);
    } else if (isRegex(value)) {
      const t = emptyTerms();
      (anchored(value) ? t.range : t.residual).add(key);
      addAll([t]);
    } else {
      const t = emptyTerms();
      t.equality.add(key);
      addAll([t]);
    }
  }
  return alternatives.map((t) => {
    // A field both compared for equality and bounded is an equality for the index.
    for (const f of t.equality) {
      t.range.delete(f);
      t.residual.delete(f);
    }
    for (const f of t.range) t.residual.delete(f);
    return t;
  });
}

function sortSpec(sort: unknown): SortSpec {
  if (!sort || typeof sort !== "object") return [];
  const entries = sort instanceof Map ? [...sort.entries()] : Object.entries(sort as Record<string, unknown>);
  return entries.map(([f, d]) => [String(f), d === -1 || d === "desc" || d === "descending" ? -1 : 1]);
}

export function shapesOf(collection: string, op: string, filter: Document | undefined, sort?: unknown): QueryShape[] {
  const s = sortSpec(sort);
  return filterTerms(filter).map((t) => ({
    collection,
    op,
    equality: [...t.equality].sort(),
    range: [...t.range].sort(),
    residual: [...t.residual].sort(),
    sort: s,
  }));
}

interface Query {
  collection: string;
  op: string;
  filter: Document | undefined;
  sort?: unknown;
}

/** The queries in one command sent to the server (none for inserts and the like). */
export function queriesOfCommand(name: string, command: Document): Query[] {
  switch (name) {
    case "find":
      return [{ collection: command.find, op: "find", filter: command.filter, sort: command.sort }];
    case "count":
      return [{ collection: command.count, op: "count", filter: command.query }];
    case "distinct":
      return [{ collection: command.distinct, op: "distinct", filter: command.query }];
    case "findAndModify":
      return [{ collection: command.findAndModify, op: "findAndModify", filter: command.query, sort: command.sort }];
    case "update":
      return ((command.updates ?? []) as Document[]).map((u) => ({ collection: command.update, op: "update", filter: u.q }));
    case "delete":
      return ((command.deletes ?? []) as Document[]).map((d) => ({ collection: command.delete, op: "delete", filter: d.q }));
    case "aggregate": {
      if (typeof command.aggregate !== "string") return [];
      const pipeline = (command.pipeline ?? []) as Document[];
      const match = pipeline[0]?.$match as Document | undefined;
      const sortStage = (match ? pipeline[1] : pipeline[0])?.$sort;
      return [{ collection: command.aggregate, op: "aggregate", filter: match ?? {}, sort: sortStage }];
    }
    default:
      return [];
  }
}

export const shapeKey = (s: QueryShape & { service?: string }) =>
  JSON.stringify([s.service ?? "", s.collection, s.op, s.equality, s.range, s.residual, s.sort]);

/**
 * Records the shape of every query `client` sends into `file` (JSON lines, appended; each shape
 * once per process). The client must be created with `monitorCommands: true`.
 */
export function recordQueryShapes(client: MongoClient, service: string, file: string): void {
  const seen = new Set<string>();
  client.on("commandStarted", (event) => {
    for (const q of queriesOfCommand(event.commandName, event.command)) {
      for (const shape of shapesOf(q.collection, q.op, q.filter, q.sort)) {
        const recorded: RecordedShape = { service, ...shape, sample: BSON.EJSON.stringify({ filter: q.filter ?? {}, sort: q.sort ?? {} }, { relaxed: false }) };
        const key = shapeKey(recorded);
        if (seen.has(key)) continue;
        seen.add(key);
        try {
          fs.appendFileSync(file, `${JSON.stringify(recorded)}\n`);
        } catch {
          // recording is a test aid: never fail a query over it
        }
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------
// The checker

export interface Coverage {
  ok: boolean;
  /** The index that serves it, "_id", or the allowance's reason. */
  by?: string;
  problem?: string;
}

function keyFields(spec: IndexSpec): Array<[string, 1 | -1]> {
  return Object.entries(spec.key as Record<string, unknown>).map(([f, d]) => [f, d === -1 ? -1 : 1]);
}

const sameSet = (a: string[] | undefined, b: string[]) => JSON.stringify([...(a ?? [])].sort()) === JSON.stringify([...b].sort());

function allowed(shape: QueryShape, allowances: ScanAllowance[]): ScanAllowance | undefined {
  return allowances.find(
    (a) =>
      a.collection === shape.collection &&
      sameSet(a.equality, shape.equality) &&
      sameSet(a.range, shape.range) &&
      JSON.stringify(a.sort ?? []) === JSON.stringify(shape.sort),
  );
}

/** Whether one index serves the shape in equality–sort–range order (no scan, no in-memory sort). */
export function indexServes(shape: QueryShape, spec: IndexSpec): boolean {
  const key = keyFields(spec);
  const eq = new Set(shape.equality);
  const range = new Set(shape.range);
  let i = 0;
  while (i < key.length && eq.has(key[i]![0])) i++;
  const eqUsed = i;
  // Sorting on a field fixed by equality costs nothing.
  const sort = shape.sort.filter(([f]) => !eq.has(f));
  let sortOk = true;
  let sameDirection: boolean | undefined;
  for (const [j, [field, dir]] of sort.entries()) {
    const k = key[i + j];
    if (!k || k[0] !== field) {
      sortOk = false;
      break;
    }
    const same = k[1] === dir;
    sameDirection ??= same;
    if (sameDirection !== same) {
      sortOk = false;
      break;
    }
  }
  const leading = eqUsed > 0 || (key[0] !== undefined && range.has(key[0][0])) || (eq.size === 0 && sort.length > 0 && sortOk);
  return leading && sortOk;
}

/** Coverage of one shape by a collection's declared indexes (`_id` is always indexed). */
export function checkShape(shape: QueryShape, indexes: IndexSpec[], allowances: ScanAllowance[] = []): Coverage {
  const mine = [
    { collection: shape.collection, key: { _id: 1 }, options: { name: "_id_" } } as IndexSpec,
    ...indexes.filter((s) => s.collection === shape.collection),
  ];
  if (shape.equality.includes("_id")) return { ok: true, by: "_id" };
  for (const spec of mine) if (indexServes(shape, spec)) return { ok: true, by: spec.options?.name ?? JSON.stringify(spec.key) };
  const allowance = allowed(shape, allowances);
  if (allowance) return { ok: true, by: `allowed scan: ${allowance.reason}` };
  return { ok: false, problem: `no index serves ${describeShape(shape)}` };
}

export function describeShape(s: QueryShape): string {
  const parts = [
    s.equality.length ? `equality {${s.equality.join(", ")}}` : "",
    s.sort.length ? `sort {${s.sort.map(([f, d]) => `${f}: ${d}`).join(", ")}}` : "",
    s.range.length ? `range {${s.range.join(", ")}}` : "",
    s.residual.length ? `filter {${s.residual.join(", ")}}` : "",
  ].filter(Boolean);
  return `${s.op} on ${s.collection}${parts.length ? `: ${parts.join(", ")}` : " with no filter"}`;
}
