import { createMongo, ensureIndexes, type MongoHandle } from "@vulnscan/kit";
import { BSON, type Document } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { declaredIndexes } from "./support/declared-indexes.js";
import { checkShape } from "./support/index-check.js";
import { unique } from "./support/names.js";
import { readSnapshot } from "./support/query-coverage.js";

/*
 * Where the server is real MongoDB, its planner must agree with the index-coverage rule: each
 * recorded query (test/support/query-shapes.json, one concrete sample per shape), run against
 * the service's declared indexes, is planned without a COLLSCAN. FerretDB has no such planner,
 * so there the unit test (test/unit/index-coverage.test.ts) is the guard.
 */

function stages(plan: Document | undefined, out: string[] = []): string[] {
  if (!plan) return out;
  if (typeof plan.stage === "string") out.push(plan.stage);
  for (const child of [plan.inputStage, ...((plan.inputStages as Document[] | undefined) ?? [])]) stages(child as Document | undefined, out);
  if (plan.queryPlan) stages(plan.queryPlan as Document, out); // slot-based engine
  return out;
}

let mongo: MongoHandle | undefined;
let isMongodb = false;

beforeAll(async () => {
  if (inject("mongoKind") === "ferretdb") return;
  mongo = createMongo(inject("mongoUrl"), unique("explain"), "index-coverage-test");
  const info = await mongo.db.admin().command({ buildInfo: 1 });
  isMongodb = info.ferretdbVersion === undefined && !("ferretdb" in info);
});

afterAll(async () => {
  await mongo?.close();
});

describe("MongoDB plans every recorded query shape with an index", () => {
  it("never plans a COLLSCAN for a shape that is not a declared scan", async (ctx) => {
    if (!mongo || !isMongodb) {
      ctx.skip(`the server is ${inject("mongoServer")}, not MongoDB: explain() cannot show index use; the unit test guards the rule`);
      return;
    }
    const scans: string[] = [];
    for (const [service, declared] of Object.entries(declaredIndexes)) {
      const shapes = readSnapshot().filter(
        (s) => s.service === service && !checkShape(s, declared.indexes, declared.allowances).by?.startsWith("allowed scan"),
      );
      if (shapes.length === 0) continue;
      const db = mongo.client.db(unique(`explain_${service.replaceAll("-", "_")}`));
      try {
        await ensureIndexes(db, declared.indexes, { fields: declared.fields });
        for (const shape of shapes) {
          const { filter, sort } = BSON.EJSON.parse(shape.sample, { relaxed: false }) as { filter: Document; sort: Document };
          const coll = db.collection(shape.collection);
          await coll.insertOne({ placeholder: true }); // a collection that exists, so the planner plans
          const explained = await coll.find(filter).sort(sort).explain("queryPlanner");
          const winning = (explained.queryPlanner as Document).winningPlan as Document;
          if (stages(winning).includes("COLLSCAN")) scans.push(`${service}: ${shape.op} on ${shape.collection} ${shape.sample}`);
        }
      } finally {
        await db.dropDatabase();
      }
    }
    expect(scans).toEqual([]);
  });
});
