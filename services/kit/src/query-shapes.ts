import fs from "node:fs";
import { BSON, type Document, type MongoClient } from "mongodb";

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
 * server was asked, whichever API built the query. The checker that holds them against the
 * declared indexes is test code (test/support/index-check.ts).
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
