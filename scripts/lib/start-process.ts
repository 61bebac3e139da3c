// Runs `npm start`'s supervisor as a child (its own data and logs under `home`, its own gateway
// port) and reads what it prints: used by the stop test (test/e2e/start-stop.test.ts) and
// bench/runtime, which compares it compiled and under tsx.
import { spawn } from "node:child_process";
import { entryOf } from "./build.js";
import { ROOT } from "./root.js";
import type { Runtime } from "../system.js";
import { DEPLOYABLE_ENV, SUPERVISOR_NODE_FLAGS } from "../system.js";

export interface StartedProcess {
  name: string;
  pid: number;
  readyMs: number;
}

export interface RunningStart {
  pid: number;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
  /** The services and the gateway with their pids and start-to-ready times, and the stack's ports. */
  ready: Promise<{ processes: StartedProcess[]; stackPorts: number[]; readyLine: string }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Ctrl-C: SIGINT to its process group. */
  interrupt(): void;
}

export function launchStart(opts: { home: string; port: number; runtime?: Runtime; env?: Record<string, string>; timeoutMs?: number }): RunningStart {
  const runtime = opts.runtime ?? "compiled";
  const args = runtime === "compiled" ? [...SUPERVISOR_NODE_FLAGS, entryOf("start")] : ["--import", "tsx", "scripts/start.ts"];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...DEPLOYABLE_ENV, ...opts.env, PORT: String(opts.port), VULNSCAN_HOME: opts.home, VULNSCAN_RUNTIME: runtime },
    stdio: ["ignore", "pipe", "pipe"],
    // A process group of its own, as a terminal gives `npm start`: interrupt() signals the
    // group, as Ctrl-C does, reaching whatever did not leave it.
    detached: true,
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<{ processes: StartedProcess[]; stackPorts: number[]; readyLine: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start not ready after ${opts.timeoutMs ?? 180_000} ms:\n${out}`)), opts.timeoutMs ?? 180_000);
    const check = () => {
      const readyLine = out.split("\n").find((l) => l.startsWith("vulnscan ready at"));
      if (!readyLine) return;
      clearTimeout(timer);
      child.stdout.off("data", check);
      // "[start] ready in: auth 1.2 s (pid 123), …"
      const line = out.split("\n").find((l) => l.startsWith("[start] ready in:")) ?? "";
      const processes = [...line.matchAll(/([\w-]+) ([\d.]+) s \(pid (\d+)\)/g)].map((m) => ({ name: m[1]!, readyMs: Number(m[2]) * 1000, pid: Number(m[3]) }));
      // "[start] Apache Kafka … at 127.0.0.1:41234; FerretDB … at mongodb://127.0.0.1:40123/"
      const stackLine = out.split("\n").find((l) => / at .*; .* at mongodb:\/\//.test(l)) ?? "";
      const stackPorts = [...stackLine.matchAll(/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1]));
      resolve({ processes, stackPorts, readyLine });
    };
    child.stdout.on("data", check);
    void exited.then(() => reject(new Error(`npm start exited before it was ready:\n${out}`)));
  });
  ready.catch(() => undefined);
  const interrupt = () => process.kill(-child.pid!, "SIGINT");
  return { pid: child.pid!, output: () => out, ready, exited, interrupt };
}

/** Resident memory of a running process in MiB (Linux /proc), or undefined when it is gone. */
export async function rssMiB(pid: number): Promise<number | undefined> {
  const fs = await import("node:fs/promises");
  try {
    const status = await fs.readFile(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return undefined;
  }
}
