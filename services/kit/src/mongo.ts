import { MongoClient, type CreateIndexesOptions, type Db, type IndexSpecification } from "mongodb";

/*
 * Every service owns one database. The code uses only what both MongoDB and FerretDB v1
 * support: no multi-document transactions, change streams, $lookup/$facet or TTL indexes.
 * Atomicity therefore comes from single-document writes (state + pending event together).
 */

export interface MongoHandle {
  client: MongoClient;
  db: Db;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The client connects lazily, so a service can start (and report not-ready) before Mongo answers. */
export function createMongo(url: string, dbName: string, appName: string): MongoHandle {
  const client = new MongoClient(url, { appName, serverSelectionTimeoutMS: 5000, connectTimeoutMS: 5000 });
  const db = client.db(dbName);
  return {
    client,
    db,
    ping: async () => {
      await db.command({ ping: 1 });
    },
    close: () => client.close(),
  };
}

export interface IndexSpec {
  collection: string;
  key: IndexSpecification;
  options?: CreateIndexesOptions;
}

export async function ensureIndexes(db: Db, specs: IndexSpec[]): Promise<void> {
  for (const spec of specs) {
    await db.collection(spec.collection).createIndex(spec.key, spec.options ?? {});
  }
}

/** Duplicate-key errors are how unique indexes say "already there"; callers often expect them. */
export function isDuplicateKey(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === 11000;
}
