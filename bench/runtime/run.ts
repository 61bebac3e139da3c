// Idle memory and start-to-ready time of every `npm start` process, before (TypeScript through
// tsx) and after (the compiled bundles in dist/), in one run on this machine:
//   npx tsx bench/runtime/run.ts [--idle-seconds 20]
// Each mode is a real `npm start` supervisor with a stack of its own (a temporary VULNSCAN_HOME,
// a free gateway port), left idle, measured (VmRSS from /proc), then stopped with SIGINT.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ensureBuilt } from "../../scripts/lib/build.js";
import { freePort } from "../../scripts/lib/net.js";
import { launchStart, rssMiB } from "../../scripts/lib/start-process.js";
import type { Runtime } from "../../scripts/system.js";

const idleArg = process.argv.indexOf("--idle-seconds");
const idleSeconds = idleArg > 0 ? Number(process.argv[idleArg + 1]) : 20;

interface Measured {
  rss: Record<string, number>;
  readyMs: Record<string, number>;
  stopMs: number;
  restarted: boolean;
}

async function measure(runtime: Runtime): Promise<Measured> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `vulnscan-bench-runtime-${runtime}-`));
  const run = launchStart({ home, port: await freePort(), runtime });
  try {
    const { processes } = await run.ready;
    await sleep(idleSeconds * 1000);
    const rss: Record<string, number> = { "npm start supervisor": (await rssMiB(run.pid)) ?? Number.NaN };
    const readyMs: Record<string, number> = {};
    for (const p of processes) {
      rss[p.name] = (await rssMiB(p.pid)) ?? Number.NaN;
      readyMs[p.name] = p.readyMs;
    }
    const t0 = Date.now();
    run.interrupt();
    await run.exited;
    return { rss, readyMs, stopMs: Date.now() - t0, restarted: /restarting it/.test(run.output()) };
  } finally {
    try {
      process.kill(run.pid, "SIGTERM");
    } catch {
      // stopped already
    }
    await run.exited;
    fs.rmSync(home, { recursive: true, force: true });
  }
}

await ensureBuilt();
console.log(`[bench] ${os.cpus().length} cores, Node ${process.version}; each mode idle ${idleSeconds} s after ready`);
const before = await measure("tsx");
const after = await measure("compiled");
const names = Object.keys(after.rss);
const fmt = (n: number | undefined, digits = 0) => (n === undefined || Number.isNaN(n) ? "–" : n.toFixed(digits));
const rows = [
  "| process | idle RSS, tsx (MiB) | idle RSS, compiled (MiB) | start to ready, tsx (s) | start to ready, compiled (s) |",
  "|---|---:|---:|---:|---:|",
  ...names.map(
    (n) =>
      `| ${n} | ${fmt(before.rss[n])} | ${fmt(after.rss[n])} | ${fmt(before.readyMs[n] === undefined ? undefined : before.readyMs[n] / 1000, 1)} | ${fmt(after.readyMs[n] === undefined ? undefined : after.readyMs[n] / 1000, 1)} |`,
  ),
  `| **total** | ${fmt(Object.values(before.rss).reduce((a, b) => a + b, 0))} | ${fmt(Object.values(after.rss).reduce((a, b) => a + b, 0))} | | |`,
];
console.log(rows.join("\n"));
console.log(
  `[bench] Ctrl-C (SIGINT) to exit: tsx ${(before.stopMs / 1000).toFixed(1)} s, compiled ${(after.stopMs / 1000).toFixed(1)} s; ` +
    `a restart during the stop: ${before.restarted || after.restarted ? "YES" : "none"}`,
);
