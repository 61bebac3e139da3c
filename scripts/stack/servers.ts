// What every server start shares: the context of one stack, spawning into its data dir,
// waiting until the server answers its own protocol, and retrying when a free port was taken.

import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { PORT_IN_USE, startManaged, tail, type Managed } from "./process.ts";

const PORT_ATTEMPTS = 3;

export interface Started {
  address: string;
  description: string;
  managed: Managed;
}

export interface StartContext {
  dataDir: string;
  tempData: boolean;
  /** Commits are acknowledged only once PostgreSQL has written them (StackOptions.durableCommits). */
  durableCommits: boolean;
  persistent: boolean;
  log: (line: string) => void;
  isStopped: () => boolean;
  track: (managed: Managed) => void;
}

/** How to start a server again exactly as it was (same command, port and data) and know it is ready. */
interface Relaunch {
  respawn: () => Managed;
  ready?: (managed: Managed) => Promise<void>;
}
const relaunches = new WeakMap<Managed, Relaunch>();

export function spawnServer(ctx: StartContext, name: string, command: string, args: string[], outFile: string, stopSignal?: NodeJS.Signals): Managed {
  if (ctx.isStopped()) throw new Error("stack was stopped while starting");
  const out = fs.openSync(outFile, "a");
  try {
    const managed = startManaged(name, command, args, {
      cwd: ctx.dataDir, // a JVM crash writes hs_err files into its working directory
      stdio: ["ignore", out, out],
      exitSignal: ctx.tempData ? "SIGKILL" : (stopSignal ?? "SIGTERM"),
      ...(stopSignal ? { stopSignal } : {}),
      onUnexpectedExit: (code, sig) => ctx.log(`${name} exited unexpectedly (${sig ?? `code ${code}`}); see ${outFile}`),
    });
    ctx.track(managed);
    relaunches.set(managed, { respawn: () => spawnServer(ctx, name, command, args, outFile, stopSignal) });
    return managed;
  } finally {
    fs.closeSync(out);
  }
}

export async function waitReady(
  ctx: StartContext,
  managed: Managed,
  name: string,
  timeoutMs: number,
  logFiles: string[],
  probe: () => Promise<boolean>,
): Promise<void> {
  const relaunch = relaunches.get(managed);
  if (relaunch) relaunch.ready = (next) => waitReady(ctx, next, name, timeoutMs, logFiles, probe);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (managed.done) {
      const logs = tail(logFiles);
      const error = new Error(`${name} exited during start-up (code ${managed.child.exitCode ?? managed.child.signalCode})\n${logs}`);
      (error as Error & { portInUse?: boolean }).portInUse = PORT_IN_USE.test(logs);
      throw error;
    }
    if (ctx.isStopped()) throw new Error("stack was stopped while starting");
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${name} did not become ready within ${timeoutMs / 1000} s\n${tail(logFiles)}`);
    await sleep(250);
  }
}

export async function withPortRetry<T extends Started>(ctx: StartContext, name: string, attempt: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= PORT_ATTEMPTS || !(error as { portInUse?: boolean }).portInUse) throw error;
      ctx.log(`${name}: a chosen port was taken by another process, retrying with new ports`);
    }
  }
}

/**
 * Starts a stopped server again with the command it was started with (same port, same data) and
 * waits until it answers as at its first start: the fault-injection test's database and broker
 * outages (test/e2e/faults.test.ts).
 */
export async function relaunchServer(managed: Managed): Promise<Managed> {
  const relaunch = relaunches.get(managed);
  if (!relaunch) throw new Error(`${managed.name} was not started by spawnServer`);
  const next = relaunch.respawn();
  relaunches.get(next)!.ready = relaunch.ready;
  await relaunch.ready?.(next);
  return next;
}
