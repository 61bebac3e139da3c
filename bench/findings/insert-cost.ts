// What a finding insert costs on the fallback, part by part: the same 5,000 finding documents
// bulk-inserted (batches of 500) into a collection with nothing, with the findings service's
// indexes, and with its indexes and field declarations (CHECK constraints).
// Usage: npx tsx bench/findings/insert-cost.ts   (MONGO_URL / FERRETDB_POSTGRESQL_URL of a running stack, else starts one)
import { ensureIndexes, newId } from "@vulnscan/kit";
import { MongoClient } from "mongodb";
import { startStack } from "../../scripts/stack/index.js";
import { newFinding } from "../../services/findings/src/domain/changes.js";
import { fingerprint } from "../../services/findings/src/domain/fingerprint.js";
import { SEVERITIES, type DetectionFacts } from "../../services/findings/src/domain/types.js";
import { findingFields, findingIndexes } from "../../services/findings/src/storage/indexes.js";

const N = 5000;
const stack = process.env.MONGO_URL ? undefined : await startStack({ log: (l) => process.stderr.write(`[stack] ${l}\n`), clamav: false });
if (stack) Object.assign(process.env, stack.serviceEnv);
const client = new MongoClient(process.env.MONGO_URL ?? stack!.mongoUrl);
const db = client.db(`insertcost_${Date.now().toString(36)}`);
const facts = (i: number): DetectionFacts => ({
  detection_id: `d-${i}`,
  org_id: "org_bench",
  scan_id: `scan_${Math.floor(i / 500)}`,
  target: `host-${i % 200}.example.test`,
  template_id: `check-${i}`,
  title: `Benchmark finding ${i}`,
  severity: SEVERITIES[i % 5]!,
  cvss_score: (i % 100) / 10,
  cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
  cwe_ids: ["CWE-79"],
  cve_ids: i % 10 === 0 ? [`CVE-2024-${10000 + (i % 5000)}`] : [],
  tool: ["nuclei", "nmap", "tls", "headers"][i % 4]!,
  affected_component: `https://host-${i % 200}.example.test/path/${i}`,
  description: "x".repeat(200),
  impact: "harm",
  remediation: { summary: "Fix it", steps: ["a", "b"], code_example: "", references: [] },
  evidence: { request: "GET /", response: "200", screenshot_url: null },
  frameworks: [{ name: "pci_dss", controls: ["6.2.4"] }],
  epss_score: 0.05,
  kev: false,
  detected_at: new Date(),
});
async function run(name: string, prepare: (coll: string) => Promise<unknown>) {
  const coll = `c_${name}`;
  await prepare(coll);
  const docs = Array.from({ length: N }, (_, i) => newFinding(facts(i), fingerprint(facts(i)), newId("finding", Date.now() + i), new Date()).doc);
  const t = performance.now();
  for (let at = 0; at < N; at += 500) await db.collection(coll).insertMany(docs.slice(at, at + 500) as never[], { ordered: false });
  const s = (performance.now() - t) / 1000;
  console.log(`${name.padEnd(28)} ${(N / s).toFixed(0).padStart(6)} docs/s`);
}
const specs = (coll: string) => findingIndexes.filter((x) => x.collection === "findings").map((x) => ({ ...x, collection: coll }));
try {
  await run("no indexes", (c) => db.createCollection(c));
  await run("indexes", (c) => ensureIndexes(db, specs(c)));
  await run("indexes + declarations", (c) => ensureIndexes(db, specs(c), { fields: { [c]: findingFields.findings! } }));
} finally {
  await db.dropDatabase();
  await client.close();
  await stack?.stop();
}
