import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/*
 * What a running `npm start` tells other commands on the same machine (the admin CLI, benchmarks):
 * where its servers and services listen. Written once everything answers, removed at stop; a file
 * left by a stack that died is ignored because its pid no longer runs.
 */

export interface StackState {
  /** The MongoDB-protocol server every service uses, e.g. mongodb://127.0.0.1:40123/ */
  mongoUrl: string;
  /** What that server is, e.g. "FerretDB v1.24.0 (PostgreSQL 15)" or "mongod 8.0.4". */
  mongoServer: string;
  /** Comma-separated host:port list. */
  kafkaBrokers: string;
  /** The REST gateway, e.g. http://127.0.0.1:8080 */
  gatewayUrl: string;
  /** Connect/gRPC base URL of each service by deployable name (auth, findings, …). */
  services: Record<string, string>;
  /** The database-name prefix the stack's services use ("" for `npm start`). */
  dbPrefix: string;
  /**
   * Env a process using this database should have, e.g. FERRETDB_POSTGRESQL_URL when FerretDB runs
   * on PostgreSQL (the kit's ensureIndexes then adds the indexes FerretDB needs). Empty otherwise.
   */
  serviceEnv?: Record<string, string>;
  /** The process that owns the stack (npm start's node process). */
  pid: number;
  startedAt: string;
}

/** The cache folder of installed servers and state (VULNSCAN_CACHE_DIR, default ~/.cache/vulnscan). */
export function cacheDir(): string {
  const fromEnv = process.env.VULNSCAN_CACHE_DIR;
  return fromEnv ? path.resolve(fromEnv) : path.join(os.homedir(), ".cache", "vulnscan");
}

export const stackStateFile = (): string => path.join(cacheDir(), "stack.json");

/** True while a process with this pid runs. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, under another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function writeStackState(state: StackState): void {
  const file = stackStateFile();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** The running stack's state, or undefined when none runs (no file, unreadable, or its owner is gone). */
export function readStackState(): StackState | undefined {
  let state: StackState;
  try {
    state = JSON.parse(fs.readFileSync(stackStateFile(), "utf8")) as StackState;
  } catch {
    return undefined;
  }
  return typeof state.pid === "number" && alive(state.pid) ? state : undefined;
}

/** Removes the file if it is this process's (a second stack must not erase the first one's). */
export function clearStackState(pid = process.pid): void {
  try {
    const state = JSON.parse(fs.readFileSync(stackStateFile(), "utf8")) as StackState;
    if (state.pid === pid) fs.rmSync(stackStateFile(), { force: true });
  } catch {
    // nothing to clear
  }
}
