// The system under test: started here with the project's own helpers (startStack, startSystem),
// or the one a running `npm start` announced (--attach). Either way: its addresses, the database
// prefix, and which process is which (found by the port each listens on).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cacheDir, readStackState } from "../../scripts/lib/stack-state.js";
import { startStack } from "../../scripts/stack/index.js";
import { SERVICES, startSystem } from "../../scripts/system.js";
import { commOf, listenerPid, type Measured } from "./procs.js";

export interface Target {
  gatewayUrl: string;
  mongoUrl: string;
  kafkaBrokers: string;
  /** Prefix of every database name ("" for `npm start`). */
  dbPrefix: string;
  /** Env a process using this database needs (FERRETDB_POSTGRESQL_URL on PostgreSQL). */
  serviceEnv: Record<string, string>;
  /** e.g. "FerretDB v1.24.0 (PostgreSQL 15.8)". */
  mongoServer: string;
  /** How it was obtained, for the report. */
  mode: "started" | "started, persistent" | "attached";
  logDir?: string;
  dataDir?: string;
  /** The processes to measure, resolved now (a supervised restart changes a pid). */
  processes(): Measured[];
  /** Stops what this run started (nothing when attached). */
  stop(): Promise<void>;
}

const portOf = (url: string) => Number(new URL(url).port);

/** Listening ports of every part, by the name the report uses. */
export function processFinder(ports: { name: string; port: number }[]): () => Measured[] {
  return () => ports.map(({ name, port }) => ({ name, pid: Number.isFinite(port) && port > 0 ? listenerPid(port) : -1 }));
}

/** The database processes: the MongoDB-protocol server (FerretDB or mongod) and PostgreSQL behind FerretDB. */
export function databasePorts(mongoUrl: string, serviceEnv: Record<string, string>): { name: string; port: number }[] {
  const mongoPort = Number(/:(\d+)/.exec(mongoUrl.replace(/^mongodb:\/\//, ""))?.[1] ?? 27017);
  const pgUrl = serviceEnv.FERRETDB_POSTGRESQL_URL;
  const kind = commOf(listenerPid(mongoPort)).toLowerCase().includes("mongod") ? "mongod" : "ferretdb";
  return [{ name: kind, port: mongoPort }, ...(pgUrl ? [{ name: "postgres", port: portOf(pgUrl) }] : [])];
}

/**
 * Starts Kafka, the database, every service and the gateway. `persistent` keeps the stack's data
 * in the cache folder (bench-capacity), so a later `--reuse` run finds the seeded organization.
 */
export async function startOwn(opts: { persistent: boolean; logLevel: string; log: (s: string) => void }): Promise<Target> {
  const dataDir = opts.persistent ? path.join(cacheDir(), "bench-capacity") : undefined;
  // No clamd: only evidence uploads need it, and its start costs a core for a minute.
  const stack = await startStack({ log: opts.log, clamav: false, ...(dataDir ? { persistent: true, dataDir } : {}) });
  // The services' environment (FERRETDB_POSTGRESQL_URL), for the seeding's ensureIndexes too.
  Object.assign(process.env, stack.serviceEnv);
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-bench-capacity-"));
  const dbPrefix = "capacity_";
  let system: Awaited<ReturnType<typeof startSystem>>;
  try {
    system = await startSystem({
      kafkaBrokers: stack.kafkaBrokers,
      mongoUrl: stack.mongoUrl,
      dbPrefix,
      logDir,
      logLevel: opts.logLevel,
      ferretdbPostgresqlUrl: stack.serviceEnv.FERRETDB_POSTGRESQL_URL,
    });
  } catch (err) {
    await stack.stop();
    throw err;
  }
  const databases = processFinder(databasePorts(stack.mongoUrl, stack.serviceEnv));
  // The gateway and services are this run's children: their pids come from startSystem.
  const processes = () => [
    { name: "gateway", pid: system.processes.gateway.pid },
    ...SERVICES.map((s) => ({ name: s.name, pid: system.processes[s.name].pid })),
    ...databases(),
  ];
  return {
    gatewayUrl: system.gatewayUrl,
    mongoUrl: stack.mongoUrl,
    kafkaBrokers: stack.kafkaBrokers,
    dbPrefix,
    serviceEnv: stack.serviceEnv,
    mongoServer: stack.mongoServer,
    mode: opts.persistent ? "started, persistent" : "started",
    logDir,
    ...(dataDir ? { dataDir } : {}),
    processes,
    stop: async () => {
      await system.stop().catch((err) => opts.log(`stopping the services: ${(err as Error).message}`));
      await stack.stop().catch((err) => opts.log(`stopping the stack: ${(err as Error).message}`));
    },
  };
}

/** The system a running `npm start` announced in its state file (stack.json). */
export function attach(): Target {
  const state = readStackState();
  if (!state) throw new Error("--attach: no running `npm start` found (no live ~/.cache/vulnscan/stack.json)");
  const serviceEnv = state.serviceEnv ?? {};
  Object.assign(process.env, serviceEnv);
  const ports = [
    { name: "gateway", port: portOf(state.gatewayUrl) },
    ...SERVICES.map((s) => ({ name: s.name, port: state.services[s.name] ? portOf(state.services[s.name]!) : -1 })),
    ...databasePorts(state.mongoUrl, serviceEnv),
  ];
  return {
    gatewayUrl: state.gatewayUrl,
    mongoUrl: state.mongoUrl,
    kafkaBrokers: state.kafkaBrokers,
    dbPrefix: state.dbPrefix,
    serviceEnv,
    mongoServer: state.mongoServer,
    mode: "attached",
    processes: processFinder(ports),
    stop: async () => undefined,
  };
}
