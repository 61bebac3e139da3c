// Start-to-ready time and idle memory of every `npm start` process, compiled as it ships:
//   npx tsx bench/runtime/run.ts [--idle-seconds 20] [--burst 300]
// Two real `npm start` supervisors on one temporary VULNSCAN_HOME (a free gateway port):
//  1. on a fresh data directory: start to ready per process, then Ctrl-C;
//  2. on the data directory the first left (what a developer's second `npm start` meets): start
//     to ready; a burst of API requests (a login, then findings lists), so the read path's
//     young generation has grown as under traffic; idle; then per process VmRSS (/proc) and V8's
//     heap (the process's own /metrics: prom-client reads v8.getHeapSpaceStatistics()); then
//     each service and the gateway killed in turn (SIGTERM) and timed from the respawn the
//     supervisor makes to its first ready /readyz, with the stack and every other process
//     running, as when a Kubernetes pod is replaced; last Ctrl-C, timed.
// (The TypeScript-through-tsx column this bench had before the compiled bundles shipped is gone:
// it measured a mode nothing runs any more and doubled the run's time.)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ensureBuilt } from "../../scripts/lib/build.js";
import { freePort, httpOk } from "../../scripts/lib/net.js";
import { launchStart, rssMiB, type RunningStart, type StartedProcess } from "../../scripts/lib/start-process.js";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const idleSeconds = arg("--idle-seconds", 20);
const burst = arg("--burst", 300);
// --env NAME=VALUE (repeatable): set for the supervisor and so for every process it starts,
// e.g. to measure MALLOC_ARENA_MAX or NODE_OPTIONS before making one the default.
const extraEnv = Object.fromEntries(
  process.argv.flatMap((a, i) => (process.argv[i - 1] === "--env" ? [[a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]] : [])),
);

const MiB = 1024 * 1024;

/** A process's own environment (its admin port), as the supervisor gave it. */
function envOf(pid: number): Record<string, string> {
  const raw = fs.readFileSync(`/proc/${pid}/environ`, "utf8");
  return Object.fromEntries(raw.split("\0").flatMap((kv) => (kv.includes("=") ? [[kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]] : [])));
}

/** VmRSS split into anonymous memory (the process's own) and file pages (mostly the node binary, shared). */
function rssParts(pid: number): { anon: number; file: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]) / 1024;
  return { anon: kb("RssAnon"), file: kb("RssFile") + kb("RssShmem") };
}

/** Epoch milliseconds at which a process was spawned (/proc stat starttime, 10 ms ticks). */
function spawnedAt(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const startTicks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  const uptime = Number(fs.readFileSync("/proc/uptime", "utf8").split(" ")[0]);
  return Date.now() - (uptime - startTicks / 100) * 1000;
}

function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** V8's heap of a process in MiB from its /metrics (prom-client's default metrics). */
async function heapOf(adminPort: string): Promise<{ young: number; old: number; code: number; total: number; external: number }> {
  const text = await (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text();
  const value = (name: string, space?: string) => {
    // Lines carry the registry's default labels too: `name{space="new",service="auth"} 123`.
    const line = text.split("\n").find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && (!space || l.includes(`space="${space}"`)));
    return Number(line?.split(" ").pop()) / MiB;
  };
  return {
    young: value("nodejs_heap_space_size_total_bytes", "new"),
    old: value("nodejs_heap_space_size_total_bytes", "old"),
    code: value("nodejs_heap_space_size_total_bytes", "code"),
    total: value("nodejs_heap_size_total_bytes"),
    external: value("nodejs_external_memory_bytes"),
  };
}

/** Requests through the gateway, four at a time: a login, then findings lists (the hot read path). */
async function requestBurst(readyLine: string, gateway: string): Promise<Record<string, number>> {
  const [, user, password] = /username=(\S+) -d password=(\S+)/.exec(readyLine) ?? [];
  const login = await fetch(`${gateway}/api/v1/auth/token`, { method: "POST", body: new URLSearchParams({ username: user!, password: password! }) });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const statuses: Record<string, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < burst) {
      next++;
      const res = await fetch(`${gateway}/api/v1/findings`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return statuses;
}

/** Kills a process and times the supervisor's respawn of it from spawn to ready (/readyz). */
async function restartMs(run: RunningStart, p: StartedProcess): Promise<number> {
  const adminPort = envOf(p.pid).ADMIN_PORT!;
  process.kill(p.pid, "SIGTERM");
  for (let waited = 0; ; waited += 20) {
    const fresh = childrenOf(run.pid).find((c) => c !== p.pid && fs.existsSync(`/proc/${c}`) && envOf(c).ADMIN_PORT === adminPort);
    if (fresh !== undefined) {
      const at = spawnedAt(fresh);
      while (!(await httpOk(`http://127.0.0.1:${adminPort}/readyz`, 1000).catch(() => false))) await sleep(25);
      p.pid = fresh;
      return Date.now() - at;
    }
    if (waited > 60_000) throw new Error(`${p.name} was not restarted within 60 s`);
    await sleep(20);
  }
}

const totalSeconds = (readyLine: string) => Number(/ in ([\d.]+) s on /.exec(readyLine)?.[1]);

async function stop(run: RunningStart): Promise<{ stopMs: number; restarted: boolean }> {
  const before = run.output().length;
  const t0 = Date.now();
  run.interrupt();
  await run.exited;
  return { stopMs: Date.now() - t0, restarted: /restarting it/.test(run.output().slice(before)) };
}

await ensureBuilt();
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
console.log(
  `[bench] ${os.cpus().length} cores, Node ${process.version}; env ${JSON.stringify(extraEnv)}; idle ${idleSeconds} s after a burst of ${burst} requests; load ${load()}`,
);
const home = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-bench-runtime-"));
const runs: RunningStart[] = [];
try {
  const fresh = launchStart({ home, port: await freePort(), env: extraEnv });
  runs.push(fresh);
  const first = await fresh.ready;
  const firstStop = await stop(fresh);

  const again = launchStart({ home, port: await freePort(), env: extraEnv });
  runs.push(again);
  const second = await again.ready;
  const gateway = /vulnscan ready at (\S+)/.exec(second.readyLine)![1]!;
  const statuses = await requestBurst(second.readyLine, gateway);
  console.log(`[bench] burst: ${JSON.stringify(statuses)} (status: count)`);
  await sleep(idleSeconds * 1000);
  const rows: string[] = [];
  let rssTotal = (await rssMiB(again.pid)) ?? Number.NaN;
  const own = rssParts(again.pid);
  rows.push(`| npm start supervisor | ${rssTotal.toFixed(0)} | ${own.anon.toFixed(0)} / ${own.file.toFixed(0)} | – | – | – | – | – | – | – |`);
  const restarts: Record<string, number> = {};
  const measured = [];
  for (const p of second.processes) {
    const rss = (await rssMiB(p.pid)) ?? Number.NaN;
    rssTotal += rss;
    measured.push({ p, rss, parts: rssParts(p.pid), heap: await heapOf(envOf(p.pid).ADMIN_PORT!) });
  }
  console.log(`[bench] measured after ${idleSeconds} s idle; load ${load()}`);
  for (const p of second.processes) restarts[p.name] = await restartMs(again, p);
  for (const { p, rss, parts, heap } of measured) {
    const coldMs = first.processes.find((q) => q.name === p.name)?.readyMs ?? Number.NaN;
    rows.push(
      `| ${p.name} | ${rss.toFixed(0)} | ${parts.anon.toFixed(0)} / ${parts.file.toFixed(0)} | ${heap.young.toFixed(1)} | ${heap.old.toFixed(0)} | ${heap.total.toFixed(0)} | ${heap.external.toFixed(0)} | ${(coldMs / 1000).toFixed(1)} | ${(p.readyMs / 1000).toFixed(1)} | ${((restarts[p.name] ?? Number.NaN) / 1000).toFixed(1)} |`,
    );
  }
  const secondStop = await stop(again);
  console.log(
    [
      "| process | idle RSS (MiB) | of it anonymous / file (MiB) | V8 young gen. (MiB) | V8 old space (MiB) | V8 heap total (MiB) | external (MiB) | start to ready, fresh data (s) | start to ready, existing data (s) | restart to ready, rest running (s) |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...rows,
      `| **total** | ${rssTotal.toFixed(0)} | | | | | | | | |`,
    ].join("\n"),
  );
  console.log(`[bench] whole npm start to "vulnscan ready": fresh data ${totalSeconds(first.readyLine)} s, existing data ${totalSeconds(second.readyLine)} s`);
  console.log(
    `[bench] Ctrl-C (SIGINT) to exit: ${(firstStop.stopMs / 1000).toFixed(1)} s, ${(secondStop.stopMs / 1000).toFixed(1)} s; ` +
      `a restart during a stop: ${firstStop.restarted || secondStop.restarted ? "YES" : "none"}; load ${load()}`,
  );
} finally {
  for (const run of runs) {
    try {
      process.kill(-run.pid, "SIGTERM");
    } catch {
      // stopped already
    }
    await run.exited;
  }
  fs.rmSync(home, { recursive: true, force: true });
}
