import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";

interface Doc {
  _id: string;
  n: number;
}

// More commands in flight than FerretDB's PostgreSQL pool has connections (50): unpatched, each
// update held its read's connection while waiting for a second one to write, and the server
// stopped answering (scripts/stack/ferretdb.ts, "update and findAndModify release their read").
const IN_FLIGHT = 160;

let client: MongoClient;
let dbName: string;

beforeAll(async () => {
  client = new MongoClient(inject("mongoUrl"), { maxPoolSize: IN_FLIGHT + 20, serverSelectionTimeoutMS: 10_000 });
  await client.connect();
  dbName = unique("kitupdates");
});
afterAll(async () => {
  await client
    .db(dbName)
    .dropDatabase()
    .catch(() => undefined);
  await client.close();
});

describe("the MongoDB-protocol server under many concurrent updates", () => {
  it("answers every updateOne, findOneAndUpdate and many-statement bulk update in flight at once", async () => {
    const coll = client.db(dbName).collection<Doc>("items");
    const ids = Array.from({ length: IN_FLIGHT * 2 }, (_, i) => `d${i}`);
    await coll.insertMany(ids.map((_id) => ({ _id, n: 0 })));

    const singles = ids
      .slice(0, IN_FLIGHT)
      .map((_id, i) =>
        i % 3 === 0
          ? coll.findOneAndUpdate({ _id }, { $set: { n: 1 } }).then(() => undefined)
          : coll.updateOne({ _id }, { $set: { n: 1 } }).then(() => undefined),
      );
    const bulks = [0, 1, 2, 3].map((k) =>
      coll
        .bulkWrite(
          ids
            .slice(IN_FLIGHT + k * (IN_FLIGHT / 4), IN_FLIGHT + (k + 1) * (IN_FLIGHT / 4))
            .map((_id) => ({ updateOne: { filter: { _id }, update: { $set: { n: 1 } } } })),
          { ordered: false },
        )
        .then(() => undefined),
    );
    await Promise.all([...singles, ...bulks]);

    expect(await coll.countDocuments({ n: 1 })).toBe(ids.length);
  }, 60_000);
});
