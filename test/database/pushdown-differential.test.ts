import { createMongo, type FieldClass, type MongoHandle } from "@vulnscan/kit";
import { BSON, type Collection, type Document } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { declaredIndexes } from "../support/declared-indexes.js";
import { unique } from "../support/names.js";
import { readSnapshot } from "../support/query-coverage.js";
import { parseSample, rng, sampleValues, seedService } from "./fixture.js";

/*
 * The fallback's pushdown (FerretDB on PostgreSQL executing declared filters, sorts, skips, limits
 * and counts in SQL) answers exactly what FerretDB's own Go path answers: every recorded query
 * shape, in both sort directions, with skips of 0, 20 and 5,000, and random queries over the
 * declared fields, are run twice against the same server, once with pushdown and once with the
 * comment that turns it off for that query, and must give the same documents in the same order.
 * The data has missing fields, nulls and many ties (fixture.ts). Where a sort leaves ties (no
 * `_id` at its end), MongoDB leaves their order open, so the sort keys are compared in order and
 * the documents as sets.
 */

const onFallback = inject("mongoKind") === "ferretdb" && Boolean(process.env.FERRETDB_POSTGRESQL_URL);
const OFF = "vulnscan:no-pushdown";
const SIZE = 6_000;

const shapes = readSnapshot();
const samples = sampleValues(shapes);

let mongo: MongoHandle | undefined;
const dbs = new Map<string, string>();

beforeAll(async () => {
  if (!onFallback) return;
  mongo = createMongo(inject("mongoUrl"), "admin", "pushdown-differential-test");
  for (const service of new Set(shapes.map((s) => s.service))) {
    const dbName = unique(`diff_${service.replaceAll("-", "_")}`);
    dbs.set(service, dbName);
    await seedService(mongo.client.db(dbName), declaredIndexes[service]!, samples, () => SIZE);
  }
}, 900_000);

afterAll(async () => {
  for (const dbName of dbs.values())
    await mongo?.client
      .db(dbName)
      .dropDatabase()
      .catch(() => undefined);
  await mongo?.close();
});

const ejson = (v: unknown) => BSON.EJSON.stringify(v as Document, { relaxed: false });

function sortKeys(doc: Document, sort: Document): string {
  return ejson(Object.keys(sort).map((f) => doc[f] ?? null));
}

interface Query {
  filter: Document;
  sort: Document;
  skip: number;
  limit: number;
  /** An exclusion projection (the fallback leaves those fields out in SQL when nothing reads them). */
  projection?: Document;
}

/** Runs q with pushdown on and off; returns what differs, if anything. */
async function compare(coll: Collection, q: Query): Promise<string | undefined> {
  const options = { sort: q.sort, skip: q.skip, limit: q.limit, ...(q.projection ? { projection: q.projection } : {}) };
  const [on, off] = await Promise.all([coll.find(q.filter, options).toArray(), coll.find(q.filter, { ...options, comment: OFF }).toArray()]);
  const what = `${coll.collectionName} ${ejson(q)}`;
  if (on.length !== off.length) return `${what}: ${on.length} documents with pushdown, ${off.length} without`;
  const sortFields = Object.keys(q.sort);
  if (sortFields.at(-1) === "_id") {
    if (ejson(on) !== ejson(off)) return `${what}: other documents or order`;
  } else {
    if (sortFields.length > 0 && ejson(on.map((d) => sortKeys(d, q.sort))) !== ejson(off.map((d) => sortKeys(d, q.sort))))
      return `${what}: sort keys in another order`;
    // ties (or no sort): the same set unless a limit or skip cut through them
    const ids = (docs: Document[]) => docs.map((d) => ejson(d._id)).sort();
    if (q.skip === 0 && q.limit === 0 && ejson(ids(on)) !== ejson(ids(off))) return `${what}: other documents`;
  }
  // counts: the countDocuments pipeline and the count command, against the Go path's length
  const counted = await coll.countDocuments(q.filter, { skip: q.skip, ...(q.limit ? { limit: q.limit } : {}) });
  if (counted !== off.length) return `${what}: countDocuments ${counted}, documents ${off.length}`;
  return undefined;
}

const reversed = (sort: Document) => Object.fromEntries(Object.entries(sort).map(([f, d]) => [f, d === -1 ? 1 : -1]));

describe.skipIf(!onFallback)("pushdown on the fallback answers as FerretDB's own path does", () => {
  it("for every recorded query shape, both sort directions, skips of 0, 20 and 5,000", { timeout: 600_000 }, async () => {
    const problems: string[] = [];
    let runs = 0;
    for (const [i, shape] of shapes.entries()) {
      const { filter, sort } = parseSample(shape);
      const coll = mongo!.client.db(dbs.get(shape.service)!).collection(shape.collection);
      const skip = [0, 20, 5000][i % 3]!;
      for (const s of Object.keys(sort ?? {}).length ? [sort, reversed(sort)] : [{}]) {
        for (const limit of [21, 0]) {
          runs++;
          const problem = await compare(coll, { filter, sort: s, skip, limit });
          if (problem) problems.push(problem);
        }
      }
      // as the lists read: without some fields (the last two of a stored document)
      const sample = await coll.findOne({}, { comment: OFF });
      const dropped = Object.keys(sample ?? {})
        .filter((k) => k !== "_id")
        .slice(-2);
      if (dropped.length > 0) {
        runs++;
        const problem = await compare(coll, { filter, sort: sort ?? {}, skip: 0, limit: 21, projection: Object.fromEntries(dropped.map((k) => [k, 0])) });
        if (problem) problems.push(problem);
      }
    }
    expect(runs).toBeGreaterThan(400);
    expect(problems).toEqual([]);
  });

  it("for random filters, sorts, skips and limits over the declared fields", { timeout: 300_000 }, async () => {
    const problems: string[] = [];
    const r = rng(42);
    const pick = <T>(list: T[]): T => list[Math.floor(r() * list.length)]!;
    const targets: Array<[string, string]> = [
      ["findings", "findings"],
      ["scan-orchestrator", "scans"],
      ["webhook-dispatcher", "deliveries"],
      ["auth", "sessions"],
      ["grc", "evidence"],
    ];
    let runs = 0;
    for (const [service, collection] of targets) {
      const fields = Object.entries(declaredIndexes[service]!.fields[collection]!).filter(([, c]) => c !== "string[]") as Array<[string, FieldClass]>;
      const coll = mongo!.client.db(dbs.get(service)!).collection(collection);
      const docs = await coll.find({}, { limit: 300, comment: OFF }).toArray();
      const existing = (field: string) => pick(docs)[field] ?? null;
      for (let n = 0; n < 40; n++) {
        const filter: Document = {};
        for (let t = 0; t < 1 + Math.floor(r() * 3); t++) {
          const [field] = pick(fields);
          const v = existing(field);
          const op = pick(["eq", "eq", "in", "gt", "gte", "lt", "lte", "ne", "null"]);
          if (op === "eq") filter[field] = v;
          else if (op === "null") filter[field] = null;
          else if (op === "in") filter[field] = { $in: [v, existing(field), existing(field)] };
          else if (v !== null) filter[field] = { [`$${op}`]: v };
        }
        if (r() < 0.2) {
          // the lists' keyset anchor: after (x, id) in (field, _id) order
          const [field] = pick(fields);
          const anchor = pick(docs);
          if (anchor[field] !== undefined && anchor[field] !== null)
            filter.$or = [{ [field]: { $gt: anchor[field] } }, { [field]: anchor[field], _id: { $gt: anchor._id } }];
        }
        const sort: Document = {};
        for (let k = 0; k < Math.floor(r() * 3); k++) sort[pick(fields)[0]] = pick([1, -1]);
        if (r() < 0.7) sort._id = pick([1, -1]);
        runs++;
        const problem = await compare(coll, { filter, sort, skip: pick([0, 0, 20, 5000]), limit: pick([20, 0]) });
        if (problem) problems.push(problem);
      }
    }
    expect(runs).toBe(200);
    expect(problems).toEqual([]);
  });
});
