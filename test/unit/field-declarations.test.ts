import type { RecordedShape } from "@vulnscan/kit";
import { BSON } from "mongodb";
import { describe, expect, it } from "vitest";
import { declaredIndexes } from "../support/declared-indexes.js";
import { mistypedFields, undeclaredFields } from "../support/field-coverage.js";
import { readSnapshot } from "../support/query-coverage.js";

/*
 * Every field a recorded query shape (test/support/query-shapes.json) or a declared index uses
 * is declared with its type class (services/kit/src/field-types.ts), the class of the values
 * the sample queries compare it with. Runs without servers.
 */
describe("field declarations of every recorded query shape", () => {
  const snapshot = readSnapshot();

  it("declares every field of every shape's equality, range and sort, and of every index key", () => {
    expect(undeclaredFields(snapshot)).toEqual([]);
  });

  it("declares each field with the class of the values the sample queries use", () => {
    expect(mistypedFields(snapshot)).toEqual([]);
  });

  it("reports a field missing from the declarations, and one declared with the wrong class", () => {
    const shape: RecordedShape = {
      service: "auth",
      collection: "sessions",
      op: "find",
      equality: ["org_id", "made_up"],
      range: [],
      residual: [],
      sort: [["another", -1]],
      sample: BSON.EJSON.stringify({ filter: { org_id: 42, made_up: "x" }, sort: { another: -1 } }, { relaxed: false }),
    };
    expect(undeclaredFields([shape])).toEqual(["auth: sessions.another (sort of a find)", "auth: sessions.made_up (equality of a find)"]);
    expect(mistypedFields([shape])).toEqual(['auth: sessions.org_id is declared string but queried with {"$numberInt":"42"}']);
    const auth = declaredIndexes.auth!;
    const withIndex = { auth: { ...auth, indexes: [...auth.indexes, { collection: "sessions", key: { org_id: 1, "meta.x": 1, ip: 1 } }] } };
    expect(undeclaredFields([], withIndex)).toEqual(['auth: sessions.ip (key of index {"org_id":1,"meta.x":1,"ip":1})']);
  });
});
