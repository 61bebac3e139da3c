// Child processes of the local stack: every server runs as its own process group, is tracked
// until it exits, and is killed on stop, on a signal, or (as a last resort) on process exit.
// Only Node built-ins (see index.ts).

import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import fs from "node:fs";
import { freePort } from "../lib/net.ts";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export const STOP_GRACE_MS = 10_000;

// ---------------------------------------------------------------------------------------------
// Process bookkeeping. Every child is its own process group leader, so a signal to -pid reaches
// whatever it forked too (go build runs compilers, a JVM may fork helpers).

export interface Managed {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
  done: boolean;
  stopping: boolean;
  // SIGKILL when the data dir is about to be deleted: a clean shutdown would race the removal.
  exitSignal: NodeJS.Signals;
  // What asks it to stop cleanly (PostgreSQL: SIGINT, its fast shutdown; SIGTERM waits for clients).
  stopSignal: NodeJS.Signals;
}

const liveChildren = new Set<Managed>();
export const liveStacks = new Set<() => Promise<void>>();
export const tempDirs = new Set<string>();
export const heldLocks = new Set<string>();
let hooksInstalled = false;
let signalStopInProgress = false;

export function signalGroup(pid: number | undefined, sig: NodeJS.Signals | 0): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, sig);
    return true;
  } catch {
    return false;
  }
}

export function startManaged(
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions & { exitSignal: NodeJS.Signals; stopSignal?: NodeJS.Signals; onUnexpectedExit?: (code: number | null, sig: string | null) => void },
): Managed {
  installHooks();
  const { exitSignal, stopSignal = "SIGTERM", onUnexpectedExit, ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, detached: true });
  let resolveExited!: () => void;
  const exited = new Promise<void>((resolve) => (resolveExited = resolve));
  const managed: Managed = { name, child, exited, done: false, stopping: false, exitSignal, stopSignal };
  const finish = () => {
    if (managed.done) return;
    managed.done = true;
    liveChildren.delete(managed);
    resolveExited();
  };
  child.on("exit", (code, sig) => {
    if (!managed.stopping) onUnexpectedExit?.(code, sig);
    finish();
  });
  child.on("error", finish);
  liveChildren.add(managed);
  return managed;
}

export async function terminate(managed: Managed): Promise<void> {
  managed.stopping = true;
  if (managed.done) {
    signalGroup(managed.child.pid, "SIGKILL"); // stragglers the leader left behind
    return;
  }
  signalGroup(managed.child.pid, managed.stopSignal);
  const graceful = await Promise.race([managed.exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
  if (!graceful) signalGroup(managed.child.pid, "SIGKILL");
  await Promise.race([managed.exited, sleep(5_000)]);
  // The group outlives its leader if the leader forked; wait until the kernel reports it empty.
  signalGroup(managed.child.pid, "SIGKILL");
  for (let i = 0; i < 50 && signalGroup(managed.child.pid, 0); i++) await sleep(100);
}

function killEverythingNow(): void {
  for (const m of liveChildren) {
    m.stopping = true;
    signalGroup(m.child.pid, m.exitSignal);
  }
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  for (const lock of heldLocks) fs.rmSync(lock, { recursive: true, force: true });
}

function onSignal(sig: NodeJS.Signals): void {
  // An application with its own handler owns shutdown (it calls stop()); the 'exit' hook is
  // then only the backstop. Alone, we stop gracefully and re-raise so the exit status is right.
  if (process.listenerCount(sig) > 1) return;
  if (signalStopInProgress) {
    killEverythingNow();
    process.exit(128 + (os.constants.signals[sig] ?? 0));
  }
  signalStopInProgress = true;
  void Promise.allSettled([...liveStacks].map((stop) => stop())).finally(() => {
    killEverythingNow();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.kill(process.pid, sig);
  });
}

export function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // 'exit' handlers must be synchronous: signal the groups and delete temp data, no waiting.
  process.on("exit", killEverythingNow);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
}

// ---------------------------------------------------------------------------------------------
// Small helpers

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export async function run(command: string, args: string[], options: RunOptions = {}): Promise<string> {
  const managed = startManaged(path.basename(command), command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
    exitSignal: "SIGKILL",
  });
  const chunks: Buffer[] = [];
  const errChunks: Buffer[] = [];
  managed.child.stdout?.on("data", (c: Buffer) => chunks.push(c));
  managed.child.stderr?.on("data", (c: Buffer) => errChunks.push(c));
  const result = await new Promise<{ code: number | null; signal: string | null; error?: Error }>((resolve) => {
    managed.child.on("error", (error) => resolve({ code: null, signal: null, error }));
    managed.child.on("close", (code, signal) => resolve({ code, signal }));
  });
  const stdout = Buffer.concat(chunks).toString("utf8");
  if (result.error || result.code !== 0) {
    const output = (stdout + Buffer.concat(errChunks).toString("utf8")).trim().split("\n").slice(-40).join("\n");
    const why = result.error ? result.error.message : result.signal ? `signal ${result.signal}` : `exit code ${result.code}`;
    throw new Error(`${command} ${args.join(" ")} failed (${why})${output ? `:\n${output}` : ""}`);
  }
  return stdout;
}

export function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this PATH entry
    }
  }
  return undefined;
}

// Distinct free ports (scripts/lib/net.ts chooses them outside the ephemeral range); another
// process can still take one before the server binds it, which the start functions handle by
// retrying with new ports.
export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

export function tail(files: string[], lines = 40): string {
  const all: string[] = [];
  for (const file of files) {
    try {
      const text = fs.readFileSync(file, "utf8").trimEnd();
      if (text) all.push(`--- ${file}`, ...text.split("\n").slice(-lines));
    } catch {
      // not written yet
    }
  }
  return all.join("\n");
}

export const PORT_IN_USE = /address already in use|BindException|bind: address/i;
