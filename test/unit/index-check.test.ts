import { allowScan, shapesOf, type IndexSpec, type QueryShape } from "@vulnscan/kit";
import { describe, expect, it } from "vitest";
import { checkShape } from "../support/index-check.js";

const shape = (filter: Record<string, unknown>, sort?: Record<string, 1 | -1>): QueryShape => shapesOf("c", "find", filter, sort)[0]!;
const idx = (key: Record<string, 1 | -1>): IndexSpec => ({ collection: "c", key });

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
