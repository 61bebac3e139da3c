import { MongoClient, type Collection, type Db, type Document, type Filter, type OptionalUnlessRequiredId, type Sort, type WithId } from "mongodb";
import { ensureFerretdbPostgres, type SkippedDeclaration } from "./ferretdb-pg.js";
import { storageSettings } from "./config.js";
import type { FieldTypes } from "./field-types.js";
import type { Logger } from "./logger.js";
import type { IndexSpec } from "./index-spec.js";
import { recordQueryShapes } from "./query-shapes.js";

export type { IndexSpec } from "./index-spec.js";

/*
 * Every service owns one database. The code uses only what both MongoDB and FerretDB v1
 * support: no multi-document transactions, change streams, $lookup/$facet or TTL indexes.
 * Atomicity therefore comes from single-document writes (state + pending event together).
 */

export interface MongoHandle {
  client: MongoClient;
  db: Db;
  ping(): Promise<void>;
  /**
   * Pings through a connection of its own (one, kept open) for readiness: a pool queued up with
   * the service's own work (the dispatcher replaying a topic at start) must not make a database
   * that answers look down. A stuck main client is the watchdog's business (client-watchdog.ts).
   */
  pingDatabase(): Promise<void>;
  /** Pings through a new client, closed at once: tells a stuck client from a server that is down. */
  pingFresh(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The client connects lazily, so a service can start (and report not-ready) before Mongo answers.
 * With VULNSCAN_QUERY_SHAPES_FILE set (test runs), the shape of every query it sends is recorded
 * there under `appName` for the index-coverage check (test/support/index-check.ts).
 */
export function createMongo(url: string, dbName: string, appName: string): MongoHandle {
  const shapesFile = storageSettings().VULNSCAN_QUERY_SHAPES_FILE;
  const client = new MongoClient(url, { appName, serverSelectionTimeoutMS: 5000, connectTimeoutMS: 5000, monitorCommands: Boolean(shapesFile) });
  if (shapesFile) recordQueryShapes(client, appName, shapesFile);
  const db = client.db(dbName);
  let health: MongoClient | undefined;
  let closing = false;
  // The driver (6.x) closes its topology when the first connection fails (a database that starts
  // later, or a connect timeout on a loaded machine) but keeps it: every later operation then
  // fails with "Topology is closed" for the life of the process. Connecting again replaces it;
  // a failed attempt closes it again, so this retries at the pace of serverSelectionTimeoutMS.
  client.on("topologyClosed", () => {
    if (!closing) setTimeout(() => void client.connect().catch(() => undefined), 200).unref();
  });
  return {
    client,
    db,
    ping: async () => {
      await db.command({ ping: 1 });
    },
    pingDatabase: async () => {
      health ??= new MongoClient(url, { appName: `${appName}-health`, maxPoolSize: 1, serverSelectionTimeoutMS: 5000, connectTimeoutMS: 5000 });
      await health.db(dbName).command({ ping: 1 });
    },
    pingFresh: async () => {
      const fresh = new MongoClient(url, { appName: `${appName}-probe`, serverSelectionTimeoutMS: 3000, connectTimeoutMS: 3000 });
      try {
        await fresh.db(dbName).command({ ping: 1 });
      } finally {
        await fresh.close().catch(() => undefined);
      }
    },
    close: async () => {
      closing = true;
      await health?.close().catch(() => undefined);
      await client.close();
    },
  };
}

export interface EnsureIndexesOptions {
  /**
   * The PostgreSQL behind FerretDB, when FerretDB runs on it: the field declarations become
   * CHECK constraints and the other index-key fields get GIN expression indexes there
   * (ferretdb-pg.ts). Defaults to FERRETDB_POSTGRESQL_URL, which the stack scripts pass to
   * every process they start.
   */
  ferretdbPostgresqlUrl?: string;
  /**
   * The type class of the fields the code queries, by collection (field-types.ts). Only
   * FerretDB on PostgreSQL uses them; MongoDB plans without.
   */
  fields?: FieldTypes;
  /** Told about each declaration that could not be added. */
  logger?: Pick<Logger, "warn" | "info">;
}

export interface EnsureIndexesResult {
  /** Declarations that stored documents break: those fields get no pushdown (FerretDB on PostgreSQL only). */
  skipped: SkippedDeclaration[];
}

/**
 * A key with a field declared `string[]`: on PostgreSQL FerretDB's btree would hold the whole
 * array, which serves no element match (the GIN index does) and which the planner took to walk a
 * whole organization for `{org_id, scan_ids}` (a count of one scan's findings read 100,000 rows).
 */
const keysArrayField = (spec: IndexSpec, fields: FieldTypes = {}) =>
  Object.keys(spec.key as Record<string, unknown>).some((f) => fields[spec.collection]?.[f] === "string[]");

const createCollection = (db: Db, name: string) =>
  db.createCollection(name).catch((err: unknown) => {
    if ((err as { codeName?: string }).codeName !== "NamespaceExists") throw err;
  });

export async function ensureIndexes(db: Db, specs: IndexSpec[], opts: EnsureIndexesOptions = {}): Promise<EnsureIndexesResult> {
  const pgUrl = opts.ferretdbPostgresqlUrl ?? storageSettings().FERRETDB_POSTGRESQL_URL;
  for (const spec of specs) {
    if (pgUrl && (spec.arrays || keysArrayField(spec, opts.fields))) {
      await createCollection(db, spec.collection);
      continue;
    }
    await createDeclaredIndex(db, spec, opts.logger);
  }
  if (!pgUrl) return { skipped: [] };
  // Constraints go on a collection's table, which FerretDB makes with the collection.
  const fields = opts.fields ?? {};
  for (const collection of Object.keys(fields)) await createCollection(db, collection);
  const { skipped } = await ensureFerretdbPostgres(pgUrl, db.databaseName, specs, fields);
  for (const s of skipped) {
    opts.logger?.warn(
      { collection: s.collection, field: s.field, class: s.fieldClass, reason: s.reason },
      "field declaration skipped: queries on this field are not pushed down to PostgreSQL",
    );
  }
  return { skipped };
}

/** MongoDB's codes for an index that exists under another name (85) or with other keys or options (86). */
const INDEX_CONFLICTS = new Set([85, 86]);

/**
 * Creates a declared index. A service owns its indexes, so one left by an earlier version with
 * the same keys under another name, or the same name with other keys or options, is replaced: a
 * service must not stay down on a database an older release wrote (`npm start` keeps its data).
 */
async function createDeclaredIndex(db: Db, spec: IndexSpec, logger?: Pick<Logger, "info">): Promise<void> {
  const coll = db.collection(spec.collection);
  const options = spec.options ?? {};
  try {
    await coll.createIndex(spec.key, options);
    return;
  } catch (err) {
    if (!INDEX_CONFLICTS.has((err as { code?: number }).code ?? 0)) throw err;
  }
  const sameKey = (key: Document) => JSON.stringify(key) === JSON.stringify(spec.key);
  const stale = (await coll.indexes()).filter((i) => i.name !== "_id_" && (sameKey(i.key) || i.name === options.name));
  for (const i of stale) {
    logger?.info({ collection: spec.collection, index: i.name }, "replacing an index an earlier version declared differently");
    await coll.dropIndex(i.name!);
  }
  await coll.createIndex(spec.key, options);
}

/** Duplicate-key errors are how unique indexes say "already there"; callers often expect them. */
export function isDuplicateKey(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === 11000;
}

/**
 * An upsert keyed by a deterministic `_id`: `write(true)` upserts; when that hits the `_id` (a
 * racing first writer created the document, or it exists and a guard in the filter such as
 * `n: {$lt: limit}` fails, so the upsert tried to insert it again), `write(false)` runs once as a
 * plain update and decides exactly. MongoDB retries only some such upserts itself; FerretDB none.
 */
export async function upsertOrUpdate<T>(write: (upsert: boolean) => Promise<T>): Promise<T> {
  try {
    return await write(true);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return write(false);
  }
}

/** Inserts `doc` unless its unique key is taken: true when inserted, false when already there. */
export async function insertOnce<D extends Document>(coll: Collection<D>, doc: OptionalUnlessRequiredId<D>): Promise<boolean> {
  try {
    await coll.insertOne(doc);
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/** One page of an offset-paged list (the filter's documents in `sort` order) with the filter's total, read together. */
export async function pageOf<T extends Document>(
  coll: Collection<T>,
  filter: Filter<T>,
  sort: Sort,
  skip: number,
  limit: number,
  projection?: Document,
): Promise<{ items: WithId<T>[]; total: number }> {
  const found = coll.find(filter, projection ? { projection } : {});
  const [items, total] = await Promise.all([found.sort(sort).skip(skip).limit(limit).toArray(), coll.countDocuments(filter)]);
  return { items, total };
}
