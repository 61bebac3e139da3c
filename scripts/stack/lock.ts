// Install locks shared by every checkout and process on the machine (the cache folder is shared).

import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { cacheDir } from "../lib/stack-state.ts";
import { setTimeout as sleep } from "node:timers/promises";
import { heldLocks, installHooks } from "./process.ts";

const LOCK_STALE_MS = 15 * 60_000;

// Install lock: a directory (mkdir is atomic) holding the owner's host and pid. A lock older than
// 15 minutes, or one whose owner on this host is gone (an interrupted install), is stale.

function lockIsStale(lock: string): boolean {
  try {
    const stat = fs.statSync(lock);
    if (Date.now() - stat.mtimeMs > LOCK_STALE_MS) return true;
    const [host, pid] = fs.readFileSync(path.join(lock, "owner"), "utf8").trim().split(" ");
    if (host !== os.hostname() || !pid) return false;
    try {
      process.kill(Number(pid), 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "ESRCH";
    }
  } catch {
    return false; // gone already, or owner file not written yet: wait
  }
}

export async function withLock<T>(name: string, log: (line: string) => void, fn: () => Promise<T>): Promise<T> {
  const locks = path.join(cacheDir(), "locks");
  await fsp.mkdir(locks, { recursive: true });
  const lock = path.join(locks, `${name}.lock`);
  let announced = false;
  for (;;) {
    try {
      await fsp.mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (lockIsStale(lock)) {
      log(`removing stale install lock ${lock}`);
      await fsp.rm(lock, { recursive: true, force: true });
      continue;
    }
    if (!announced) {
      log(`waiting for another install of ${name} (lock ${lock})`);
      announced = true;
    }
    await sleep(1_000);
  }
  heldLocks.add(lock);
  installHooks();
  await fsp.writeFile(path.join(lock, "owner"), `${os.hostname()} ${process.pid}\n`);
  // Keeps a slow but live install (a cold Go build) from being judged stale by a waiter.
  const heartbeat = setInterval(() => {
    const now = new Date();
    fs.utimes(lock, now, now, () => undefined);
  }, 60_000);
  heartbeat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    heldLocks.delete(lock);
    await fsp.rm(lock, { recursive: true, force: true });
  }
}

// Prints a line now and then so a long silent step (Maven -q, go build) does not look hung.
export async function withProgress<T>(log: (line: string) => void, what: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const timer = setInterval(() => log(`${what}: still working (${Math.round((Date.now() - started) / 1000)} s)`), 30_000);
  timer.unref();
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}

export async function removeLeftovers(prefix: string): Promise<void> {
  const dir = path.dirname(prefix);
  const base = path.basename(prefix);
  for (const entry of await fsp.readdir(dir).catch(() => [] as string[])) {
    if (entry.startsWith(base)) await fsp.rm(path.join(dir, entry), { recursive: true, force: true });
  }
}
