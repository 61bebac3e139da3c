// Load: autocannon's programmatic API in this process, closed-loop (C connections as fast as
// answers come); a paced open-loop generator for a fixed rate; and the bare Fastify baseline, in
// a child process of its own so it shares no event loop with the load generator (and its CPU can
// be read).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { setTimeout as sleep } from "node:timers/promises";
import { Pool } from "undici";
import { ROOT } from "../../scripts/lib/root.js";

interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  overallRate?: number;
  timeout?: number;
  requests?: { method?: string; setupRequest?: (req: { path: string }) => { path: string } }[];
}
interface AutocannonResult {
  requests: { average: number; total: number; sent: number };
  latency: { p50: number; p99: number; average: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  "2xx": number;
  statusCodeStats: Record<string, { count: number }>;
  duration: number;
}
interface AutocannonInstance {
  stop(): void;
}
/** The part of autocannon 8's API used here (the package ships no types). */
type Autocannon = (opts: AutocannonOptions, done: (err: Error | null, result: AutocannonResult) => void) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

export interface LoadResult {
  /** Responses per second (any status), autocannon's average of per-second samples. */
  rps: number;
  /** Responses received (any status). */
  completed: number;
  ok: number;
  non2xx: number;
  /** Connection errors and timeouts (no response at all). */
  errors: number;
  timeouts: number;
  p50: number;
  p99: number;
  max: number;
  statusCodes: Record<string, number>;
  seconds: number;
}

export interface LoadSpec {
  /** Origin, e.g. http://127.0.0.1:8080 */
  origin: string;
  /** Paths, taken in turn by every request (one path: always that one). */
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  duration: number;
  overallRate?: number;
}

/** The running load, so a Ctrl-C can stop it. */
let current: AutocannonInstance | undefined;
export const stopLoad = () => current?.stop();

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  let n = 0;
  const { paths } = spec;
  const opts: AutocannonOptions = {
    url: `${spec.origin}${paths[0]}`,
    connections: spec.connections,
    duration: spec.duration,
    headers: spec.headers,
    timeout: 10,
    ...(spec.overallRate ? { overallRate: spec.overallRate } : {}),
    ...(paths.length > 1
      ? {
          requests: [
            {
              method: "GET",
              setupRequest: (req) => {
                req.path = paths[n++ % paths.length]!;
                return req;
              },
            },
          ],
        }
      : {}),
  };
  return new Promise((resolve, reject) => {
    current = autocannon(opts, (err, r) => {
      current = undefined;
      if (err) return reject(err);
      resolve({
        rps: r.requests.average,
        completed: r.requests.total,
        ok: r["2xx"],
        non2xx: r.non2xx,
        errors: r.errors,
        timeouts: r.timeouts,
        p50: r.latency.p50,
        p99: r.latency.p99,
        max: r.latency.max,
        statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([k, v]) => [k, v.count])),
        seconds: r.duration,
      });
    });
  });
}

/**
 * A fixed rate as a steady stream: one request every 1000/rate ms on a schedule, whatever the
 * answers do (open loop), over up to `connections` connections. autocannon's `overallRate` is a
 * per-connection budget of requests each second, sent back to back as answers come at the start
 * of the second: at 100 req/s over 20 connections that is 20 requests at once every second, a
 * burst, not a rate. Latency counts from the moment a request was due, so a generator or system
 * that falls behind shows it (no coordinated omission).
 */
export async function runPaced(spec: LoadSpec & { overallRate: number }): Promise<LoadResult> {
  const pool = new Pool(spec.origin, { connections: spec.connections, pipelining: 1 });
  const interval = 1000 / spec.overallRate;
  const total = Math.round(spec.duration * spec.overallRate);
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  let stop = false;
  current = { stop: () => (stop = true) };
  const one = async (path: string, due: number) => {
    try {
      const res = await pool.request({ path, method: "GET", headers: spec.headers, headersTimeout: 10_000, bodyTimeout: 10_000 });
      await res.body.dump();
      latencies.push(performance.now() - due);
      statusCodes[res.statusCode] = (statusCodes[res.statusCode] ?? 0) + 1;
      if (res.statusCode >= 200 && res.statusCode < 300) ok++;
      else non2xx++;
    } catch (err) {
      if ((err as { code?: string }).code?.includes("TIMEOUT")) timeouts++;
      else errors++;
    }
  };
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total && !stop; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    inFlight.push(one(spec.paths[i % spec.paths.length]!, due));
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - start) / 1000;
  await pool.close();
  current = undefined;
  latencies.sort((a, b) => a - b);
  const q = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)]! : Number.NaN);
  return {
    rps: latencies.length / seconds,
    completed: latencies.length,
    ok,
    non2xx,
    errors,
    timeouts,
    p50: q(0.5),
    p99: q(0.99),
    max: latencies.at(-1) ?? Number.NaN,
    statusCodes,
    seconds,
  };
}

export interface BareServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** A bare Fastify server answering `{}` on GET /, in its own process on a free port. */
export async function startBare(): Promise<BareServer> {
  const code = `const f=require("fastify")({logger:false});f.get("/",async()=>({}));f.listen({host:"127.0.0.1",port:0}).then(a=>console.log(a));`;
  const child: ChildProcess = spawn(process.execPath, ["-e", code], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const [line] = (await Promise.race([
    once(child.stdout!, "data"),
    new Promise((_, reject) => setTimeout(() => reject(new Error("the bare Fastify server did not start within 30 s")), 30_000).unref()),
  ]).catch((err) => {
    child.kill("SIGKILL");
    throw err;
  })) as [Buffer];
  return {
    url: line.toString().trim(),
    pid: child.pid ?? -1,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}
