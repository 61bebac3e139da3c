// Seeds the organization straight into the services' databases (the findings and scans
// databases), in large unordered bulk inserts, then rebuilds the findings rollups from the
// stored findings with findings' operator operation (what `npm run admin -- rebuild-rollups`
// runs), so stats and list totals are exact. Resumable: documents have deterministic ids, a run
// restarts a little before where the stored count says it stopped, and duplicates are skipped.
import { rebuildRollups } from "@vulnscan/findings/admin";
import { isDuplicateKey } from "@vulnscan/kit";
import { type Db, MongoClient, type MongoBulkWriteError } from "mongodb";
import { FINDINGS, ROLLUPS } from "../../services/findings/src/storage/indexes.js";
import { Collections } from "../../services/scan-orchestrator/src/storage/mongo-store.js";
import { type DatasetSpec, type Expected, findingAt, scanAt } from "./dataset.js";

const BATCH = 1000;
/** Batches in flight at once. */
const PARALLEL = 2;

export interface SeedReport {
  skipped: boolean;
  findingsInserted: number;
  scansInserted: number;
  seconds: { findings: number; scans: number; rollups: number; total: number };
}

/** insertMany, unordered; duplicate keys (a resumed batch) are not errors. */
async function insertAll(db: Db, collection: string, docs: object[]): Promise<number> {
  if (docs.length === 0) return 0;
  try {
    return (await db.collection(collection).insertMany(docs as never[], { ordered: false })).insertedCount;
  } catch (err) {
    const e = err as MongoBulkWriteError;
    const writeErrors = [e.writeErrors ?? []].flat() as { code?: number }[];
    if (writeErrors.length > 0 && writeErrors.every((w) => w.code === 11000)) return e.insertedCount ?? 0;
    if (writeErrors.length === 0 && isDuplicateKey(err)) return e.insertedCount ?? 0;
    throw err;
  }
}

/** Runs `work(from, to)` over [start, n) in batches, PARALLEL at a time, saying progress now and then. */
async function inBatches(start: number, n: number, work: (from: number, to: number) => Promise<number>, say: (done: number) => void) {
  let next = start;
  let inserted = 0;
  let lastSaid = Date.now();
  const worker = async () => {
    while (next < n) {
      const from = next;
      next = Math.min(n, next + BATCH);
      const added = await work(from, next);
      inserted += added;
      if (Date.now() - lastSaid > 10_000) {
        lastSaid = Date.now();
        say(next);
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return inserted;
}

export interface SeedTarget {
  mongoUrl: string;
  dbPrefix: string;
}

/** How many of the organization's findings and scans are stored, and whether its rollups exist. */
export async function stored(dbs: { findings: Db; scans: Db }, orgId: string) {
  const [findings, scans, head] = await Promise.all([
    dbs.findings.collection(FINDINGS).countDocuments({ org_id: orgId }),
    dbs.scans.collection(Collections.scans).countDocuments({ org_id: orgId }),
    dbs.findings.collection(ROLLUPS).findOne({ _id: orgId as never }),
  ]);
  return { findings, scans, rollups: head !== null };
}

export async function seed(target: SeedTarget, spec: DatasetSpec, want: Expected, log: (s: string) => void): Promise<SeedReport> {
  const client = new MongoClient(target.mongoUrl, { appName: "bench-capacity-seed" });
  await client.connect();
  const dbs = { findings: client.db(`${target.dbPrefix}findings`), scans: client.db(`${target.dbPrefix}scans`) };
  const t0 = Date.now();
  try {
    // No ensureIndexes here: the services declared their indexes (and, on PostgreSQL, what
    // FerretDB needs) when they started, before this runs.
    const have = await stored(dbs, spec.orgId);
    if (have.findings === spec.findings && have.scans === spec.scans && have.rollups) {
      log(`the organization already holds ${have.findings} findings and ${have.scans} scans with their rollups: seeding skipped`);
      return { skipped: true, findingsInserted: 0, scansInserted: 0, seconds: { findings: 0, scans: 0, rollups: 0, total: (Date.now() - t0) / 1000 } };
    }
    if (have.findings > spec.findings || have.scans > spec.scans)
      throw new Error(`the organization holds more than asked (${have.findings} findings, ${have.scans} scans): not this dataset`);

    // Scans first (the smaller part): each one document, as its transitions left it.
    const s0 = Date.now();
    const scanStart = Math.max(0, have.scans - PARALLEL * BATCH);
    if (have.scans > 0) log(`resuming scans at ${scanStart} (${have.scans} stored)`);
    const scansInserted = await inBatches(
      scanStart,
      spec.scans,
      async (from, to) => {
        const built = Array.from({ length: to - from }, (_, k) => scanAt(spec, from + k, want.perScan[from + k]!));
        return insertAll(
          dbs.scans,
          Collections.scans,
          built.map((b) => b.scan),
        );
      },
      (sent) => log(`scans: ${sent}/${spec.scans} sent`),
    );
    const scanSecs = (Date.now() - s0) / 1000;
    log(`scans: ${spec.scans} stored (${scansInserted} inserted) in ${scanSecs.toFixed(1)} s`);

    const f0 = Date.now();
    const findingStart = Math.max(0, have.findings - PARALLEL * BATCH);
    if (have.findings > 0) log(`resuming findings at ${findingStart} (${have.findings} stored)`);
    const findingsInserted = await inBatches(
      findingStart,
      spec.findings,
      async (from, to) => {
        return insertAll(
          dbs.findings,
          FINDINGS,
          Array.from({ length: to - from }, (_, k) => findingAt(spec, from + k)),
        );
      },
      (sent) => log(`findings: ${sent}/${spec.findings} sent (${Math.round((sent - findingStart) / ((Date.now() - f0) / 1000))}/s)`),
    );
    const findingSecs = (Date.now() - f0) / 1000;
    log(`findings: ${spec.findings} stored (${findingsInserted} inserted) in ${findingSecs.toFixed(1)} s (${Math.round(findingsInserted / findingSecs)}/s)`);

    const r0 = Date.now();
    const rebuilt = await rebuildRollups(dbs.findings, spec.orgId);
    const rollupSecs = (Date.now() - r0) / 1000;
    log(`rollups rebuilt from ${rebuilt.findings} findings in ${rollupSecs.toFixed(1)} s (${rebuilt.documents} documents)`);
    if (rebuilt.findings !== spec.findings) throw new Error(`rollups counted ${rebuilt.findings} findings, expected ${spec.findings}`);
    return {
      skipped: false,
      findingsInserted,
      scansInserted,
      seconds: { findings: findingSecs, scans: scanSecs, rollups: rollupSecs, total: (Date.now() - t0) / 1000 },
    };
  } finally {
    await client.close();
  }
}
