import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { authAdmin } from "@vulnscan/auth/admin";
import { createLogger, createMongo, type MongoHandle } from "@vulnscan/kit";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type ReceivedDelivery, type Receiver } from "../../examples/webhook-receiver/receiver.js";
import { httpOk, waitUntil } from "../../scripts/lib/net.js";
import { startStack, type StackHandle } from "../../scripts/stack/index.js";
import { SERVICES, startSystem, type RunningSystem, type ServiceName } from "../../scripts/system.js";
import { deliveryIdOf } from "../../services/webhook-dispatcher/src/domain/payload.js";
import { startLab, type Lab } from "../lab/lab.js";
import { Api } from "../support/api.js";
import { fingerprintKey, Ledger } from "../support/ledger.js";
import { selfSignedCertificates } from "../support/tls.js";
import { setTimeout as sleep } from "node:timers/promises";

/*
 * Fault injection (issue 14 item 3), bounded and local. A private stack (its own Kafka, FerretDB
 * and PostgreSQL, so restarting them touches no other test) and the whole system under the
 * supervision `npm start` uses; scans of the lab run, detections become findings and webhook
 * deliveries retry (the receiver fails the first attempt of about half of them). Meanwhile every
 * service process is killed with SIGKILL in turn (and restarted by the supervisor), the Kafka
 * broker is restarted and the database (FerretDB and its PostgreSQL) is down for 10 s.
 *
 * Then everything is compared with an independent ledger: the test's own consumer group on every
 * topic from the first record (test/support/ledger.ts) and the receiver's own record of requests.
 * "Lost" and "doubled" are defined in docs/decisions.md "Fault injection".
 *
 * FAULTS_ROUNDS=n repeats the whole fault sequence n times (default 1, under 5 minutes here).
 */

const ROUNDS = Math.max(1, Number(process.env.FAULTS_ROUNDS ?? 1));
const DB_DOWN_MS = 10_000;
const PASSWORD = "correct horse battery staple";
const SECRET = "faults-webhook-secret";
const HOOK_EVENTS = ["scan.started", "scan.completed", "scan.failed", "vulnerability.found", "vulnerability.critical", "control.status_changed"];
const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const say = (line: string) => process.stdout.write(`[faults] ${new Date().toISOString()} ${line}\n`);

let stack: StackHandle;
let system: RunningSystem;
let lab: Lab;
let receiver: Receiver;
let ledger: Ledger;
let authDb: MongoHandle;
const supervisorLines: string[] = [];
let sharedPostgresUrl: string | undefined;

interface Org {
  orgId: string;
  email: string;
  api: Api;
  webhookId: string;
  scans: string[];
}
const orgs: Org[] = [];
const timings: Record<string, number> = {};

/** Answers of the receiver per delivery id, in order: a later 2xx after a 503 is a retry. */
const answers = new Map<string, number[]>();
function flaky(d: ReceivedDelivery) {
  // About half the deliveries (by the id's last hex digit) fail their first attempt.
  const failFirst = parseInt(d.id.at(-1) ?? "0", 16) % 2 === 0;
  const status = failFirst && !answers.has(d.id) ? 503 : 200;
  answers.set(d.id, [...(answers.get(d.id) ?? []), status]);
  return status === 503 ? { status } : undefined;
}

async function eventually<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (last error: ${last})` : ""}`);
    await sleep(500);
  }
}

/** GET through the gateway, retried while a fault's effects fade (refused connections, 5xx). */
async function get(org: Org, url: string): Promise<any> {
  return eventually(
    `GET ${url}`,
    async () => {
      let res = await org.api.get(url);
      if (res.status === 401) {
        org.api = await login(org.email);
        res = await org.api.get(url);
      }
      if (res.status >= 500) return undefined;
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body;
    },
    60_000,
  );
}

/** Every item of a paginated list. */
async function all(org: Org, url: string): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; ; page++) {
    const body = await get(org, `${url}${url.includes("?") ? "&" : "?"}per_page=100&page=${page}`);
    items.push(...body.items);
    if (body.items.length === 0 || items.length >= body.total) return items;
  }
}

async function login(email: string): Promise<Api> {
  const api = new Api(system.gatewayUrl);
  const res = await api.token(email, PASSWORD);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return api.withToken(res.body.access_token);
}

/** A fresh organization per fault, so new findings (and their events and deliveries) flow through each one. */
async function newOrg(n: number): Promise<Org> {
  const domain = await authAdmin(authDb.db, { logger: createLogger("faults", "silent") });
  const org = await domain.directory.createOrganization(`Faults ${n}`, "enterprise");
  const email = `faults-${n}@example.test`;
  await domain.directory.createUser(org.organization.id, email, PASSWORD);
  const api = await login(email);
  const hook = await api.post("/api/v1/webhooks", { name: `faults ${n}`, url: `${receiver.url}/hook`, events: HOOK_EVENTS, secret: SECRET });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  const created: Org = { orgId: org.organization.id, email, api, webhookId: hook.body.id, scans: [] };
  orgs.push(created);
  return created;
}

/** Starts a quick scan of the lab's weak host and waits until the ledger sees it start executing. */
async function startScan(org: Org): Promise<void> {
  const res = await org.api.post("/api/v1/scans", { target: lab.weak.address, ports: lab.weak.ports.join(","), scan_type: "quick", authorized: true });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  org.scans.push(res.body.id);
  await eventually(
    `scan ${res.body.id} started`,
    async () => (ledger.eventsOf((e) => e.type === "scan.started" && e.scanId === res.body.id).length ? true : undefined),
    60_000,
  ).catch(async (err: Error) => {
    // Whose view lags: the API's (the scan never started) or the ledger's (its reader did not recover)?
    const scan = await org.api.get(`/api/v1/scans/${res.body.id}`).catch((e: Error) => ({ status: 0, body: e.message }));
    throw new Error(`${err.message}; the API says ${scan.status} ${JSON.stringify(scan.body).slice(0, 300)}`);
  });
}

/** The processes whose /readyz does not answer 200, with what it says. */
async function notReady(): Promise<string[]> {
  const out: string[] = [];
  for (const p of Object.values(system.processes)) {
    const res = await fetch(`${p.adminUrl}/readyz`, { signal: AbortSignal.timeout(2000) }).catch((err: Error) => err);
    if (res instanceof Error) out.push(`${p.name}: ${res.message}`);
    else if (!res.ok) out.push(`${p.name}: ${res.status} ${await res.text()}`);
  }
  if (!(await httpOk(`${system.gatewayUrl}/api/health`, 2000).catch(() => false))) out.push("gateway /api/health");
  return out;
}

async function recovered(what: string) {
  let last: string[] = [];
  const probe = async () => {
    last = await notReady();
    return last.length === 0;
  };
  await waitUntil(probe, { timeoutMs: 180_000, intervalMs: 300, what: `recovery after ${what}` }).catch((err: Error) => {
    throw new Error(`${err.message}; not ready: ${last.join("; ")}`);
  });
}

/** kill -9 of one service process; returns once the supervisor has started a new one (not yet ready). */
async function killService(name: ServiceName | "gateway") {
  const before = system.processes[name].pid;
  process.kill(before, "SIGKILL");
  await waitUntil(async () => system.processes[name].pid !== before && system.processes[name].pid > 0, { timeoutMs: 60_000, what: `${name} restarted` });
}

/** A new organization's scan, started while the system is whole, so it runs into the faults that follow. */
async function scanOfNewOrg() {
  await recovered("the previous faults");
  await startScan(await newOrg(orgs.length + 1));
}

/**
 * One round: scans start, then every process is killed in turn (the next one a few seconds after
 * the previous one was started again, so their recoveries overlap with running scans), the broker
 * restarts, the database goes away for DB_DOWN_MS; a scan starts before each group of faults.
 */
async function round(n: number) {
  await scanOfNewOrg();
  await scanOfNewOrg();
  const names = [...SERVICES.map((s) => s.name), "gateway" as const];
  for (const [i, name] of names.entries()) {
    if (i === 3) await scanOfNewOrg(); // after auth, the orchestrator and the scanner died
    const t = Date.now();
    await killService(name);
    say(`round ${n}: kill -9 ${name}: restarted by the supervisor in ${Date.now() - t} ms`);
    await sleep(3000);
  }
  await scanOfNewOrg();
  let t = Date.now();
  await stack.restart(["kafka"]);
  say(`round ${n}: Kafka broker restarted in ${Date.now() - t} ms`);
  await scanOfNewOrg();
  t = Date.now();
  await stack.restart(["ferretdb", "postgres"], { downMs: DB_DOWN_MS });
  say(`round ${n}: database (FerretDB and PostgreSQL) down ${DB_DOWN_MS / 1000} s, back after ${Date.now() - t} ms`);
  await recovered("the database outage");
}
const SCANS_PER_ROUND = 5;

beforeAll(async () => {
  const t0 = Date.now();
  // A private stack even when the environment names shared servers: only its own can be restarted.
  const shared = process.env.KAFKA_BROKERS;
  delete process.env.KAFKA_BROKERS;
  try {
    // Durable commits: the outage kills PostgreSQL, and what it acknowledged must still be there.
    stack = await startStack({ ferretdb: "postgresql", clamav: false, durableCommits: true, log: (l) => say(`stack: ${l}`) });
  } finally {
    if (shared !== undefined) process.env.KAFKA_BROKERS = shared;
  }
  timings.stackMs = Date.now() - t0;
  // This process's own database writes (the organizations below) index this stack's PostgreSQL.
  sharedPostgresUrl = process.env.FERRETDB_POSTGRESQL_URL;
  Object.assign(process.env, stack.serviceEnv);
  ledger = await Ledger.start(stack.kafkaBrokers, "faults-ledger");
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-faults-"));
  const tls = selfSignedCertificates(logDir, "127.0.0.2");
  receiver = await startReceiver({ host: "127.0.0.2", key: tls.key, cert: tls.cert, secret: SECRET, onDelivery: flaky });
  lab = await startLab({ loopback: true, realServers: false });
  const t1 = Date.now();
  system = await startSystem({
    kafkaBrokers: stack.kafkaBrokers,
    mongoUrl: stack.mongoUrl,
    ferretdbPostgresqlUrl: stack.serviceEnv.FERRETDB_POSTGRESQL_URL,
    logDir,
    logLevel: "warn",
    // The supervision of `npm start`: a killed process is said and started again.
    restart: { say: (line) => (supervisorLines.push(line), say(`supervisor: ${line}`)) },
    env: {
      NODE_EXTRA_CA_CERTS: tls.ca,
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32",
      WEBHOOK_RETRY_DELAYS_MS: "0,2000,2000,2000,2000",
      RETRY_POLL_MS: "200",
      SCAN_ALLOWED_NETWORKS: lab.allowedNetworks,
      // A scan whose worker died is re-dispatched after 15 s of silence, not the default 2 min
      // (10 attempts: a scan re-dispatched while no scanner runs burns attempts; 5 ran out here
      // once when a restarted scanner took 30 s to start on a busy machine.)
      SCAN_REDISPATCH_AFTER_SECONDS: "15",
      SCAN_MAX_ATTEMPTS: "10",
      SCAN_WATCHDOG_INTERVAL_MS: "1000",
      SCANNER_HEARTBEAT_MS: "1000",
      OUTBOX_RELAY_INTERVAL_MS: "300",
    },
  });
  timings.systemMs = Date.now() - t1;
  say(`logs in ${logDir}; stack ${timings.stackMs} ms, system ${timings.systemMs} ms; ${lab.note}`);
  authDb = createMongo(stack.mongoUrl, "auth", "faults");
}, 300_000);

afterAll(async () => {
  if (sharedPostgresUrl === undefined) delete process.env.FERRETDB_POSTGRESQL_URL;
  else process.env.FERRETDB_POSTGRESQL_URL = sharedPostgresUrl;
  await authDb?.close();
  await system?.stop();
  await ledger?.stop();
  await stack?.stop();
  await lab?.stop();
  await receiver?.close();
});

describe("fault injection", () => {
  it("loses and doubles nothing while every process, the broker and the database fail in turn", async () => {
    const tFaults = Date.now();
    for (let n = 1; n <= ROUNDS; n++) await round(n);
    timings.faultsMs = Date.now() - tFaults;

    // Every scan reaches a final state.
    const tDrain = Date.now();
    const finals = new Map<string, any>();
    for (const org of orgs) {
      for (const id of org.scans) {
        finals.set(
          id,
          await eventually(
            `scan ${id} final`,
            async () => {
              const s = await get(org, `/api/v1/scans/${id}`);
              return TERMINAL.has(s.status) ? s : undefined;
            },
            240_000,
          ),
        );
      }
    }
    for (const [id, s] of finals) expect(s.status, `scan ${id}: ${JSON.stringify(s)}`).toBe("completed");

    // Then the system settles: every detection the ledger saw is a finding, every event that a
    // webhook subscribes to is acknowledged by the receiver.
    const expectedDeliveries = () => {
      const byOrg = new Map(orgs.map((o) => [o.orgId, o]));
      return new Map(
        ledger
          .eventsOf((e) => byOrg.has(e.orgId) && HOOK_EVENTS.includes(e.type))
          .map((e) => [deliveryIdOf(e.id, byOrg.get(e.orgId)!.webhookId, e.occurredAt), e] as const),
      );
    };
    // Quiet: every fingerprint the ledger saw detected is a finding, every expected delivery is
    // acknowledged and stands as a success in the API's history, and no event reached the ledger
    // for 5 s (a finding's events and the control changes they cause come after it). An attempt
    // whose answer could not be stored (the dispatcher killed between request and write) is only
    // made again once its 45 s lease expires, so the wait allows for one lease after the faults.
    // What is still missing after 150 s is reported below.
    const settled = async () => {
      const expected = expectedDeliveries();
      for (const org of orgs) {
        const history = await all(org, `/api/v1/webhooks/${org.webhookId}/deliveries`);
        const succeeded = new Set(history.filter((d) => d.status === "success").map((d) => d.id));
        for (const [id, e] of expected) if (e.orgId === org.orgId && !succeeded.has(id)) return false;
      }
      for (const org of orgs) {
        const keys = new Set(
          (await all(org, "/api/v1/findings")).map((f) =>
            fingerprintKey({ orgId: org.orgId, target: f.target, templateId: f.template_id, affectedComponent: f.affected_component }),
          ),
        );
        for (const d of ledger.detections.values()) if (d.orgId === org.orgId && !keys.has(d.key)) return false;
      }
      return [...expected.keys()].every((id) => receiver.processed.has(id));
    };
    // A consumer that was failing during the faults (its retries back off, up to seconds apart)
    // can still be behind after 5 s without an event, and what it then does causes events the
    // deliveries above did not wait for. So quiet also means every consumer group has read its
    // topics to the end and committed nothing new for 5 s (then any event its last records cause
    // has left the outbox, whose relay runs every 2 s, and restarted the quiet above).
    const admin = new Kafka({ brokers: [stack.kafkaBrokers], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    let events = -1;
    let offsets = "";
    let quietSince = Date.now();
    await eventually(
      "quiet: every detection a finding, every expected delivery acknowledged, every consumer at the end, no new event or commit for 5 s",
      async () => {
        const consumed = await consumerProgress(admin);
        const now = ledger.eventsOf((e) => e.type !== "auth.heartbeat").length; // auth beats every 2 s
        if (now !== events || consumed.committed !== offsets) [events, offsets, quietSince] = [now, consumed.committed, Date.now()];
        return consumed.behind.length === 0 && Date.now() - quietSince >= 5000 && (await settled()) ? true : undefined;
      },
      150_000,
    ).catch(async (err) => say(`${String(err)}; consumers behind: ${(await consumerProgress(admin)).behind.join(", ") || "none"}`));
    await admin.disconnect();
    timings.drainMs = Date.now() - tDrain;

    const problems: string[] = [];
    let unrecorded = 0;
    const findingsTotal = { findings: 0, critical: 0, high: 0, createdCritical: 0, createdHigh: 0 };
    for (const org of orgs) {
      // Scans: exactly the ones created, each with one scan.created, scan.started and one terminal event.
      const listed = (await all(org, "/api/v1/scans")).map((s) => s.id).sort();
      if (JSON.stringify(listed) !== JSON.stringify([...org.scans].sort())) problems.push(`${org.orgId}: scans listed ${listed} ≠ created ${org.scans}`);
      for (const id of org.scans) {
        for (const type of ["scan.created", "scan.started", "scan.completed"]) {
          const n = ledger.eventsOf((e) => e.type === type && e.scanId === id).length;
          if (n !== 1) problems.push(`scan ${id}: ${n} distinct ${type} events`);
        }
        const failed = ledger.eventsOf((e) => e.type === "scan.failed" && e.scanId === id).length;
        if (failed) problems.push(`scan ${id}: ${failed} scan.failed events beside its completion`);
        const phases = ledger.eventsOf((e) => e.type === "scan.progress" && e.scanId === id).map((e) => e.phase ?? "");
        if (new Set(phases).size !== phases.length) problems.push(`scan ${id}: scan.progress repeated for a phase: ${phases}`);
      }

      // Findings: one per fingerprint the ledger's detections name, none without a detection.
      const findings = await all(org, "/api/v1/findings");
      const keyOf = new Map(
        findings.map((f) => [f.id, fingerprintKey({ orgId: org.orgId, target: f.target, templateId: f.template_id, affectedComponent: f.affected_component })]),
      );
      const apiKeys = [...keyOf.values()];
      const detections = [...ledger.detections.values()].filter((d) => d.orgId === org.orgId);
      const ledgerKeys = new Set(detections.map((d) => d.key));
      if (new Set(apiKeys).size !== apiKeys.length) problems.push(`${org.orgId}: ${apiKeys.length - new Set(apiKeys).size} fingerprints with two findings`);
      for (const k of ledgerKeys) if (!apiKeys.includes(k)) problems.push(`${org.orgId}: detection ${k} has no finding`);
      for (const k of apiKeys) if (!ledgerKeys.has(k)) problems.push(`${org.orgId}: finding ${k} has no detection`);
      // A scan's findings list holds exactly the fingerprints the ledger saw it detect.
      for (const id of org.scans) {
        const own = new Set(detections.filter((d) => d.scanId === id).map((d) => d.key));
        const listedKeys = new Set<string>((await get(org, `/api/v1/scans/${id}/findings`)).items.map((f: any) => keyOf.get(f.id)));
        if (own.size !== listedKeys.size || [...own].some((k) => !listedKeys.has(k)))
          problems.push(`scan ${id}: ledger detected ${own.size} fingerprints, its list has ${listedKeys.size}`);
      }
      // vulnerability.found once per finding; .critical/.high once per finding that was critical/high
      // when it was created (the findings service announces severity at creation only; a later
      // detection may raise it, as the lab's git-repository-exposure did, without a new event).
      const createdAs = (f: any) => ledger.eventsOf((e) => e.type === "vulnerability.found" && e.findingId === f.id)[0]?.severity;
      for (const [type, wanted] of [
        ["vulnerability.found", findings],
        ["vulnerability.critical", findings.filter((f) => createdAs(f) === "critical")],
        ["vulnerability.high", findings.filter((f) => createdAs(f) === "high")],
      ] as const) {
        const ids = ledger.eventsOf((e) => e.type === type && e.orgId === org.orgId).map((e) => e.findingId ?? "");
        const want = wanted.map((f: any) => f.id);
        if (ids.length !== want.length || want.some((id: string) => !ids.includes(id))) {
          const without = wanted
            .filter((f: any) => !ids.includes(f.id))
            .map(
              (f: any) =>
                `${f.id} ${f.template_id} ${f.affected_component} found as ${ledger.eventsOf((e) => e.type === "vulnerability.found" && e.findingId === f.id).map((e) => e.severity)}`,
            );
          problems.push(`${org.orgId}: ${ids.length} ${type} events for ${want.length} findings; without one: ${without.join("; ")}`);
        }
      }
      findingsTotal.findings += findings.length;
      findingsTotal.critical += findings.filter((f) => f.severity === "critical").length;
      findingsTotal.high += findings.filter((f) => f.severity === "high").length;
      // What the .critical/.high events count: the severity at creation, which a later detection may raise.
      findingsTotal.createdCritical += findings.filter((f) => createdAs(f) === "critical").length;
      findingsTotal.createdHigh += findings.filter((f) => createdAs(f) === "high").length;

      // Deliveries: the API's history holds one successful delivery per subscribed event.
      const history = await all(org, `/api/v1/webhooks/${org.webhookId}/deliveries`);
      const expected = [...expectedDeliveries().entries()].filter(([, e]) => e.orgId === org.orgId).map(([id]) => id);
      const historyIds = history.map((d) => d.id);
      if (new Set(historyIds).size !== historyIds.length) problems.push(`${org.orgId}: delivery history repeats an id`);
      const missing = expected.filter((id) => !historyIds.includes(id));
      if (missing.length) {
        const hook = await get(org, `/api/v1/webhooks/${org.webhookId}`);
        // Diagnosis only (the verdict above is the API's): what the dispatcher's own database holds.
        const hooksDb = createMongo(stack.mongoUrl, "webhooks", "faults");
        const stored = await hooksDb.db.collection("webhooks").find({ org_id: org.orgId }).toArray();
        const deliveries = await hooksDb.db.collection("deliveries").countDocuments({ org_id: org.orgId });
        await hooksDb.close();
        say(`diagnosis ${org.orgId}: webhooks stored ${JSON.stringify(stored)}, deliveries stored ${deliveries}`);
        const at = (id: string) => new Date(parseInt(id.slice(9, 21), 16)).toISOString();
        say(`diagnosis: missing ${missing.map(at).sort().join(" ")}; stored ${historyIds.map(at).sort().join(" ")}`);
        const admin = new Kafka({ brokers: [stack.kafkaBrokers], logLevel: logLevel.NOTHING }).admin();
        await admin.connect();
        for (const topic of ["vulnscan.finding.events", "vulnscan.scan.events", "vulnscan.grc.events"]) {
          const committed = await admin.fetchOffsets({ groupId: `webhook-dispatcher.${topic}`, topics: [topic] });
          const high = await admin.fetchTopicOffsets(topic);
          say(`diagnosis ${topic}: committed ${JSON.stringify(committed[0]?.partitions.map((p) => p.offset))} high ${JSON.stringify(high.map((h) => h.high))}`);
        }
        await admin.disconnect();
        problems.push(
          `${org.orgId}: ${missing.length} of ${expected.length} deliveries missing from the history (${history.length} there), e.g. ${missing.slice(0, 3)}; webhook ${JSON.stringify(hook)}`,
        );
      }
      for (const d of history) {
        if (!expected.includes(d.id)) problems.push(`${org.orgId}: delivery ${d.id} (${d.event}) for no event of the ledger`);
        if (d.status !== "success") problems.push(`${org.orgId}: delivery ${d.id} is ${d.status} (${d.error ?? ""})`);
        const seen = answers.get(d.id) ?? [];
        // An attempt whose answer could not be stored (the database down, the process killed
        // between request and write) is made again under its number once its lease expires, so
        // the history may count fewer attempts than the receiver saw, never more, never none.
        if (d.attempts < 1 || d.attempts > seen.length)
          problems.push(`${org.orgId}: delivery ${d.id} records ${d.attempts} attempt(s), the receiver saw ${seen.length}`);
        unrecorded += seen.length - d.attempts;
      }
    }
    // The receiver: every expected delivery acknowledged, nothing else; repeats only of one delivery id.
    const expectedAll = expectedDeliveries();
    for (const id of expectedAll.keys())
      if (!receiver.processed.has(id)) problems.push(`delivery ${id} (${expectedAll.get(id)!.type}) never acknowledged by the receiver`);
    for (const id of receiver.processed) if (!expectedAll.has(id)) problems.push(`receiver acknowledged ${id}, which no ledger event explains`);
    if (ledger.deadLetters.length) problems.push(`dead-lettered records: ${ledger.deadLetters.join(", ")}`);
    if (ledger.fatal.length) problems.push(`ledger consumer crashed: ${ledger.fatal.join("; ")}`);

    // The figures the closing note quotes.
    const requests = receiver.requests.length;
    const retried = [...answers.values()].filter((a) => a[0] !== 200).length;
    const resentAfterAck = [...answers.values()].filter((a) => a.indexOf(200) >= 0 && a.indexOf(200) < a.length - 1).length;
    const statuses: Record<string, number> = {};
    for (const s of finals.values()) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
    const counts = ledger.counts();
    say(
      `ledger: ${orgs.length} organizations, scans ${finals.size} (${JSON.stringify(statuses)}), detections ${counts.detections} ` +
        `(+${counts.detectionRedeliveries} Kafka redeliveries) → ${counts.fingerprints} fingerprints; findings ${findingsTotal.findings} ` +
        `(critical ${findingsTotal.critical}, high ${findingsTotal.high}; when created: critical ${findingsTotal.createdCritical}, high ${findingsTotal.createdHigh}); events ${counts.events} (+${counts.eventRedeliveries} redeliveries) ` +
        `${JSON.stringify(counts.eventsByType)}; deliveries ${expectedAll.size} expected, ${receiver.processed.size} acknowledged, ` +
        `${requests} requests (${retried} retried after a 503, ${resentAfterAck} re-sent after an ack, ${unrecorded} attempts made again because their answer could not be stored); dead letters ${counts.deadLetters}; ` +
        `restarts said by the supervisor ${supervisorLines.filter((l) => l.includes(" restarted ")).length}`,
    );
    say(`timings: stack ${timings.stackMs} ms, system ${timings.systemMs} ms, faults ${timings.faultsMs} ms, drain ${timings.drainMs} ms; rounds ${ROUNDS}`);
    expect(problems).toEqual([]);
    expect(finals.size).toBe(SCANS_PER_ROUND * ROUNDS);
    expect(retried).toBeGreaterThan(0);
  }, 900_000);
});

/**
 * Where every consumer group of the system stands, on the topics that do not carry auth's
 * heartbeats (written every 2 s, so never still): the partitions a group has committed on and
 * not read to the end, and all committed offsets as one string to compare between checks.
 */
async function consumerProgress(admin: ReturnType<Kafka["admin"]>): Promise<{ behind: string[]; committed: string }> {
  const behind: string[] = [];
  const committed: string[] = [];
  const highs = new Map<string, Promise<Map<number, number>>>(); // a topic's ends, read once per check
  const { groups } = await admin.listGroups();
  for (const { groupId } of groups.sort((a, b) => a.groupId.localeCompare(b.groupId))) {
    for (const { topic, partitions } of await admin.fetchOffsets({ groupId })) {
      if (topic === "vulnscan.auth.events") continue;
      if (!highs.has(topic))
        highs.set(
          topic,
          admin.fetchTopicOffsets(topic).then((ends) => new Map(ends.map((p) => [p.partition, Number(p.high)]))),
        );
      const high = await highs.get(topic)!;
      for (const p of partitions.sort((a, b) => a.partition - b.partition)) {
        committed.push(`${groupId}/${topic}/${p.partition}=${p.offset}`);
        // -1: nothing committed yet on that partition, which says nothing about a lag.
        if (Number(p.offset) >= 0 && Number(p.offset) < (high.get(p.partition) ?? 0)) {
          behind.push(`${groupId} ${topic}[${p.partition}] ${p.offset}/${high.get(p.partition)}`);
        }
      }
    }
  }
  return { behind, committed: committed.join(" ") };
}
