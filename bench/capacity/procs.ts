// What the system's processes cost, read from /proc (Linux only): which process listens on a
// port, and the CPU time of a process with all its descendants (PostgreSQL's backends are
// children of the postmaster), so a window's cost is the difference of two snapshots.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** Clock ticks per second of /proc/<pid>/stat's times (usually 100). */
export const CLK_TCK = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface Stat {
  ppid: number;
  /** utime + stime of the process (every thread). */
  own: number;
  /** cutime + cstime: children it has waited for. */
  reaped: number;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function readStat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // f[0] is field 3 (state): ppid is field 4, utime..cstime fields 14..17.
  return { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), reaped: Number(f[13]) + Number(f[14]) };
}

function pids(): number[] {
  return fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
}

/** One pass over /proc: every process's stat and children. */
function snapshotProcs(): { stats: Map<number, Stat>; children: Map<number, number[]> } {
  const stats = new Map<number, Stat>();
  const children = new Map<number, number[]>();
  for (const pid of pids()) {
    const s = readStat(pid);
    if (!s) continue;
    stats.set(pid, s);
    const list = children.get(s.ppid) ?? [];
    list.push(pid);
    children.set(s.ppid, list);
  }
  return { stats, children };
}

/**
 * CPU ticks of a process tree: its own time, its reaped children's, and every live descendant's
 * (recursively, with their reaped children). The difference of two readings is exact even when
 * children come and go in between: an exited child's whole time moves into its parent's reaped
 * time, of which the earlier reading held the part it had then.
 */
function treeTicks(pid: number, snap: ReturnType<typeof snapshotProcs>): number {
  const s = snap.stats.get(pid);
  if (!s) return 0;
  let n = s.own + s.reaped;
  for (const c of snap.children.get(pid) ?? []) n += treeTicks(c, snap);
  return n;
}

/** A named process (tree) to measure; pid -1 when it was not found. */
export interface Measured {
  name: string;
  pid: number;
}

export interface CpuReading {
  at: number;
  /** Milliseconds of CPU per measured name since the process started. */
  ms: Record<string, number>;
  /** The whole machine, from /proc/stat: busy and total milliseconds summed over cores. */
  machine: { busy: number; total: number };
}

function machineTimes(): { busy: number; total: number } {
  const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.reduce((a, b) => a + b, 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0); // idle + iowait
  const toMs = (t: number) => (t * 1000) / CLK_TCK;
  return { busy: toMs(total - idle), total: toMs(total) };
}

export function readCpu(targets: Measured[]): CpuReading {
  const snap = snapshotProcs();
  const ms: Record<string, number> = {};
  for (const t of targets) ms[t.name] = t.pid > 0 ? (treeTicks(t.pid, snap) * 1000) / CLK_TCK : Number.NaN;
  return { at: Date.now(), ms, machine: machineTimes() };
}

export interface CpuDelta {
  seconds: number;
  /** CPU milliseconds per name within the window. */
  ms: Record<string, number>;
  /** Share of the whole machine busy within the window (0–1), whoever used it. */
  machineBusy: number;
  /** The whole machine's busy and total CPU milliseconds (summed over cores) within the window. */
  machineMs: { busy: number; total: number };
}

export function cpuDelta(before: CpuReading, after: CpuReading): CpuDelta {
  const ms: Record<string, number> = {};
  for (const [k, v] of Object.entries(after.ms)) ms[k] = v - (before.ms[k] ?? Number.NaN);
  const total = after.machine.total - before.machine.total;
  const busy = after.machine.busy - before.machine.busy;
  return { seconds: (after.at - before.at) / 1000, ms, machineBusy: total > 0 ? busy / total : 0, machineMs: { busy, total } };
}

/** Socket inodes listening on `port` (IPv4 and IPv6). */
function listeningInodes(port: number): Set<string> {
  const out = new Set<string>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      const local = f[1];
      if (!local || f[3] !== "0A") continue; // 0A = LISTEN
      if (Number.parseInt(local.split(":").at(-1) ?? "", 16) === port) out.add(f[9] ?? "");
    }
  }
  return out;
}

/** The process listening on a TCP port (the topmost one when a forked child holds it too); -1 when none. */
export function listenerPid(port: number): number {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return -1;
  const owners: number[] = [];
  for (const pid of pids()) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let link = "";
      try {
        link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (m && inodes.has(m[1]!)) {
        owners.push(pid);
        break;
      }
    }
  }
  const set = new Set(owners);
  return owners.find((p) => !set.has(readStat(p)?.ppid ?? -1)) ?? owners[0] ?? -1;
}

/** The command name of a process ("postgres", "ferretdb", "node", …). */
export function commOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "?";
  }
}

/** Share of one core the processes used together over one window. */
async function shareOver(targets: Measured[], windowMs: number): Promise<number> {
  const a = readCpu(targets);
  await sleep(windowMs);
  const d = cpuDelta(a, readCpu(targets));
  return Object.values(d.ms).reduce((s, v) => s + (Number.isFinite(v) ? v : 0), 0) / (d.seconds * 1000);
}

/**
 * What the processes use when nobody calls them (relays, heartbeats, consumers polling): the
 * lowest share of one core over a few windows within `timeoutMs`.
 */
export async function idleShare(targets: Measured[], opts: { windows?: number; windowMs?: number; timeoutMs?: number } = {}): Promise<number> {
  const { windows = 3, windowMs = 2000, timeoutMs = 20_000 } = opts;
  const t0 = Date.now();
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < windows || (Date.now() - t0 < timeoutMs && min > 0.5); i++) min = Math.min(min, await shareOver(targets, windowMs));
  return min;
}

/**
 * Waits until the measured processes are back near their idle share (`idle` + `margin` of one
 * core) over a `windowMs` window: requests of the previous pass still in the database, folds,
 * relays. At most `timeoutMs`. Returns how long it waited and whether they went quiet.
 */
export async function waitQuiet(
  targets: Measured[],
  opts: { idle: number; margin?: number; windowMs?: number; timeoutMs: number; stopped?: () => boolean },
): Promise<{ waitedMs: number; quiet: boolean; lastShare: number }> {
  const { idle, margin = 0.1, windowMs = 2000, timeoutMs } = opts;
  const t0 = Date.now();
  for (;;) {
    const share = await shareOver(targets, windowMs);
    if (share <= idle + margin) return { waitedMs: Date.now() - t0, quiet: true, lastShare: share };
    if (Date.now() - t0 >= timeoutMs || opts.stopped?.()) return { waitedMs: Date.now() - t0, quiet: false, lastShare: share };
  }
}
