import type { IndexSpec, QueryShape, ScanAllowance } from "@vulnscan/kit";

/*
 * The index-coverage checker (DESIGN.md §4): whether a recorded query shape
 * (services/kit/src/query-shapes.ts) has a declared index in equality–sort–range order, or is a
 * scan its service declared with `allowScan`. Only the tests run it (query-coverage.ts at the
 * integration run's teardown, test/unit/index-coverage.test.ts on the snapshot).
 */

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
