// One route: wait until the system is quiet, warm up, then the capacity pass (C connections as
// fast as answers come, CPU of every process read before and after), quiet again, then the
// fixed-rate pass (the latency goal is stated at a rate, not at saturation).
import { type LoadResult, runLoad, runPaced } from "./load.js";
import { type CpuDelta, cpuDelta, type Measured, readCpu, waitQuiet } from "./procs.js";

export interface Route {
  key: string;
  label: string;
  origin: string;
  paths: string[];
  headers: Record<string, string>;
  /** The bare baseline: only its own process is "the server". */
  bare?: boolean;
}

export interface Settle {
  waitedMs: number;
  quiet: boolean;
  /** Share of one core the measured processes used in the last window looked at. */
  lastShare: number;
}

export interface RouteResult {
  key: string;
  label: string;
  paths: number;
  capacity: LoadResult;
  /**
   * Share of the machine's CPU used during the capacity pass by processes not measured here
   * (other programs on a shared machine; Kafka, idle during reads): high means the figures are
   * not this system's alone.
   */
  otherShare: number;
  /** CPU milliseconds per completed request, per process (and the load generator, this process). */
  cpuPerRequest: Record<string, number>;
  cpu: CpuDelta;
  fixed: LoadResult;
  settled: { beforeWarmup: Settle; beforeCapacity: Settle; beforeFixed: Settle };
}

export interface MeasureOptions {
  duration: number;
  connections: number;
  rate: number;
  warmup: number;
  settleMs: number;
  /** The processes' idle share of one core (idleShare), what "quiet" is measured against. */
  idle: number;
  /** The processes to read, resolved at each route (pids may change on a restart). */
  processes: () => Measured[];
  stopped: () => boolean;
  log: (s: string) => void;
}

export const LOAD_GENERATOR = "load generator";

export async function measureRoute(route: Route, o: MeasureOptions): Promise<RouteResult> {
  const targets = o.processes();
  const quiet = async (when: string): Promise<Settle> => {
    if (o.stopped()) throw new Error("stopped");
    const r = await waitQuiet(targets, { idle: o.idle, timeoutMs: o.settleMs, stopped: o.stopped });
    if (o.stopped()) throw new Error("stopped");
    if (!r.quiet)
      o.log(
        `${route.label}: still busy ${when} after ${(r.waitedMs / 1000).toFixed(0)} s (${(r.lastShare * 100).toFixed(0)} % of a core, idle ${(o.idle * 100).toFixed(0)} %); measuring anyway`,
      );
    return r;
  };
  const load = (duration: number) => runLoad({ origin: route.origin, paths: route.paths, headers: route.headers, connections: o.connections, duration });

  const beforeWarmup = await quiet("before the warm-up");
  o.log(`${route.label}: warm-up ${o.warmup} s`);
  await load(o.warmup);
  const beforeCapacity = await quiet("after the warm-up");

  o.log(`${route.label}: ${o.duration} s at ${o.connections} connections`);
  const own0 = process.cpuUsage();
  const before = readCpu(targets);
  const capacity = await load(o.duration);
  const cpu = cpuDelta(before, readCpu(targets));
  const own = process.cpuUsage(own0);
  cpu.ms[LOAD_GENERATOR] = (own.user + own.system) / 1000;
  const ours = Object.values(cpu.ms).reduce((a, v) => a + (Number.isFinite(v) ? v : 0), 0);
  const otherShare = cpu.machineMs.total > 0 ? Math.max(0, cpu.machineMs.busy - ours) / cpu.machineMs.total : 0;
  const cpuPerRequest = Object.fromEntries(Object.entries(cpu.ms).map(([k, v]) => [k, capacity.completed > 0 ? v / capacity.completed : Number.NaN]));

  const beforeFixed = await quiet("after the capacity pass");
  o.log(`${route.label}: ${o.duration} s at ${o.rate} req/s`);
  const fixed = await runPaced({
    origin: route.origin,
    paths: route.paths,
    headers: route.headers,
    connections: o.connections,
    duration: o.duration,
    overallRate: o.rate,
  });
  return {
    key: route.key,
    label: route.label,
    paths: route.paths.length,
    capacity,
    otherShare,
    cpuPerRequest,
    cpu,
    fixed,
    settled: { beforeWarmup, beforeCapacity, beforeFixed },
  };
}
