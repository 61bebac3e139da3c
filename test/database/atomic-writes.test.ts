import { createMongo, type MongoHandle } from "@vulnscan/kit";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../support/names.js";

/*
 * Single-document writes never lose a concurrent update, on whichever server the run has
 * (MongoDB, or the fallback FerretDB whose update and findAndModify hold a per-collection lock
 * from read to write): this is what lets the services write as a MongoDB engineer would, with
 * plain `$inc`, `findOneAndUpdate` and version-guarded updates instead of claims and logs.
 * Each case starts all its writes at once, on a pool as wide as the writes.
 */

interface Counter {
  _id: string;
  n: number;
  version?: number;
  owner?: string;
}

let mongo: MongoHandle | undefined;

beforeAll(() => {
  mongo = createMongo(inject("mongoUrl"), unique("atomic"), "atomic-writes-test");
});

afterAll(async () => {
  await mongo?.db.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

const counters = () => mongo!.db.collection<Counter>("counters");

describe(`single-document writes are atomic (${inject("mongoServer")})`, () => {
  it("200 concurrent $inc end at 200", async () => {
    await counters().insertOne({ _id: "inc", n: 0 });
    await Promise.all(Array.from({ length: 200 }, () => counters().updateOne({ _id: "inc" }, { $inc: { n: 1 } })));
    expect((await counters().findOne({ _id: "inc" }))?.n).toBe(200);
  });

  it("100 concurrent findOneAndUpdate $inc end at 100, each seeing a different value", async () => {
    await counters().insertOne({ _id: "fam", n: 0 });
    const before = await Promise.all(
      Array.from({ length: 100 }, () => counters().findOneAndUpdate({ _id: "fam" }, { $inc: { n: 1 } }, { returnDocument: "before" })),
    );
    expect((await counters().findOne({ _id: "fam" }))?.n).toBe(100);
    expect(new Set(before.map((d) => d?.n)).size).toBe(100);
  });

  it("20 version-checked writers: exactly one wins each version", async () => {
    await counters().insertOne({ _id: "ver", n: 0, version: 0 });
    for (let version = 0; version < 5; version++) {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          counters().updateOne({ _id: "ver", version }, { $set: { version: version + 1, owner: `writer-${i}` }, $inc: { n: 1 } }),
        ),
      );
      expect(results.filter((r) => r.modifiedCount === 1)).toHaveLength(1);
    }
    expect(await counters().findOne({ _id: "ver" })).toMatchObject({ n: 5, version: 5 });
  });

  it("50 concurrent upserts of one new document make one document holding all 50", async () => {
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => counters().updateOne({ _id: "upsert" }, { $inc: { n: 1 } }, { upsert: true })));
    // MongoDB may refuse a racing upsert with a duplicate key (the caller retries); none may be lost.
    const applied = results.filter((r) => r.status === "fulfilled").length;
    expect(applied).toBeGreaterThanOrEqual(49);
    expect(await counters().countDocuments({ _id: "upsert" })).toBe(1);
    expect((await counters().findOne({ _id: "upsert" }))?.n).toBe(applied);
  });

  it("3,000 $inc from 50 writers over 100 documents lose none", async () => {
    await counters().insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: `spread-${i}`, n: 0 })));
    await Promise.all(
      Array.from({ length: 50 }, async (_, w) => {
        for (let k = 0; k < 60; k++) await counters().updateOne({ _id: `spread-${(w * 7 + k) % 100}` }, { $inc: { n: 1 } });
      }),
    );
    const docs = await counters()
      .find({ _id: { $regex: /^spread-/ } })
      .toArray();
    expect(docs.reduce((sum, d) => sum + d.n, 0)).toBe(3000);
  });

  it("40 concurrent bulk writes of 8 $inc each over 20 shared documents lose none and never wait on each other for good", async () => {
    await counters().insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: `bulk-${i}`, n: 0 })));
    // Each bulk write's documents overlap others' in a different order: a lock per document taken
    // in statement order would deadlock here.
    await Promise.all(
      Array.from({ length: 40 }, (_, w) =>
        counters().bulkWrite(
          Array.from({ length: 8 }, (_, k) => ({ updateOne: { filter: { _id: `bulk-${(w * 3 + (w % 2 ? -k : k) + 20) % 20}` }, update: { $inc: { n: 1 } } } })),
          { ordered: false },
        ),
      ),
    );
    const docs = await counters()
      .find({ _id: { $regex: /^bulk-/ } })
      .toArray();
    expect(docs.reduce((sum, d) => sum + d.n, 0)).toBe(320);
  });
});
