import { type Collection, MongoBulkWriteError, MongoNetworkError } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { createMongo, type MongoHandle } from "../src/mongo.js";
import { WriteBatch } from "../src/write-batch.js";

interface Doc {
  _id: string;
  n: number;
}

let mongo: MongoHandle;

beforeAll(() => {
  mongo = createMongo(inject("mongoUrl"), unique("kitbatch"), "kit-test");
});
afterAll(async () => {
  await mongo.db.dropDatabase().catch(() => undefined);
  await mongo.close();
});

describe("WriteBatch against a real MongoDB-protocol server", () => {
  it("gives each of many concurrent writes its own outcome: inserted, already there, updated only where its guard holds", async () => {
    const coll = mongo.db.collection<Doc>("items");
    await coll.insertMany([0, 1, 2].map((i) => ({ _id: `d${i}`, n: -1 })));
    const batch = new WriteBatch(coll);

    // 40 inserts in one turn, three of them on taken ids and one id twice.
    const ids = [...Array.from({ length: 36 }, (_, i) => `d${i}`), "d5", "x1", "x2", "x3"];
    const inserted = await Promise.all(ids.map((id, i) => batch.insertOnce({ _id: id, n: i })));
    const taken = new Set(["d0", "d1", "d2"]);
    const firstOf = (id: string, i: number) => ids.indexOf(id) === i;
    expect(inserted).toEqual(ids.map((id, i) => !taken.has(id) && firstOf(id, i)));
    expect(await coll.countDocuments({})).toBe(39);
    expect((await coll.findOne({ _id: "d0" }))?.n).toBe(-1); // a taken id is left as it was

    // Inserts and guarded updates in one turn: d4's guard does not hold, so it stays.
    await Promise.all([
      batch.updateOne({ _id: "d3", n: 3 }, { $set: { n: 300 } }),
      batch.updateOne({ _id: "d4", n: 999 }, { $set: { n: 400 } }),
      batch.insertOnce({ _id: "y1", n: 1 }),
      batch.updateOne({ _id: "missing" }, { $set: { n: 1 } }),
    ]);
    expect(
      await coll
        .find({ _id: { $in: ["d3", "d4", "y1", "missing"] } })
        .sort({ _id: 1 })
        .toArray(),
    ).toEqual([
      { _id: "d3", n: 300 },
      { _id: "d4", n: 4 },
      { _id: "y1", n: 1 },
    ]);
  });

  it("refuses every write of a batch whose command failed, which the driver also reports as a bulk write error", async () => {
    // What the driver throws when the server is gone mid-batch: a MongoBulkWriteError without write errors.
    const down = { bulkWrite: async () => Promise.reject(new MongoBulkWriteError(new MongoNetworkError("connection refused"), {} as never)) };
    const batch = new WriteBatch(down as unknown as Collection<Doc>);
    const outcomes = await Promise.allSettled([batch.insertOnce({ _id: "a", n: 1 }), batch.updateOne({ _id: "b" }, { $set: { n: 2 } })]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
  });
});
