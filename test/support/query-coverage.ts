import fs from "node:fs";
import path from "node:path";
import { shapeKey, type RecordedShape } from "@vulnscan/kit";
import { declaredIndexes } from "./declared-indexes.js";
import { checkShape, describeShape } from "./index-check.js";

/*
 * The index-coverage guard (DESIGN.md §4) in three parts:
 *  - the integration run records the shape of every query the services send
 *    (VULNSCAN_QUERY_SHAPES_FILE, services/kit/src/query-shapes.ts) and, at teardown, fails on a
 *    shape that no declared index serves, or that is missing from the snapshot below;
 *  - the snapshot (query-shapes.json, committed) is checked against the declared indexes by a unit
 *    test, so changing an index list is guarded on any machine, without servers;
 *  - where the server is MongoDB, a test explains each snapshot sample and refuses a COLLSCAN.
 * `VULNSCAN_UPDATE_QUERY_SHAPES=1 npx vitest run --project integration …` adds the run's new shapes
 * to the snapshot (review the diff: each new shape is a new query).
 */

export const SNAPSHOT_FILE = path.join(path.dirname(new URL(import.meta.url).pathname), "query-shapes.json");

export function readRecorded(file: string): RecordedShape[] {
  let text = "";
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const byKey = new Map<string, RecordedShape>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const shape = JSON.parse(line) as RecordedShape;
    if (!(shape.service in declaredIndexes)) continue; // test clients, the admin CLI, benchmarks
    byKey.set(shapeKey(shape), byKey.get(shapeKey(shape)) ?? shape);
  }
  return [...byKey.values()];
}

export function readSnapshot(): RecordedShape[] {
  return JSON.parse(fs.readFileSync(SNAPSHOT_FILE, "utf8")) as RecordedShape[];
}

const order = (a: RecordedShape, b: RecordedShape) => shapeKey(a).localeCompare(shapeKey(b));

/** One shape per line, sorted, so a diff shows exactly the queries that came or went. */
export function writeSnapshot(shapes: RecordedShape[]): void {
  const lines = [...shapes].sort(order).map((s) => `  ${JSON.stringify(s)}`);
  fs.writeFileSync(SNAPSHOT_FILE, `[\n${lines.join(",\n")}\n]\n`);
}

/** Problems of each shape no declared index serves, as readable lines. */
export function uncovered(shapes: RecordedShape[]): string[] {
  const problems: string[] = [];
  for (const shape of shapes) {
    const declared = declaredIndexes[shape.service];
    if (!declared) continue;
    const coverage = checkShape(shape, declared.indexes, declared.allowances);
    if (!coverage.ok) problems.push(`${shape.service}: ${coverage.problem}`);
  }
  return problems.sort();
}

/** Teardown check of a run's recording; returns the lines to print, throws on a problem. */
export function checkRecording(file: string): string[] {
  const recorded = readRecorded(file);
  const snapshot = readSnapshot();
  const known = new Set(snapshot.map(shapeKey));
  const fresh = recorded.filter((s) => !known.has(shapeKey(s)));
  const out = [`query shapes: ${recorded.length} recorded, ${fresh.length} not in ${path.relative(process.cwd(), SNAPSHOT_FILE)}`];
  if (fresh.length && process.env.VULNSCAN_UPDATE_QUERY_SHAPES === "1") {
    writeSnapshot([...snapshot, ...fresh]);
    out.push(`added ${fresh.length} shapes to the snapshot`);
  }
  const problems = uncovered(recorded);
  const errors: string[] = [];
  if (problems.length) errors.push(`queries no declared index serves (add an index, or a justified allowance):\n  ${problems.join("\n  ")}`);
  if (fresh.length && process.env.VULNSCAN_UPDATE_QUERY_SHAPES !== "1") {
    errors.push(
      `query shapes missing from the snapshot (rerun with VULNSCAN_UPDATE_QUERY_SHAPES=1 to add them):\n  ` +
        fresh
          .map((s) => `${s.service}: ${describeShape(s)}`)
          .sort()
          .join("\n  "),
    );
  }
  if (errors.length) throw new Error(errors.join("\n"));
  return out;
}
