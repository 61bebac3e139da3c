import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import type { IndexSpec } from "./index-spec.js";
import { allowScan, checkShape, queriesOfCommand, shapesOf, type QueryShape } from "./query-shapes.js";

const shape = (filter: Record<string, unknown>, sort?: Record<string, 1 | -1>): QueryShape => shapesOf("c", "find", filter, sort)[0]!;
const idx = (key: Record<string, 1 | -1>): IndexSpec => ({ collection: "c", key });

describe("query shapes", () => {
  it("sorts filter terms into equality, range and after-the-fact fields", () => {
    expect(
      shape({
        org_id: "o",
        status: { $in: ["open"] },
        kind: { $eq: 1 },
        at: { $gte: new Date(), $lt: new Date() },
        key: /^abc/,
        name: /abc/,
        n: { $ne: 1 },
        oid: new ObjectId(),
      }),
    ).toMatchObject({ equality: ["kind", "oid", "org_id", "status"], range: ["at", "key"], residual: ["n", "name"] });
  });

  it("treats a subdocument value as equality and each $or branch as its own shape", () => {
    expect(shape({ meta: { a: 1 } }).equality).toEqual(["meta"]);
    const branches = shapesOf("c", "find", { org_id: "o", $or: [{ a: 1 }, { b: { $gt: 1 } }] });
    expect(branches.map((s) => [s.equality, s.range])).toEqual([
      [["a", "org_id"], []],
      [["org_id"], ["b"]],
    ]);
  });

  it("reads the queries of the commands the driver sends", () => {
    expect(
      queriesOfCommand("update", {
        update: "c",
        updates: [
          { q: { _id: 1 }, u: {} },
          { q: { a: 1 }, u: {} },
        ],
      }).map((q) => q.filter),
    ).toEqual([{ _id: 1 }, { a: 1 }]);
    expect(queriesOfCommand("aggregate", { aggregate: "c", pipeline: [{ $match: { a: 1 } }, { $sort: { b: -1 } }] })).toEqual([
      { collection: "c", op: "aggregate", filter: { a: 1 }, sort: { b: -1 } },
    ]);
    expect(queriesOfCommand("insert", { insert: "c", documents: [] })).toEqual([]);
  });
});

describe("index coverage in equality–sort–range order", () => {
  it("accepts _id lookups with no declared index", () => {
    expect(checkShape(shape({ _id: "x", outbox: { $size: 0 } }), []).ok).toBe(true);
  });

  it("accepts equality prefix, then sort, then range", () => {
    const index = idx({ org_id: 1, status: 1, created_at: -1 });
    expect(checkShape(shape({ org_id: "o", status: "s" }, { created_at: -1 }), [index]).ok).toBe(true);
    expect(checkShape(shape({ org_id: "o", status: "s" }, { created_at: 1 }), [index]).ok).toBe(true); // walked backwards
    expect(checkShape(shape({ org_id: "o", status: "s", created_at: { $lt: 1 } }), [index]).ok).toBe(true);
    // An extra equality field is filtered on the index's matches: still an index scan.
    expect(checkShape(shape({ org_id: "o", tool: "t" }), [index]).ok).toBe(true);
  });

  it("refuses a sort the index cannot give in order", () => {
    const index = idx({ org_id: 1, created_at: -1, _id: -1 });
    expect(checkShape(shape({ org_id: "o" }, { created_at: -1, _id: 1 }), [index]).ok).toBe(false); // mixed directions
    expect(checkShape(shape({ org_id: "o" }, { severity: 1 }), [index])).toMatchObject({
      ok: false,
      problem: "no index serves find on c: equality {org_id}, sort {severity: 1}",
    });
    // A range before the sort field forces an in-memory sort.
    expect(checkShape(shape({ org_id: "o", at: { $gt: 1 } }, { created_at: -1 }), [idx({ org_id: 1, at: 1, created_at: -1 })]).ok).toBe(false);
  });

  it("refuses a query whose only indexed fields are not the index's leading ones", () => {
    expect(checkShape(shape({ status: "s" }), [idx({ org_id: 1, status: 1 })]).ok).toBe(false);
    expect(checkShape(shape({}), [idx({ org_id: 1 })]).ok).toBe(false);
  });

  it("accepts a range or sort on the leading field, and only declared scans beyond that", () => {
    expect(checkShape(shape({ expires_at: { $lt: 1 } }), [idx({ expires_at: 1 })]).ok).toBe(true);
    expect(checkShape(shape({}, { acquired_at: 1 }), [idx({ acquired_at: 1 })]).ok).toBe(true);
    const all = allowScan("c", {}, "admin listing of a collection of at most a few rows");
    expect(checkShape(shape({}), [], [all])).toEqual({ ok: true, by: `allowed scan: ${all.reason}` });
    expect(checkShape(shape({ a: 1 }), [], [all]).ok).toBe(false);
    expect(() => allowScan("c", {}, " ")).toThrow();
  });
});
