// Load benchmark (issue 14 item 4), on its own stack, system and scan lab; bounded, stops by itself.
//
//   npm run bench:load [-- --duration 60 --clients 200 --baseline 10]
//
// Part 1 (scans, first, so the organizations have scans and findings to read): concurrent scan
// requests of the lab from organizations on the three plans, run by two scanner processes in one
// consumer group. Every admitted scan must complete; each organization admits exactly what its
// plan allows (Startup 1 and Professional 3 concurrent scans, Enterprise its monthly quota), the
// rest refused with 429 and the quota's error code; GET /scans/quota agrees.
// Part 2 (requests): `clients` concurrent clients of nine organizations (three per plan) for
// `duration` seconds through the gateway, mixing the read endpoints a client uses, with bearer
// tokens and API keys; before it, the same load generator against a bare Fastify route for
// `baseline` seconds. No 5xx; per organization and rate window, admitted = limit when anything
// was refused, every answer with the X-RateLimit-* headers, every 429 in the spec's error shape.
// Exits 1 when a check fails.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { authAdmin, type CustomLimits } from "@vulnscan/auth/admin";
import { createLogger, createMongo, KafkaBus } from "@vulnscan/kit";
import Fastify from "fastify";
import { freePort, httpOk, waitUntil } from "../../scripts/lib/net.js";
import { ROOT } from "../../scripts/lib/root.js";
import { startStack } from "../../scripts/stack/index.js";
import { startSystem } from "../../scripts/system.js";
import { startLab } from "../../test/lab/lab.js";
import { Api } from "../../test/support/api.js";
import type { ClientSpec, LoadPlan, LoadSummary, PlanFigures } from "./clients.js";
import { judgeWindow, Tally } from "./tally.js";
import { setTimeout as sleep } from "node:timers/promises";

const options = { duration: "60", clients: "200", baseline: "10" };
const { values } = parseArgs({ options: Object.fromEntries(Object.entries(options).map(([k, v]) => [k, { type: "string", default: v }])) });
const [DURATION, CLIENTS, BASELINE] = [values.duration, values.clients, values.baseline].map(Number) as [number, number, number];
const SCAN_TIMEOUT_MS = 15 * 60_000;
const PASSWORD = "load-benchmark-password-1";
const log = (s: string) => process.stderr.write(`[bench:load] ${new Date().toISOString().slice(11, 19)} ${s}\n`);
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
  return ok ? "ok" : "FAILED";
};

type Tier = "startup" | "professional" | "enterprise";
/**
 * The organizations (bench/load/README.md): S1/S2 are runaway scripts ignoring Retry-After (they
 * meet their limit within seconds, then get 429s); P1/P2/E1 closed-loop clients meant to reach
 * theirs; the rest paced dashboards far below. `share` is the part of the clients. The few
 * closed-loop clients on plans whose requests reach the services are sized to what the shared
 * 2-core development machine answers (more of them push it past the 10 s upstream timeout).
 * Enterprise limits are the operator's (set-limits): E1 low enough to be met, E2/E3 far above.
 */
interface OrgSpec {
  name: string;
  tier: Tier;
  share: number;
  thinkMs: number;
  scans: number;
  limits?: CustomLimits;
}
const lim = (max: number) => ({ unlimited: false, max });
const ORGS: OrgSpec[] = [
  { name: "S1", tier: "startup", share: 55, thinkMs: 100, scans: 3 },
  { name: "S2", tier: "startup", share: 55, thinkMs: 100, scans: 3 },
  { name: "S3", tier: "startup", share: 1, thinkMs: 1000, scans: 0 },
  { name: "P1", tier: "professional", share: 5, thinkMs: 0, scans: 5 },
  { name: "P2", tier: "professional", share: 5, thinkMs: 0, scans: 5 },
  { name: "P3", tier: "professional", share: 2, thinkMs: 500, scans: 0 },
  { name: "E1", tier: "enterprise", share: 5, thinkMs: 0, scans: 9, limits: { requestsPerHour: lim(150), requestsPerDay: lim(1e6), scansPerMonth: lim(6) } },
  // Far below their limits: dashboards refreshing every 10 s.
  {
    name: "E2",
    tier: "enterprise",
    share: 36,
    thinkMs: 10_000,
    scans: 9,
    limits: { requestsPerHour: lim(1e8), requestsPerDay: lim(1e9), scansPerMonth: lim(6) },
  },
  { name: "E3", tier: "enterprise", share: 36, thinkMs: 10_000, scans: 0, limits: { requestsPerHour: lim(1e8), requestsPerDay: lim(1e9) } },
];

interface Org extends OrgSpec {
  id: string;
  email: string;
  /** The hourly request limit and the scan limits auth reports for it. */
  perHour: number;
  concurrentScans: number | "unlimited";
  scansPerMonth: number | "unlimited";
  api: Api;
  token: string;
  apiKey?: string;
  scanIds: string[];
  findingId?: string;
}

const tally = new Tally();
/** A request of `org` through the gateway, counted in the tally like the load generator's. */
async function call(org: Org, method: string, url: string, body?: unknown, api = org.api) {
  const r = await api.request(method, url, body);
  tally.record(org.id, { status: r.status, body: r.body, header: (n) => r.headers.get(n) ?? undefined });
  if (r.status >= 500) failures.push(`${r.status} on ${method} ${url} (${org.name}): ${JSON.stringify(r.body)}`);
  return r;
}

/** One more scanner process in the first one's consumer group (the second worker). */
async function startSecondScanner(env: Record<string, string>, prefix: string, logDir: string) {
  const [rpc, adminPort] = [await freePort(), await freePort()];
  const logFile = path.join(logDir, "scanner-2.log");
  const out = fs.openSync(logFile, "a");
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "services/scanner/src/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      MONGO_DB: `${prefix}scanner`,
      SCANNER_CONSUMER_GROUP: `${prefix}scanner`,
      RPC_PORT: String(rpc),
      ADMIN_PORT: String(adminPort),
    },
    stdio: ["ignore", out, out],
  });
  fs.closeSync(out);
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  await waitUntil(() => httpOk(`${adminUrl}/readyz`), {
    timeoutMs: 120_000,
    what: "second scanner",
    failIf: () => (child.exitCode !== null ? `exited with code ${child.exitCode}; see ${logFile}` : undefined),
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, sleep(10_000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  return { adminUrl, stop };
}

/** scanner_jobs_total of one scanner, summed over outcomes. */
async function jobsOf(adminUrl: string): Promise<number> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  return text
    .split("\n")
    .filter((l) => l.startsWith("scanner_jobs_total"))
    .reduce((n, l) => n + Number(l.split(" ").at(-1)), 0);
}

/** Runs the load generator in its own process; its summary. */
async function load(plan: LoadPlan, dir: string, name: string): Promise<LoadSummary> {
  const input = path.join(dir, `${name}-plan.json`);
  const output = path.join(dir, `${name}-summary.json`);
  fs.writeFileSync(input, JSON.stringify(plan));
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/load/clients.ts"), input, output], { cwd: ROOT, stdio: "inherit" });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) throw new Error(`the load generator exited with ${code}`);
  return JSON.parse(fs.readFileSync(output, "utf8")) as LoadSummary;
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "-");
const limitOf = (l: { unlimited: boolean; max: number }) => (l.unlimited ? ("unlimited" as const) : l.max);

const t0 = Date.now();
const stack = await startStack({ log });
// The services' environment for this server (FERRETDB_POSTGRESQL_URL on PostgreSQL), for the
// processes started here and the admin use cases run in this process.
Object.assign(process.env, stack.serviceEnv);
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-load-"));
const prefix = `load${Date.now().toString(36)}_`;
const cleanup: (() => Promise<unknown>)[] = [() => stack.stop()];
let exitCode = 1;
try {
  // Loopback mode: kernel-picked ports on 127.0.0.1, scanned through the explicit port list.
  const lab = await startLab({ loopback: true, realServers: false });
  cleanup.unshift(() => lab.stop());
  const system = await startSystem({
    kafkaBrokers: stack.kafkaBrokers,
    mongoUrl: stack.mongoUrl,
    dbPrefix: prefix,
    logDir: workDir,
    logLevel: "warn",
    env: { SCAN_ALLOWED_NETWORKS: lab.allowedNetworks, SCANNER_HEARTBEAT_MS: "2000" },
  });
  cleanup.unshift(() => system.stop());
  // The scanner's environment is the gateway's (upstreams, stack, allowlists) with its own database.
  const scanner2 = await startSecondScanner(system.gatewayEnv, prefix, workDir);
  cleanup.unshift(() => scanner2.stop());
  log(`stack, lab (${lab.mode}), system and a second scanner ready in ${((Date.now() - t0) / 1000).toFixed(0)} s; logs in ${workDir}`);

  // Organizations on each plan, created with auth's operator use cases (as `npm run admin` does),
  // their events published at once so the gateway knows the Enterprise limits before any request.
  const logger = createLogger("bench-load", "silent");
  const mongo = createMongo(stack.mongoUrl, `${prefix}auth`, "bench-load");
  const kafka = new KafkaBus({ clientId: "bench-load", brokers: [stack.kafkaBrokers], logger });
  const { directory } = await authAdmin(mongo.db, { kafka, logger });
  const orgs: Org[] = [];
  for (const spec of ORGS) {
    let view = await directory.createOrganization(`Load ${spec.name}`, spec.tier);
    if (spec.limits) view = await directory.setLimits(view.organization.id, spec.limits);
    const email = `load-${spec.name.toLowerCase()}-${prefix.slice(0, -1)}@example.test`;
    await directory.createUser(view.organization.id, email, PASSWORD);
    const l = view.plan.limits;
    orgs.push({
      ...spec,
      id: view.organization.id,
      email,
      perHour: l.requestsPerHour.max,
      concurrentScans: limitOf(l.concurrentScans),
      scansPerMonth: limitOf(l.scansPerMonth),
      api: new Api(system.gatewayUrl),
      token: "",
      scanIds: [],
    });
  }
  await kafka.close();
  await mongo.close();
  const signIn = async (o: Org) => {
    const res = await o.api.token(o.email, PASSWORD); // public: not rate-limited
    if (res.status !== 200) throw new Error(`sign-in of ${o.name} answered ${res.status}`);
    o.token = res.body.access_token;
    o.api = o.api.withToken(o.token);
  };
  await Promise.all(orgs.map(signIn));
  // API keys where the plan has them (Professional, Enterprise): half of those clients use one.
  for (const o of orgs.filter((x) => x.tier !== "startup")) {
    const res = await call(o, "POST", "/api/v1/auth/api-keys", { name: "load", permissions: ["read:scans", "read:findings", "read:grc"] });
    if (res.status !== 201) throw new Error(`API key of ${o.name}: ${res.status} ${JSON.stringify(res.body)}`);
    o.apiKey = res.body.key;
  }

  // ---- Part 1: concurrent scans of the lab, two scanner workers ----
  const scanBody = { target: lab.weak.address, scan_type: "quick", ports: lab.weak.ports.join(","), authorized: true };
  const scanning = orgs.filter((o) => o.scans > 0);
  const submissions = scanning.flatMap((o) => Array.from({ length: o.scans }, () => o));
  log(
    `part 1: ${submissions.length} scan requests at once from ${scanning.length} organizations (quick scans of ${lab.weak.address}, ${lab.weak.ports.length} ports)`,
  );
  const tScans = Date.now();
  const answers = await Promise.all(submissions.map((o) => call(o, "POST", "/api/v1/scans", scanBody).then((r) => ({ o, r }))));
  const refusedBy = new Map<string, Record<string, number>>();
  for (const { o, r } of answers) {
    if (r.status === 201) o.scanIds.push(r.body.id);
    else {
      const code = r.status === 429 ? String(r.body?.error_code) : `${r.status} ${r.body?.error_code ?? ""}`;
      const m = refusedBy.get(o.id) ?? {};
      m[code] = (m[code] ?? 0) + 1;
      refusedBy.set(o.id, m);
    }
  }
  // Wait for every admitted scan to reach a final state (a poll of the list per organization).
  const final = new Map<string, { status: string; created_at: string; completed_at?: string }>();
  const admittedTotal = scanning.reduce((n, o) => n + o.scanIds.length, 0);
  // Startup organizations every 15 s only: their 100 requests an hour must last the wait.
  for (let round = 1; final.size < admittedTotal && Date.now() - tScans < SCAN_TIMEOUT_MS; round++) {
    await sleep(5000);
    for (const o of scanning) {
      if (o.scanIds.every((id) => final.has(id)) || (o.tier === "startup" && round % 3 !== 0)) continue;
      const res = await call(o, "GET", "/api/v1/scans?per_page=50");
      for (const s of res.status === 200 ? (res.body.items as { id: string; status: string; created_at: string; completed_at?: string }[]) : []) {
        if (s.status !== "pending" && s.status !== "running") final.set(s.id, s);
      }
    }
    log(`part 1: ${final.size}/${admittedTotal} scans final`);
  }
  const scansWallS = (Date.now() - tScans) / 1000;
  const jobs = [await jobsOf(system.processes.scanner.adminUrl), await jobsOf(scanner2.adminUrl)];
  const quotas = new Map<string, { used: number; remaining: number | null }>();
  for (const o of scanning) {
    const q = (await call(o, "GET", "/api/v1/scans/quota")).body;
    quotas.set(o.id, { used: q.used_this_month, remaining: q.remaining });
  }

  // ---- Part 2: request load ----
  await Promise.all(orgs.map(signIn)); // fresh tokens: part 1 may have taken a while
  // Detections of the last scans may still be ingested: wait until the findings totals hold
  // still for 5 s (at most a minute), so part 2 measures reads, not the tail of part 1.
  let totals = "";
  for (let i = 0; i < 12; i++) {
    const now = JSON.stringify(await Promise.all(scanning.map(async (o) => (await call(o, "GET", "/api/v1/findings?per_page=1")).body?.total)));
    if (now === totals) break;
    totals = now;
    await sleep(5000);
  }
  for (const o of scanning) {
    const res = await call(o, "GET", "/api/v1/findings?per_page=1");
    o.findingId = res.body?.items?.[0]?.id;
  }
  const pathsOf = (o: Org) => [
    "/api/v1/findings?per_page=20",
    "/api/v1/findings/stats",
    "/api/v1/scans?per_page=20",
    "/api/v1/controls",
    "/api/v1/findings?severity=high&status=open&per_page=20",
    "/api/v1/scans/quota",
    ...(o.findingId ? [`/api/v1/findings/${o.findingId}`] : []),
    ...(o.scanIds[0] ? [`/api/v1/scans/${o.scanIds[0]}`, `/api/v1/scans/${o.scanIds[0]}/findings`] : []),
  ];
  const shares = ORGS.reduce((n, o) => n + o.share, 0);
  const clients: ClientSpec[] = [];
  for (const o of orgs) {
    const n = Math.max(1, Math.round((o.share / shares) * CLIENTS));
    for (let i = 0; i < n; i++) {
      const viaKey = o.apiKey && i % 2 === 1;
      const headers: Record<string, string> = viaKey ? { "x-api-key": o.apiKey! } : { authorization: `Bearer ${o.token}` };
      clients.push({ org: o.id, plan: o.tier, headers, paths: pathsOf(o), thinkMs: o.thinkMs, limited: true });
    }
  }

  // The bare baseline: a Fastify route answering a small JSON body, in this (otherwise idle)
  // process, under the same load generator and client count.
  const bare = Fastify({ logger: false });
  bare.get("/bare", async () => ({ ok: true }));
  await bare.listen({ host: "127.0.0.1", port: 0 });
  cleanup.unshift(() => bare.close());
  const bareOrigin = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;
  log(`part 2: baseline, ${clients.length} clients on a bare Fastify route for ${BASELINE} s`);
  const baseline = await load(
    {
      origin: bareOrigin,
      durationS: BASELINE,
      clients: clients.map((c) => ({ ...c, plan: "bare", headers: {}, paths: ["/bare"], thinkMs: 0, limited: false })),
    },
    workDir,
    "baseline",
  );
  log(`part 2: ${clients.length} clients through the gateway for ${DURATION} s`);
  const summary = await load({ origin: system.gatewayUrl, durationS: DURATION, clients }, workDir, "gateway");
  tally.merge(summary.tally);
  for (const e of summary.errors) failures.push(e);

  // ---- Report ----
  const out: string[] = [];
  const line = (s = "") => out.push(s);
  line();
  line(`Load benchmark (${os.cpus().length} cores, shared; database ${stack.mongoServer}; Kafka ${stack.kafkaServer}; lab in ${lab.mode} mode; one gateway)`);
  line();
  line(`Part 1: ${submissions.length} concurrent scan requests, 2 scanner workers (SCANNER_CONCURRENCY 2 each)`);
  line("org  plan          asked  admitted  expected  refused (429 error_code)            completed  quota used/remaining   check");
  for (const o of scanning) {
    const expected =
      o.concurrentScans !== "unlimited" ? Math.min(o.scans, o.concurrentScans) : o.scansPerMonth !== "unlimited" ? Math.min(o.scans, o.scansPerMonth) : o.scans;
    const refused = refusedBy.get(o.id) ?? {};
    const wantCode = o.concurrentScans !== "unlimited" ? "CONCURRENT_SCAN_LIMIT" : "SCAN_QUOTA_EXCEEDED";
    const completed = o.scanIds.filter((id) => final.get(id)?.status === "completed").length;
    const q = quotas.get(o.id)!;
    const wantRemaining = o.scansPerMonth === "unlimited" ? null : o.scansPerMonth - o.scanIds.length;
    const ok =
      o.scanIds.length === expected &&
      (refused[wantCode] ?? 0) === o.scans - expected &&
      Object.keys(refused).every((k) => k === wantCode) &&
      completed === expected &&
      q.used === expected &&
      q.remaining === wantRemaining;
    const refusedText = Object.entries(refused)
      .map(([k, n]) => `${n} ${k}`)
      .join(", ");
    line(
      `${o.name.padEnd(4)} ${o.tier.padEnd(13)} ${String(o.scans).padStart(5)} ${String(o.scanIds.length).padStart(9)} ${String(expected).padStart(9)}  ${(refusedText || "-").padEnd(35)} ${String(completed).padStart(9)}  ${`${q.used}/${q.remaining ?? "unlimited"}`.padEnd(20)}  ${check(ok, `scans of ${o.name}: admitted ${o.scanIds.length}/${expected}, refused ${refusedText}, completed ${completed}, quota ${q.used}/${q.remaining}`)}`,
    );
  }
  const durations = [...final.values()]
    .filter((s) => s.completed_at)
    .map((s) => (Date.parse(s.completed_at!) - Date.parse(s.created_at)) / 1000)
    .sort((a, b) => a - b);
  const allDone = [...final.values()].filter((s) => s.status === "completed").length;
  line(
    `scans: ${allDone}/${admittedTotal} completed (${check(allDone === admittedTotal && admittedTotal === 20, `${allDone}/${admittedTotal} scans completed, 20 admitted expected`)}); all final after ${fmt(scansWallS, 0)} s (polled every 5 s, Startup every 15 s); created→completed min ${fmt(durations[0] ?? Number.NaN, 0)} s, median ${fmt(durations[Math.floor(durations.length / 2)] ?? Number.NaN, 0)} s, max ${fmt(durations.at(-1) ?? Number.NaN, 0)} s; jobs per worker ${jobs.join(" + ")} (${check(
      jobs.every((j) => j > 0),
      `a scanner worker ran no job: ${jobs.join(" + ")}`,
    )})`,
  );
  line();
  line(`Part 2: ${clients.length} concurrent clients (keep-alive, one connection each, undici) for ${DURATION} s; baseline ${BASELINE} s`);
  line("plan          clients  requests     req/s   2xx      429   other  p50 ms  p99 ms   2xx p50  2xx p99   429 p50  429 p99");
  const row = (name: string, n: number, f: PlanFigures, elapsed: number) => {
    const c = f.statuses;
    const other = Object.entries(c)
      .filter(([s]) => !s.startsWith("2") && s !== "429")
      .reduce((k, [, v]) => k + v, 0);
    const ok = Object.entries(c)
      .filter(([s]) => s.startsWith("2"))
      .reduce((k, [, v]) => k + v, 0);
    line(
      `${name.padEnd(13)} ${String(n).padStart(7)} ${String(f.requests).padStart(9)} ${fmt(f.requests / elapsed, 0).padStart(9)} ${String(ok).padStart(6)} ${String(c["429"] ?? 0).padStart(8)} ${String(other).padStart(7)} ${fmt(f.all.p50).padStart(7)} ${fmt(f.all.p99).padStart(7)} ${fmt(f.ok.p50).padStart(9)} ${fmt(f.ok.p99).padStart(8)} ${fmt(f.limited.p50).padStart(9)} ${fmt(f.limited.p99).padStart(8)}`,
    );
  };
  row("bare Fastify", clients.length, baseline.plans.bare!, baseline.elapsedS);
  for (const tier of ["startup", "professional", "enterprise"] as const) {
    row(tier, clients.filter((c) => c.plan === tier).length, summary.plans[tier]!, summary.elapsedS);
  }
  const statuses: Record<string, number> = {};
  for (const f of Object.values(summary.plans)) for (const [s, n] of Object.entries(f.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  const fivexx = Object.entries(statuses)
    .filter(([s]) => s.startsWith("5") || s === "0")
    .reduce((k, [, v]) => k + v, 0);
  line(`per 10 s of the run: ${summary.timeline.map((t) => ["2xx", "429", "5xx", "other"].map((k) => t[k] ?? 0).join("/")).join("  ")}   (2xx/429/5xx/other)`);
  line(
    `all          ${String(clients.length).padStart(8)} ${String(total).padStart(9)} ${fmt(total / summary.elapsedS, 0).padStart(9)}   statuses ${JSON.stringify(statuses)}; 5xx or transport errors: ${fivexx} (${check(fivexx === 0, `${fivexx} 5xx or transport errors`)})`,
  );
  line();
  line("Rate limits per organization and hourly window (every request of the run: set-up, scans, load)");
  line("org  plan          clients  limit/h    admitted   refused   window ends (UTC)  hit?  check");
  for (const o of orgs) {
    const windows = tally.orgs[o.id] ?? {};
    const n = clients.filter((c) => c.org === o.id).length;
    for (const [reset, w] of Object.entries(windows).sort(([a], [b]) => Number(a) - Number(b))) {
      const v = judgeWindow(o.perHour, reset, w);
      const when = new Date(v.reset * 1000).toISOString().slice(11, 16);
      line(
        `${o.name.padEnd(4)} ${o.tier.padEnd(13)} ${String(n).padStart(7)} ${String(v.limit).padStart(9)} ${String(v.admitted).padStart(10)} ${String(v.refused).padStart(9)}   ${when.padEnd(17)}  ${v.refused > 0 ? "yes " : "no  "}  ${check(v.problems.length === 0, `${o.name} window ${when}: ${v.problems.join("; ")}`)}${v.problems.length ? ` ${v.problems.join("; ")}` : ""}`,
      );
    }
  }
  const hit = orgs.filter((o) => Object.values(tally.orgs[o.id] ?? {}).some((w) => w.refused > 0)).length;
  line(
    `organizations that met their limit: ${hit} of ${orgs.length} (${check(hit > 0 && hit < orgs.length, "expected some organizations to meet their limit and others not")})`,
  );
  line(
    `answers without X-RateLimit-* headers or 429s without the error shape: ${tally.violations.length} (${check(tally.violations.length === 0, `contract violations: ${tally.violations.slice(0, 5).join(" | ")}`)})`,
  );
  line(`total running time ${fmt((Date.now() - t0) / 1000, 0)} s`);
  console.log(out.join("\n"));
  if (failures.length) {
    console.log(`\nFAILED checks (${failures.length}):`);
    for (const f of failures.slice(0, 30)) console.log(`- ${f}`);
  } else {
    console.log("\nall checks passed");
  }
  exitCode = failures.length ? 1 : 0;
} finally {
  for (const stop of cleanup) await stop().catch((err: Error) => log(`cleanup: ${err.message}`));
  // The services' logs stay for a failed run.
  if (exitCode === 0) fs.rmSync(workDir, { recursive: true, force: true });
  else log(`logs kept in ${workDir}`);
}
process.exit(exitCode);
