// Read capacity through the public REST API, as a customer sees it: one organization with N
// findings and M scans (seeded straight into the services' databases in the services' own
// document shapes), then for each read route a capacity pass (C connections, as fast as answers
// come; CPU per request of every process from /proc) and a pass at a fixed 100 req/s (p50/p99),
// beside a bare Fastify route measured the same way in the same run. See README.md.
//
//   npx tsx bench/capacity/run.ts [--findings 100000] [--scans 1000] [--duration 10]
//     [--connections 20] [--rate 100] [--warmup 10] [--settle 60] [--reuse] [--attach]
//     [--json FILE] [--max-minutes 60] [--log-level warn]
//
// Starts its own stack and system (stopped at the end, on Ctrl-C and at --max-minutes), or with
// --attach measures the running `npm start`. --reuse keeps the data for the next run (own stack:
// in ~/.cache/vulnscan/bench-capacity) and skips or resumes seeding of an organization of the
// same sizes.
import fs from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { createApiKey, ensureAccount, raiseLimits, signIn } from "./account.js";
import { type DatasetSpec, expected, findingId, scanId } from "./dataset.js";
import { startBare, stopLoad } from "./load.js";
import { idleShare } from "./procs.js";
import { measureRoute, type Route, type RouteResult } from "./measure.js";
import { goalsText, judge, tables, writeJson } from "./report.js";
import { seed, type SeedReport } from "./seed.js";
import { attach, startOwn, type Target } from "./system.js";
import { verifySeed, waitForLimits } from "./verify.js";

const defaults = {
  findings: "100000",
  scans: "1000",
  duration: "10",
  connections: "20",
  rate: "100",
  // Longer than the idle collector's 3 s busy check (services/kit/src/idle-collector.ts): each pass
  // starts after the system was quiet, with its young generation given back, and a 2 s warm-up
  // left finding detail's CPU per request 40 % above what 10 s did (3.32 → 2.31 ms, 2026-11-29).
  warmup: "10",
  settle: "60",
  "max-minutes": "60",
  "log-level": "warn",
};
type Named = keyof typeof defaults;
const str = (name: Named) => ({ type: "string" as const, default: defaults[name] });
const { values: args } = parseArgs({
  options: {
    findings: str("findings"),
    scans: str("scans"),
    duration: str("duration"),
    connections: str("connections"),
    rate: str("rate"),
    warmup: str("warmup"),
    settle: str("settle"),
    "max-minutes": str("max-minutes"),
    "log-level": str("log-level"),
    json: { type: "string" },
    reuse: { type: "boolean", default: false },
    attach: { type: "boolean", default: false },
  },
});
const int = (name: Exclude<Named, "log-level">, min: number) => {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < min) {
    process.stderr.write(`--${name} must be a whole number ≥ ${min} (got ${args[name]})\n`);
    process.exit(2);
  }
  return n;
};
const opts = {
  findings: int("findings", 1),
  scans: int("scans", 1),
  duration: int("duration", 1),
  connections: int("connections", 1),
  rate: int("rate", 1),
  warmup: int("warmup", 0),
  settleMs: int("settle", 0) * 1000,
  maxMinutes: int("max-minutes", 1),
};
const HOURLY_LIMIT = 2_000_000_000;
const DETAIL_IDS = 50;

const t0 = Date.now();
const log = (s: string) => process.stderr.write(`[capacity ${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${s}\n`);

// ---- stopping: at the end, on Ctrl-C, at the time limit; only what this run started ----
const cleanups: ((code: number) => Promise<unknown>)[] = [];
let stopping = false;
async function finish(code: number, why?: string): Promise<never> {
  if (!stopping) {
    stopping = true;
    if (why) log(why);
    stopLoad();
    for (const c of cleanups.reverse()) await c(code).catch((err) => log(`cleanup: ${(err as Error).message}`));
    log(`done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    process.exit(code);
  }
  return new Promise<never>(() => undefined);
}
process.on("SIGINT", () => void finish(130, "interrupted: stopping what this run started"));
process.on("SIGTERM", () => void finish(143, "terminated: stopping what this run started"));
setTimeout(() => void finish(124, `time limit of ${opts.maxMinutes} minutes reached: stopping`), opts.maxMinutes * 60_000).unref();

async function main(): Promise<number> {
  const target: Target = args.attach ? attach() : await startOwn({ persistent: args.reuse, logLevel: args["log-level"], log });
  cleanups.push(async (code) => {
    await target.stop();
    // The services' logs are kept when something went wrong.
    if (code === 0 && target.logDir) fs.rmSync(target.logDir, { recursive: true, force: true });
    else if (target.logDir) log(`service logs kept in ${target.logDir}`);
  });
  log(
    `system ${target.mode} at ${target.gatewayUrl}; ${target.mongoServer}${target.logDir ? `; service logs in ${target.logDir}` : ""}${target.dataDir ? `; data kept in ${target.dataDir}` : ""}`,
  );

  // ---- the customer and its data ----
  const account = await ensureAccount(target, opts, args.reuse, log);
  await raiseLimits(target, account.orgId);
  const spec: DatasetSpec = {
    orgId: account.orgId,
    findings: opts.findings,
    scans: opts.scans,
    anchor: account.anchor,
    user: { id: account.userId, email: account.email },
  };
  const want = expected(spec);
  log(`seeding ${opts.findings} findings and ${opts.scans} scans into ${target.dbPrefix}findings and ${target.dbPrefix}scans`);
  const seeded: SeedReport = await seed(target, spec, want, log);
  log(seeded.skipped ? "seeding skipped (already there)" : `seeding took ${seeded.seconds.total.toFixed(1)} s`);

  const token = await signIn(target.gatewayUrl, account.email);
  const apiKey = await createApiKey(target.gatewayUrl, token);
  const auth = { "x-api-key": apiKey };
  await waitForLimits(target.gatewayUrl, auth, HOURLY_LIMIT);
  const checks = await verifySeed(target.gatewayUrl, auth, spec, want);
  for (const c of checks) log(`check ${c.what}: ${c.ok ? "ok" : c.unknown ? "NOT ANSWERED" : "WRONG"} — ${c.detail}`);
  const wrong = checks.filter((c) => !c.ok && !c.unknown);
  if (wrong.length > 0) throw new Error(`the API does not answer what was seeded: ${wrong.map((c) => c.what).join(", ")}`);

  // ---- the routes ----
  const bare = await startBare();
  cleanups.push(() => bare.stop());
  const sample = (n: number, id: (i: number) => string) =>
    Array.from({ length: Math.min(DETAIL_IDS, n) }, (_, j) => id(Math.floor((j * n) / Math.min(DETAIL_IDS, n))));
  const api = (key: string, label: string, paths: string[]): Route => ({ key, label, origin: target.gatewayUrl, paths, headers: auth });
  const routes: Route[] = [
    { key: "bare", label: "bare Fastify GET / → {}", origin: bare.url, paths: ["/"], headers: {} },
    api("findingsList", "GET /api/v1/findings?per_page=20", ["/api/v1/findings?per_page=20"]),
    api("findingsTriage", "GET /api/v1/findings?severity=high&status=open&per_page=20", ["/api/v1/findings?severity=high&status=open&per_page=20"]),
    api("scansList", "GET /api/v1/scans?per_page=20", ["/api/v1/scans?per_page=20"]),
    api(
      "findingDetail",
      `GET /api/v1/findings/{id} (${Math.min(DETAIL_IDS, opts.findings)} ids)`,
      sample(opts.findings, (i) => `/api/v1/findings/${findingId(spec, i)}`),
    ),
    api(
      "scanDetail",
      `GET /api/v1/scans/{id} (${Math.min(DETAIL_IDS, opts.scans)} ids)`,
      sample(opts.scans, (i) => `/api/v1/scans/${scanId(spec, i)}`),
    ),
  ];
  // Cheap routes first: a slow list leaves work in the database that would weigh on the next route.
  const order = ["bare", "findingDetail", "scanDetail", "scansList", "findingsTriage", "findingsList"];
  const processes = () => [...target.processes(), { name: "bare fastify", pid: bare.pid }];
  log(
    `processes measured: ${processes()
      .map((p) => `${p.name} ${p.pid}`)
      .join(", ")}`,
  );
  const idle = await idleShare(processes());
  log(`their idle use: ${(idle * 100).toFixed(0)} % of one core together (each pass starts once they are back within 10 points of it)`);
  const results = new Map<string, RouteResult>();
  for (const key of order) {
    const route = routes.find((r) => r.key === key)!;
    if (stopping) break;
    results.set(key, await measureRoute(route, { ...opts, idle, processes, stopped: () => stopping, log }));
  }
  const ordered = routes.map((r) => results.get(r.key)!);

  // ---- the report ----
  const goals = judge(ordered, opts.rate);
  const seedLine = seeded.skipped
    ? "seeding: skipped, the organization already held the data (--reuse)"
    : `seeding: ${seeded.seconds.total.toFixed(1)} s (scans ${seeded.seconds.scans.toFixed(1)} s, findings ${seeded.seconds.findings.toFixed(1)} s, ${seeded.findingsInserted} new at ${Math.round(seeded.findingsInserted / Math.max(seeded.seconds.findings, 0.001))}/s, rollups rebuilt ${seeded.seconds.rollups.toFixed(1)} s)`;
  const title = `Read capacity: ${opts.findings.toLocaleString("en")} findings, ${opts.scans.toLocaleString("en")} scans in one organization; ${target.mongoServer}; ${os.cpus().length} cores (load average ${os.loadavg()[0]!.toFixed(1)} at the end); ${opts.connections} connections, ${opts.duration} s per pass after ${opts.warmup} s warm-up; fixed rate ${opts.rate} req/s paced (open loop); autocannon 8.0.0 for capacity; system ${target.mode}`;
  const errors = ordered.filter((r) => r.capacity.non2xx + r.capacity.errors + r.fixed.non2xx + r.fixed.errors > 0);
  const unanswered = checks.filter((c) => c.unknown).map((c) => `${c.what} (${c.detail})`);
  const out = [
    "",
    title,
    seedLine,
    ...(unanswered.length ? [`not verified before measuring (no answer in time): ${unanswered.join("; ")}`] : []),
    "",
    tables(ordered, opts),
    "",
    "Goals",
    goalsText(goals),
    "",
    errors.length
      ? `THIS RUN HAD ERRORS on: ${errors.map((r) => r.label).join("; ")} (non-2xx answers or requests without an answer; see the status column)`
      : "No errors: every request answered 2xx.",
    "",
  ];
  process.stdout.write(out.join("\n"));
  if (args.json) {
    writeJson(args.json, {
      date: new Date().toISOString(),
      machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model, load: os.loadavg() },
      database: target.mongoServer,
      system: target.mode,
      options: { ...opts, reuse: args.reuse, attach: args.attach, logLevel: args["log-level"] },
      organization: { id: account.orgId, name: account.name, reused: account.existing },
      seeding: seeded,
      checks,
      routes: ordered,
      goals,
      errors: errors.map((r) => r.key),
    });
    log(`figures written to ${args.json}`);
  }
  return errors.length > 0 ? 1 : 0;
}

try {
  await finish(await main());
} catch (err) {
  await finish(1, `failed: ${(err as Error).stack ?? err}`);
}
