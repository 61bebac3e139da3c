// A filtered, newest-first page of 20 findings of one organization on FerretDB (on PostgreSQL, its
// only backend), timed as the organization grows (the ready line's note: scripts/stack/index.ts
// FERRETDB_SCALE_NOTE). Whether the filter, sort and limit reach PostgreSQL's indexes depends on
// the pushdown (scripts/ferretdb/overlay) and on the fields' declared types; this page declares
// none, so it shows the page as FerretDB serves an undeclared collection.
//
//   npx tsx bench/database/sorted-page.ts
import { performance } from "node:perf_hooks";
import { ensureIndexes } from "@vulnscan/kit";
import { MongoClient } from "mongodb";
import { startStack } from "../../scripts/stack/index.js";

const SIZES = [2000, 5000, 10000, 20000];

const stack = await startStack({ kafka: false, ferretdb: "postgresql", log: () => undefined });
const client = new MongoClient(stack.mongoUrl);
try {
  const db = client.db("scale");
  const coll = db.collection<{ _id: string }>("findings");
  await ensureIndexes(db, [{ collection: "findings", key: { org_id: 1, status: 1, _id: -1 } }], {
    ferretdbPostgresqlUrl: stack.serviceEnv.FERRETDB_POSTGRESQL_URL ?? "",
  });
  let n = 0;
  for (const size of SIZES) {
    const docs = [];
    for (; n < size; n++) {
      docs.push({
        _id: `f${String(n).padStart(7, "0")}`,
        org_id: "org_a",
        status: n % 2 ? "open" : "resolved",
        title: `Finding ${n} with a typical title`,
        description: "x".repeat(300),
        detected_at: new Date(Date.UTC(2025, 0, 1) + n * 1000),
      });
    }
    for (let i = 0; i < docs.length; i += 1000) await coll.insertMany(docs.slice(i, i + 1000));
    const times: number[] = [];
    for (let r = 0; r < 3; r++) {
      const t0 = performance.now();
      await coll.find({ org_id: "org_a", status: "open" }).sort({ _id: -1 }).limit(20).toArray();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`${stack.mongoServer}: ${size} findings, ${size / 2} match the filter: page of 20, median of 3: ${times[1]!.toFixed(0)} ms`);
  }
} finally {
  await client.close();
  await stack.stop();
}
