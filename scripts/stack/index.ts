// Local Kafka + MongoDB-protocol servers as plain processes (the machines here run no Docker
// engine; DESIGN.md §4). Installs what is missing into a cache outside git, starts the
// servers on loopback with free ports, waits until they answer and stops only what it started.
//
// The database, in order: MONGO_URL; a `mongod` on the PATH; a MongoDB Community binary
// downloaded once into the cache (where MongoDB's site answers); FerretDB v1 on PostgreSQL or
// SQLite (VULNSCAN_FERRETDB_BACKEND; see docs/decisions.md "Database" for the measured choice).
//
// Only Node built-ins and (loaded lazily, optional) mongodb-memory-server-core: this module runs
// before `npm install` has necessarily settled the workspaces.

import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { cacheDir } from "../lib/stack-state.ts";
import { ensureClamd, startClamd } from "./clamav.ts";
import { ensureFerretdb, FERRETDB_VERSION, startFerretdb, type FerretdbBackend } from "./ferretdb.ts";
import { ensureKafka, KAFKA_VERSION, startKafka } from "./kafka.ts";
import { findMongod, startMongod } from "./mongodb.ts";
import { findPostgres, startPostgres } from "./postgres.ts";
import { installHooks, liveStacks, sleep, tempDirs, terminate, type Managed } from "./process.ts";
import { relaunchServer, type StartContext, type Started } from "./servers.ts";

export { cacheDir };
export type { FerretdbBackend };

export interface StackHandle {
  kafkaBrokers: string; // "127.0.0.1:PORT"
  mongoUrl: string; // "mongodb://127.0.0.1:PORT/"
  mongoServer: string; // e.g. "FerretDB v1.24.0 (PostgreSQL 15.8)" / "MongoDB 7.0.24" / "external MONGO_URL"
  kafkaServer: string; // e.g. "Apache Kafka 3.9.0 (KRaft)" / "external KAFKA_BROKERS"
  /** What kind of server mongoUrl is: the index-coverage explain test runs only on MongoDB. */
  mongoKind: "mongodb" | "ferretdb" | "external";
  ferretdbBackend?: FerretdbBackend;
  /** For FerretDB: how large the data may grow before pages get slow (shown in ready lines). */
  scaleNote?: string;
  /** Env every service needs: FERRETDB_POSTGRESQL_URL on PostgreSQL, CLAMD_ADDRESS when clamd runs. */
  serviceEnv: Record<string, string>;
  /** e.g. "ClamAV 1.4.6 (test signatures only) at 127.0.0.1:PORT"; absent when none was started. */
  clamavServer?: string;
  stop(): Promise<void>; // stops only what this call started, idempotent
  /**
   * Stops the named servers this stack started ("kafka", "ferretdb", "postgres", "mongod"), in
   * that order, leaves them down for `downMs`, then starts them again in reverse order on the
   * same ports and data and waits until each answers (fault-injection tests).
   */
  restart(names: string[], opts?: { downMs?: number }): Promise<void>;
}

export interface StackOptions {
  dataDir?: string;
  persistent?: boolean;
  log?: (line: string) => void;
  /** false: start no Kafka (benchmarks of the database alone). */
  kafka?: boolean;
  /** Start FerretDB on this backend, whatever MONGO_URL, mongod or the env say (benchmarks). */
  ferretdb?: FerretdbBackend;
  /** false: start no clamd (grc then holds uploads as pending_scan). */
  clamav?: boolean;
  /**
   * Acknowledged database writes survive a kill of the server processes (PostgreSQL's
   * `synchronous_commit` on). Off by default for speed, where a killed PostgreSQL loses the
   * commits of its last moments; the fault test kills the database and counts every acknowledged
   * write, so it needs them kept.
   */
  durableCommits?: boolean;
}

/** Measured on both backends (docs/decisions.md "Database"); VULNSCAN_FERRETDB_BACKEND overrides. */
export const DEFAULT_FERRETDB_BACKEND: FerretdbBackend = "postgresql";

/**
 * How far FerretDB serves a filtered, sorted list page within a second (bench/database/sorted-page.ts;
 * docs/decisions.md "Database"): FerretDB sorts in Go whatever the filter matched (PostgreSQL: the
 * indexed equality matches; SQLite: the whole collection), at about 8,000–14,000 documents a second
 * here. The findings benchmark may refine these.
 */
/*
 * What the findings list costs through the service (bench/findings/run.ts, page 1 of 20): on
 * PostgreSQL 2.2 s with 2,000 findings matching the filter and 6.1 s with 10,000; on SQLite every
 * list reads every finding of every organization (6.3 s at 10,000, 55 s at 100,000).
 */
export const FERRETDB_SCALE: Record<FerretdbBackend, string> = {
  postgresql: "findings lists take about 2 s at 2,000 findings matching a filter and 6 s at 10,000",
  sqlite: "findings lists take about 6 s at 10,000 findings in all organizations together",
};

export function ferretdbScaleNote(backend: FerretdbBackend): string {
  return `lookups and stats stay fast, but ${FERRETDB_SCALE[backend]}; for more, point MONGO_URL at MongoDB`;
}

function defaultLog(line: string): void {
  process.stderr.write(`[stack] ${line}\n`);
}

function requestedBackend(): { backend: FerretdbBackend; explicit: boolean } {
  const env = process.env.VULNSCAN_FERRETDB_BACKEND;
  if (env === undefined || env === "") return { backend: DEFAULT_FERRETDB_BACKEND, explicit: false };
  if (env !== "sqlite" && env !== "postgresql") throw new Error(`VULNSCAN_FERRETDB_BACKEND must be sqlite or postgresql, not ${JSON.stringify(env)}`);
  return { backend: env, explicit: true };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface StartedDatabase extends Started {
  kind: "mongodb" | "ferretdb";
  backend?: FerretdbBackend;
  serviceEnv: Record<string, string>;
}

async function startDatabase(ctx: StartContext, forced?: FerretdbBackend): Promise<StartedDatabase> {
  const { backend, explicit } = forced ? { backend: forced, explicit: true } : requestedBackend();
  const mongod = forced ? undefined : await findMongod(ctx.log);
  if (mongod) {
    try {
      return { ...(await startMongod(ctx, mongod.bin)), kind: "mongodb", serviceEnv: {} };
    } catch (error) {
      ctx.log(`mongod (${mongod.source}, ${mongod.bin}) did not start, falling back to FerretDB: ${message(error).split("\n")[0]}`);
    }
  }
  if (backend === "postgresql") {
    let pgManaged: Managed | undefined;
    try {
      const pg = await startPostgres(ctx, await findPostgres(ctx.log));
      pgManaged = pg.managed;
      const ferret = await startFerretdb(ctx, { backend, postgresqlUrl: pg.url, backendDescription: pg.description });
      return { ...ferret, kind: "ferretdb", backend, serviceEnv: { FERRETDB_POSTGRESQL_URL: pg.url } };
    } catch (error) {
      if (pgManaged) await terminate(pgManaged);
      if (explicit || ctx.isStopped()) throw error;
      ctx.log(`FerretDB on PostgreSQL could not start, using its SQLite backend: ${message(error).split("\n")[0]}`);
    }
  }
  return { ...(await startFerretdb(ctx, { backend: "sqlite", backendDescription: "SQLite" })), kind: "ferretdb", backend: "sqlite", serviceEnv: {} };
}

/** Installs what startStack would need (nothing for external servers or a mongod). */
export async function installStack(opts: { log?: (line: string) => void } = {}): Promise<{ kafka: string; mongo: string }> {
  const log = opts.log ?? defaultLog;
  const installMongo = async (): Promise<string> => {
    if (process.env.MONGO_URL) return "external MONGO_URL: nothing to install";
    const mongod = await findMongod(log);
    if (mongod) return `mongod ${mongod.source} (${mongod.bin})`;
    const { backend } = requestedBackend();
    const [bin, pg] = await Promise.all([ensureFerretdb(log), backend === "postgresql" ? findPostgres(log) : Promise.resolve(undefined)]);
    return `FerretDB v${FERRETDB_VERSION} at ${bin}${pg ? ` on PostgreSQL ${pg.version} (${pg.bin})` : " on SQLite"}`;
  };
  const [kafka, mongo] = await Promise.all([
    process.env.KAFKA_BROKERS
      ? Promise.resolve("external KAFKA_BROKERS: nothing to install")
      : ensureKafka(log).then((libs) => `Apache Kafka ${KAFKA_VERSION} in ${path.dirname(libs)}`),
    installMongo(),
  ]);
  return { kafka, mongo };
}

export async function startStack(opts: StackOptions = {}): Promise<StackHandle> {
  const log = opts.log ?? defaultLog;
  const persistent = opts.persistent ?? false;
  const wantKafka = opts.kafka !== false && !process.env.KAFKA_BROKERS;
  const wantDatabase = opts.ferretdb !== undefined || !process.env.MONGO_URL;
  const startsSomething = wantKafka || wantDatabase;
  let dataDir = "";
  let tempData = false;
  if (!startsSomething) {
    // both external: no data dir to create or clean up
  } else if (opts.dataDir) {
    dataDir = path.resolve(opts.dataDir);
  } else if (persistent) {
    dataDir = path.join(cacheDir(), "data");
  } else {
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "vulnscan-stack-"));
    tempData = true;
    tempDirs.add(dataDir);
  }
  if (dataDir) await fsp.mkdir(dataDir, { recursive: true });
  installHooks();

  const children: Managed[] = [];
  let stopped = false;
  let stopPromise: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopPromise ??= (async () => {
      stopped = true;
      // Kafka (and everything else) must be gone before its data dir is deleted.
      await Promise.all(children.map((m) => terminate(m)));
      if (tempData) {
        await fsp.rm(dataDir, { recursive: true, force: true });
        tempDirs.delete(dataDir);
      }
      liveStacks.delete(stop);
    })();
    return stopPromise;
  };
  liveStacks.add(stop);

  const ctx: StartContext = {
    dataDir,
    tempData,
    durableCommits: opts.durableCommits ?? false,
    persistent,
    log,
    isStopped: () => stopped,
    track: (m) => children.push(m),
  };

  const wantClamav = opts.clamav !== false && !process.env.CLAMD_ADDRESS && startsSomething;
  const [kafka, mongo, clamav] = await Promise.allSettled([
    wantKafka ? startKafka(ctx) : Promise.resolve(undefined),
    wantDatabase ? startDatabase(ctx, opts.ferretdb) : Promise.resolve(undefined),
    // The malware scanner is optional: without it grc holds uploads as pending_scan, never serves them unchecked.
    wantClamav ? ensureClamd(log).then((bin) => startClamd(ctx, bin)) : Promise.resolve(undefined),
  ]);
  if (clamav.status === "rejected") log(`clamd did not start; evidence uploads will wait as pending_scan: ${message(clamav.reason).split("\n")[0]}`);
  if (kafka.status === "rejected" || mongo.status === "rejected") {
    await stop();
    const reasons = [kafka, mongo]
      .filter((r): r is PromiseRejectedResult => r.status === "rejected")
      .map((r) => (r.reason instanceof Error ? r.reason.message : String(r.reason)));
    throw new Error(`local stack failed to start:\n${reasons.join("\n\n")}`);
  }

  const handle: StackHandle = {
    kafkaBrokers: kafka.value?.address ?? process.env.KAFKA_BROKERS ?? "",
    mongoUrl: mongo.value?.address ?? process.env.MONGO_URL!,
    kafkaServer: kafka.value?.description ?? (opts.kafka !== false && process.env.KAFKA_BROKERS ? "external KAFKA_BROKERS" : "no Kafka"),
    mongoServer: mongo.value?.description ?? "external MONGO_URL",
    mongoKind: mongo.value?.kind ?? "external",
    ...(mongo.value?.backend ? { ferretdbBackend: mongo.value.backend, scaleNote: ferretdbScaleNote(mongo.value.backend) } : {}),
    serviceEnv: {
      ...(mongo.value?.serviceEnv ?? {}),
      ...(clamav.status === "fulfilled" && clamav.value ? { CLAMD_ADDRESS: clamav.value.address } : {}),
    },
    ...(clamav.status === "fulfilled" && clamav.value ? { clamavServer: `${clamav.value.description} at ${clamav.value.address}` } : {}),
    stop,
    restart: async (names, { downMs = 0 } = {}) => {
      const targets = names.map((name) => {
        const managed = children.filter((m) => m.name === name && !m.done).at(-1);
        if (!managed) throw new Error(`this stack runs no ${name}`);
        return managed;
      });
      for (const managed of targets) {
        await terminate(managed);
        children.splice(children.indexOf(managed), 1);
      }
      await sleep(downMs);
      for (const managed of targets.reverse()) await relaunchServer(managed);
    },
  };
  log(
    `ready: ${handle.kafkaBrokers ? `${handle.kafkaServer} at ${handle.kafkaBrokers}; ` : ""}${handle.mongoServer} at ${handle.mongoUrl}${handle.clamavServer ? `; ${handle.clamavServer}` : ""}${handle.scaleNote ? ` (${handle.scaleNote})` : ""}${dataDir ? `; data in ${dataDir}${tempData ? " (removed on stop)" : ""}` : ""}`,
  );
  return handle;
}
