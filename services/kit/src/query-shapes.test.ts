import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { queriesOfCommand, shapesOf, type QueryShape } from "./query-shapes.js";

const shape = (filter: Record<string, unknown>, sort?: Record<string, 1 | -1>): QueryShape => shapesOf("c", "find", filter, sort)[0]!;

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
