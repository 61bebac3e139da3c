// Real MongoDB: a `mongod` on the PATH, else a MongoDB Community binary fetched once into the
// cache folder by mongodb-memory-server's downloader, where MongoDB's download site answers.

import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { cacheDir } from "../lib/stack-state.ts";
import { withLock } from "./lock.ts";
import { startMongoServer } from "./mongo-probe.ts";
import { run, which } from "./process.ts";
import type { StartContext, Started } from "./servers.ts";

/** The download site must answer this fast, or the machine is taken to have no way to it. */
const PROBE_TIMEOUT_MS = 3_000;
/** An unreachable site is not asked again for this long (each start would otherwise wait). */
const UNREACHABLE_MEMORY_MS = 60 * 60_000;
const DEFAULT_MIRROR = "https://fastdl.mongodb.org";

export const mongodbDownloadDir = (): string => path.join(cacheDir(), "mongodb-binaries");
const unreachableMarker = (): string => path.join(mongodbDownloadDir(), "site-unreachable");

/** Any HTTP answer (even 403/404) means the site can be reached; DNS failure, refusal or silence mean no. */
async function answers(url: string, timeoutMs: number): Promise<boolean> {
  // Loaded here, not at the top: TLS is a few MiB `npm start`'s supervisor need not keep.
  const https = await import("node:https");
  return new Promise((resolve) => {
    let settled = false;
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      req.destroy();
      resolve(ok);
    };
    const req = https.request(url, { method: "HEAD", timeout: timeoutMs }, (res) => {
      res.resume();
      done(true);
    });
    req.once("timeout", () => done(false));
    req.once("error", () => done(false));
    setTimeout(() => done(false), timeoutMs).unref();
    req.end();
  });
}

function recentlyUnreachable(): boolean {
  try {
    return Date.now() - fs.statSync(unreachableMarker()).mtimeMs < UNREACHABLE_MEMORY_MS;
  } catch {
    return false;
  }
}

/** Whether the download site answers; an unreachable one is remembered for an hour (a marker file). */
async function siteAnswers(log: (line: string) => void): Promise<boolean> {
  if (recentlyUnreachable()) return false;
  const site = process.env.MONGOMS_DOWNLOAD_URL ?? process.env.MONGOMS_DOWNLOAD_MIRROR ?? DEFAULT_MIRROR;
  if (await answers(site, PROBE_TIMEOUT_MS)) return true;
  log(`MongoDB's download site (${new URL(site).host}) cannot be reached; not asking again for an hour`);
  await fsp.mkdir(mongodbDownloadDir(), { recursive: true });
  await fsp.writeFile(unreachableMarker(), `${new Date().toISOString()}\n`);
  return false;
}

/**
 * Whether the downloader may find a binary it fetched before: a `mongod…` file in one of the
 * folders it looks in (ours, its home cache, its node_modules cache), or its MONGOMS_* settings,
 * which may point anywhere (then it is asked).
 */
export function mongodMayBeCached(): boolean {
  if (Object.keys(process.env).some((k) => k.startsWith("MONGOMS_"))) return true;
  const dirs = [
    mongodbDownloadDir(),
    path.join(os.homedir(), ".cache", "mongodb-binaries"),
    path.join(process.cwd(), "node_modules", ".cache", "mongodb-memory-server"),
  ];
  return dirs.some((dir) => {
    try {
      return fs.readdirSync(dir).some((name) => name.startsWith("mongod"));
    } catch {
      return false;
    }
  });
}

/**
 * The cached or freshly downloaded mongod, or undefined when there is none and the download site
 * cannot be reached (or VULNSCAN_MONGODB_DOWNLOAD=0). Never waits more than a few seconds for an
 * unreachable site: it is probed first (PROBE_TIMEOUT_MS), and the download gets one attempt.
 * The downloader's library is loaded only when it has something to do (a binary it may have
 * cached, or a site that answers): it loads the mongodb driver, about 20 MiB that `npm start`'s
 * supervisor would otherwise keep for as long as it runs.
 */
export async function downloadedMongod(log: (line: string) => void): Promise<string | undefined> {
  if (process.env.VULNSCAN_MONGODB_DOWNLOAD === "0") return undefined;
  const mayBeCached = mongodMayBeCached();
  if (!mayBeCached && !(await siteAnswers(log))) return undefined;
  let lib: typeof import("mongodb-memory-server-core");
  try {
    lib = await import("mongodb-memory-server-core");
  } catch {
    return undefined; // npm dependencies not installed (a bare `npm run stack` before bootstrap)
  }
  const downloadDir = mongodbDownloadDir();
  const options = { downloadDir, version: process.env.MONGOMS_VERSION ?? "7.0.24" };
  const cached = await lib.DryMongoBinary.locateBinary(lib.DryMongoBinary.getEnsuredOptions(options)).catch(() => undefined);
  if (cached && fs.existsSync(cached)) return cached;
  if (mayBeCached && !(await siteAnswers(log))) return undefined;
  return withLock("mongodb-binary", log, async () => {
    log(`downloading MongoDB Community ${options.version} into ${downloadDir} (first run only)`);
    const started = Date.now();
    // The downloader retries three times with back-off by default; once is enough here.
    process.env.MONGOMS_MAX_RETRIES ??= "1";
    try {
      const bin = await lib.MongoBinary.getPath(options);
      log(`MongoDB ${options.version} downloaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return bin;
    } catch (error) {
      log(`MongoDB download failed (${error instanceof Error ? error.message : String(error)}); falling back to FerretDB`);
      return undefined;
    }
  });
}

async function mongodVersion(mongod: string): Promise<string> {
  const out = await run(mongod, ["--version"]).catch(() => "");
  return /db version v?(\S+)/.exec(out)?.[1] ?? "unknown version";
}

/** The mongod on the PATH, else a downloaded one; undefined when neither can be had. */
export async function findMongod(log: (line: string) => void): Promise<{ bin: string; source: string } | undefined> {
  const onPath = which("mongod");
  if (onPath) return { bin: onPath, source: "on PATH" };
  const downloaded = await downloadedMongod(log);
  return downloaded ? { bin: downloaded, source: "downloaded" } : undefined;
}

export async function startMongod(ctx: StartContext, mongod: string): Promise<Started> {
  const version = await mongodVersion(mongod);
  const dbPath = path.join(ctx.dataDir, "mongod");
  const outFile = path.join(ctx.dataDir, "mongod.log");
  await fsp.mkdir(dbPath, { recursive: true });
  // No unix socket: loopback TCP only, and no stale /tmp/mongodb-PORT.sock after a kill.
  return startMongoServer(ctx, {
    name: "mongod",
    label: "mongod",
    bin: mongod,
    args: (port) => ["--bind_ip", "127.0.0.1", "--port", String(port), "--dbpath", dbPath, "--quiet", "--nounixsocket"],
    outFile,
    description: `MongoDB ${version}`,
  });
}
