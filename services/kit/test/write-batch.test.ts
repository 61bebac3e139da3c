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
  it("gives each of many concurrent writes its own outcome: inserted, already there, set, removed", async () => {
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

    await Promise.all([batch.set("d3", { n: 300 }), batch.set("d4", { n: 400 }), batch.remove("x1"), batch.remove("missing")]);
    expect(
      await coll
        .find({ _id: { $in: ["d3", "d4"] } })
        .sort({ _id: 1 })
        .toArray(),
    ).toEqual([
      { _id: "d3", n: 300 },
      { _id: "d4", n: 400 },
    ]);
    expect(await coll.findOne({ _id: "x1" })).toBeNull();
  });
});

describe("WriteBatch when a command of the batch fails as a whole", () => {
  it("acknowledges none of its writes: the driver's bulk error without write errors says nothing was known to apply", async () => {
    // What mongodb 6.x throws when the connection closes under a bulk write: the network error
    // wrapped in a MongoBulkWriteError with an empty writeErrors list.
    const lost = new MongoBulkWriteError(new MongoNetworkError("connection 5 to 127.0.0.1:27017 closed"), {} as never);
    expect(lost.writeErrors).toEqual([]);
    const coll = { bulkWrite: async () => Promise.reject(lost) } as unknown as Collection<Doc>;
    const batch = new WriteBatch(coll);
    const outcomes = await Promise.allSettled([batch.insertOnce({ _id: "a", n: 1 }), batch.set("b", { n: 2 }), batch.remove("c")]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(outcomes.map((o) => (o as PromiseRejectedResult).reason)).toEqual([lost, lost, lost]);
  });
});
