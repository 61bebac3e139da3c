import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Topics, type KafkaBus } from "@vulnscan/kit";
import type { EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { Severity } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startReceiver, type Receiver } from "../../examples/webhook-receiver/receiver.js";
import { freePort, httpOk, waitUntil } from "../../scripts/lib/net.js";
import { ROOT, startSystem, type RunningSystem, deployableArgs } from "../../scripts/system.js";
import { collectEvents, detection, newBus, publish } from "../../services/findings/test/support.js";
import { admin, Api } from "../support/api.js";
import { unique } from "../support/names.js";
import { selfSignedCertificates } from "../support/tls.js";

/*
 * SLA deadlines and risk acceptance through the gateway against the real stack (Kafka, the
 * Mongo-protocol server, every service in its own process) with TWO findings replicas sweeping
 * at once, and the findings clock moved forward by the test (CLOCK_OFFSET_FILE): SLA states,
 * filters, sorts and stats move with it; each deadline is announced once (Kafka and webhook);
 * an acceptance expires and reopens the finding once; the approval flow; validation errors in
 * the spec's shape.
 */

const PASSWORD = "correct horse battery staple";
const SECRET = "whsec_c2xhLWFjY2VwdGFuY2Utc2VjcmV0LTEyMzQ1Njc4";
const DAY = 24 * 3600_000;

let system: RunningSystem;
let prefix: string;
let logDir: string;
let clockFile: string;
let offset = 0;
let api: Api;
let bus: KafkaBus;
let events: { events: EventEnvelope[]; stop(): Promise<void> };
let receiver: Receiver;
let replica: ChildProcess | undefined;
let ana: Api;
let bob: Api;
let other: Api;
let orgId: string;

/** The findings services' clock (real time plus the offset the test set). */
const serviceNow = () => new Date(Date.now() + offset);
function moveClock(ms: number) {
  offset += ms;
  fs.writeFileSync(clockFile, String(offset));
}

async function eventually<T>(fn: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`not seen in time: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function user(org: string, env: { MONGO_URL: string; MONGO_DB: string }) {
  const email = `${unique("sla")}@example.test`.toLowerCase();
  admin(["create-user", "--org", org, "--email", email, "--password", PASSWORD], env);
  return email;
}

async function signIn(email: string) {
  const res = await api.token(email, PASSWORD);
  expect(res.status).toBe(200);
  return api.withToken(res.body.access_token);
}

async function startFindingsReplica(): Promise<ChildProcess> {
  const [rpc, adminPort] = [await freePort(), await freePort()];
  const log = fs.openSync(path.join(logDir, "findings-2.log"), "a");
  const child = spawn(process.execPath, deployableArgs("findings"), {
    cwd: ROOT,
    env: {
      ...process.env,
      ...system.gatewayEnv,
      MONGO_DB: `${prefix}findings`,
      CONSUMER_GROUP: `${prefix}findings`,
      RPC_PORT: String(rpc),
      ADMIN_PORT: String(adminPort),
    },
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  await waitUntil(() => httpOk(`http://127.0.0.1:${adminPort}/readyz`), { timeoutMs: 120_000, what: "second findings replica" });
  return child;
}

const ofKind = (type: string, findingId: string) =>
  events.events.filter((e) => e.type === type && (e.payload.value as { findingId?: string } | undefined)?.findingId === findingId);
const deliveries = (event: string, findingId: string) =>
  receiver.requests.filter((r) => r.event === event && (JSON.parse(r.body) as { data: { finding_id: string } }).data.finding_id === findingId);

/** Publishes detections and waits until each is a finding; returns the findings by template id. */
async function found(specs: { template: string; severity: Severity; kev?: boolean; kevDue?: Date }[]) {
  const detected = serviceNow();
  await publish(
    bus,
    Topics.findingsDetected,
    specs.map((s) =>
      detection(orgId, {
        templateId: s.template,
        severity: s.severity,
        kev: s.kev ?? false,
        ...(s.kevDue ? { kevDueDate: timestampFromDate(s.kevDue) } : {}),
        detectedAt: timestampFromDate(detected),
        scanId: `scan_${prefix}`,
      }),
    ),
  );
  const byTemplate = new Map<string, string>();
  for (const s of specs) {
    const item = await eventually(async () => {
      const res = await ana.get(`/api/v1/findings?per_page=100&scan_id=scan_${prefix}`);
      return (res.body.items as { id: string; template_id: string }[]).find((f) => f.template_id === s.template);
    }, `finding ${s.template}`);
    byTemplate.set(s.template, item.id);
  }
  return { detected, ids: byTemplate };
}

beforeAll(async () => {
  prefix = `${unique("e2esla")}_`;
  logDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-e2e-sla-"));
  clockFile = path.join(logDir, "findings-clock-offset");
  fs.writeFileSync(clockFile, "0");
  const tls = selfSignedCertificates(logDir, "127.0.0.2");
  receiver = await startReceiver({ host: "127.0.0.2", key: tls.key, cert: tls.cert, secret: SECRET });
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir,
    logLevel: "warn",
    env: {
      CLOCK_OFFSET_FILE: clockFile,
      // The findings housekeeping (and so the SLA upkeep) every 300 ms, on both replicas.
      RELAY_INTERVAL_MS: "300",
      NODE_EXTRA_CA_CERTS: tls.ca,
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32",
    },
  });
  api = new Api(system.gatewayUrl);
  const authEnv = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  orgId = admin(["create-org", "--name", unique("sla"), "--plan", "enterprise"], authEnv).id;
  const otherOrg = admin(["create-org", "--name", unique("sla-other"), "--plan", "enterprise"], authEnv).id;
  ana = await signIn(user(orgId, authEnv));
  bob = await signIn(user(orgId, authEnv));
  other = await signIn(user(otherOrg, authEnv));
  bus = newBus(inject("kafkaBrokers"), prefix);
  events = await collectEvents(bus, Topics.findingEvents);
  const hook = await ana.post("/api/v1/webhooks", {
    name: "sla",
    url: `${receiver.url}/sla`,
    events: ["finding.sla_breached", "finding.acceptance_expired", "finding.acceptance_requested"],
    secret: SECRET,
  });
  expect(hook.status).toBe(201);
  replica = await startFindingsReplica();
}, 300_000);

afterAll(async () => {
  if (replica && replica.exitCode === null) replica.kill("SIGTERM");
  await events?.stop();
  await bus?.close();
  await system?.stop();
  await receiver?.close();
});

describe("SLA deadlines", () => {
  let ids: Map<string, string>;
  let detected: Date;

  it("fills due dates from the default policy (KEV's own date when earlier; none for info) and sorts by them", async () => {
    ({ ids, detected } = await found([
      { template: "crit", severity: Severity.CRITICAL },
      { template: "high", severity: Severity.HIGH },
      { template: "info", severity: Severity.INFO },
      { template: "kev", severity: Severity.MEDIUM, kev: true, kevDue: new Date(Date.now() + 2 * DAY) },
    ]));
    const crit = (await ana.get(`/api/v1/findings/${ids.get("crit")}`)).body;
    expect(crit).toMatchObject({ due_date_source: "policy", sla_state: "within" });
    expect(new Date(crit.due_date).getTime()).toBe(detected.getTime() + 7 * DAY);
    const info = (await ana.get(`/api/v1/findings/${ids.get("info")}`)).body;
    expect(info).toMatchObject({ due_date: null, sla_state: null, due_date_source: null });
    expect((await ana.get(`/api/v1/findings/${ids.get("kev")}`)).body).toMatchObject({ due_date_source: "kev", sla_state: "within" });
    // The organization has only these findings yet: the sort over all of them (an index walk).
    const sorted = await ana.get("/api/v1/findings?sort=due_date&order=asc");
    expect(sorted.status).toBe(200);
    expect(sorted.body.items.map((f: { template_id: string }) => f.template_id)).toEqual(["kev", "crit", "high", "info"]);
  });

  it("moves states with the clock: filters, the sla_state sort and stats follow", async () => {
    moveClock(6 * DAY); // kev (2 days) breached, crit (7 days, at risk from 5.6) at risk, high within
    const state = async (s: string) =>
      ((await ana.get(`/api/v1/findings?scan_id=scan_${prefix}&sla_state=${s}`)).body.items as { template_id: string }[]).map((f) => f.template_id);
    await eventually(async () => ((await state("breached")).join() === "kev" ? true : undefined), "kev breached");
    expect(await state("at_risk")).toEqual(["crit"]);
    // The at-risk total is counted as "at-risk time passed" less "breached" (storage/list-query.ts).
    expect((await ana.get(`/api/v1/findings?scan_id=scan_${prefix}&sla_state=at_risk`)).body.total).toBe(1);
    expect(await state("within")).toEqual(["high"]);
    const bySla = await ana.get("/api/v1/findings?sort=sla_state&order=asc");
    expect(bySla.body.items.map((f: { template_id: string; sla_state: string | null }) => [f.template_id, f.sla_state])).toEqual([
      ["kev", "breached"],
      ["crit", "at_risk"],
      ["high", "within"],
      ["info", null],
    ]);
    const stats = await ana.get("/api/v1/findings/stats");
    expect(stats.body.sla).toEqual({ breached: 1, at_risk: 1 });
    expect((await ana.get("/api/v1/findings?sla_state=late")).body).toMatchObject({ error_code: "VALIDATION_ERROR", field: "sla_state" });
  });

  it("announces each breach once, on Kafka and to the webhook, with two findings replicas sweeping", async () => {
    const kev = ids.get("kev")!;
    await eventually(() => (deliveries("finding.sla_breached", kev).length ? true : undefined), "kev breach delivered");
    moveClock(2 * DAY); // crit breaches too
    const crit = ids.get("crit")!;
    await eventually(() => (deliveries("finding.sla_breached", crit).length ? true : undefined), "crit breach delivered");
    // Several more sweeps of both replicas: nothing is announced again.
    await new Promise((r) => setTimeout(r, 3000));
    expect(ofKind("finding.sla_breached", kev)).toHaveLength(1);
    expect(ofKind("finding.sla_breached", crit)).toHaveLength(1);
    expect(new Set(deliveries("finding.sla_breached", kev).map((d) => d.id)).size).toBe(1);
    const data = JSON.parse(deliveries("finding.sla_breached", crit)[0]!.body).data;
    expect(data).toMatchObject({ finding_id: crit, status: "open", due_date_source: "policy", severity: "critical" });
    expect((await ana.get("/api/v1/findings/stats")).body.sla).toEqual({ breached: 2, at_risk: 0 });
  });

  it("keeps a person's date through a policy change and refreshes the policy's", async () => {
    const high = ids.get("high")!;
    const mine = new Date(serviceNow().getTime() + 20 * DAY).toISOString();
    expect((await ana.patch(`/api/v1/findings/${high}`, { due_date: mine })).status).toBe(200);
    const put = await ana.request("PUT", "/api/v1/findings/policy", {
      sla_days: { critical: 30, high: 60, medium: 90, low: 180, info: null },
      require_acceptance_approval: false,
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      sla_days: { critical: 30, high: 60, info: null },
      require_acceptance_approval: false,
      refreshed: 1,
      refresh_state: "done",
    });
    expect((await ana.get(`/api/v1/findings/${high}`)).body).toMatchObject({ due_date: mine, due_date_source: "user" });
    const crit = (await ana.get(`/api/v1/findings/${ids.get("crit")}`)).body;
    expect(new Date(crit.due_date).getTime()).toBe(detected.getTime() + 30 * DAY);
    expect(crit.sla_state).toBe("within");
    const bad = await ana.request("PUT", "/api/v1/findings/policy", {
      sla_days: { critical: 0, high: 1, medium: 1, low: 1, info: null },
      require_acceptance_approval: false,
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error_code: "VALIDATION_ERROR", field: "sla_days.critical", detail: expect.any(String) });
    expect((await other.get("/api/v1/findings/policy")).body.sla_days).toEqual({ critical: 7, high: 30, medium: 90, low: 180, info: null });
  });
});

describe("risk acceptance", () => {
  let id: string;
  let second: string;

  it("refuses a move to accepted without expiry and justification, or beyond a year, in the spec's error shape", async () => {
    const { ids } = await found([
      { template: "acc-1", severity: Severity.HIGH },
      { template: "acc-2", severity: Severity.LOW },
    ]);
    id = ids.get("acc-1")!;
    second = ids.get("acc-2")!;
    const missing = await ana.patch(`/api/v1/findings/${id}`, { status: "accepted" });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ error_code: "VALIDATION_ERROR", field: "acceptance.expires_at", detail: expect.any(String) });
    const far = new Date(serviceNow().getTime() + 400 * DAY).toISOString();
    const tooFar = await ana.patch(`/api/v1/findings/${id}`, { status: "accepted", acceptance: { expires_at: far, justification: "later" } });
    expect(tooFar.body).toMatchObject({ error_code: "VALIDATION_ERROR", field: "acceptance.expires_at" });
    const noWhy = await ana.patch(`/api/v1/findings/${id}`, { status: "accepted", acceptance: { expires_at: far, justification: "" } });
    expect(noWhy.status).toBe(422);
    const bulk = await ana.post("/api/v1/findings/bulk", { finding_ids: [id], update: { status: "accepted" } });
    expect(bulk.body).toMatchObject({ error_code: "VALIDATION_ERROR", field: "update.acceptance.expires_at" });
  });

  it("expires and reopens the finding exactly once with two findings replicas", async () => {
    const until = new Date(serviceNow().getTime() + 3 * DAY).toISOString();
    const res = await ana.patch(`/api/v1/findings/${id}`, {
      status: "accepted",
      acceptance: { expires_at: until, justification: "Behind the VPN until the upgrade" },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("accepted");
    const listed = async (w: string) => ((await ana.get(`/api/v1/findings?accepted_expiring_within=${w}`)).body.items as { id: string }[]).map((f) => f.id);
    expect(await listed("14d")).toEqual([id]);
    expect(await listed("2d")).toEqual([]);
    expect((await ana.get("/api/v1/findings?accepted_expiring_within=0d")).body).toMatchObject({
      error_code: "VALIDATION_ERROR",
      field: "accepted_expiring_within",
    });
    moveClock(4 * DAY);
    const reopened = await eventually(async () => {
      const f = (await ana.get(`/api/v1/findings/${id}`)).body;
      return f.status === "open" ? f : undefined;
    }, "acceptance expired");
    expect(reopened.acceptance).toMatchObject({ state: "expired", justification: "Behind the VPN until the upgrade" });
    await eventually(() => (deliveries("finding.acceptance_expired", id).length ? true : undefined), "expiry delivered");
    await new Promise((r) => setTimeout(r, 3000));
    const after = (await ana.get(`/api/v1/findings/${id}`)).body;
    expect(after.history.filter((h: { action: string }) => h.action === "acceptance_expired")).toHaveLength(1);
    expect(after.history.filter((h: { action: string; user: string }) => h.action === "status_changed" && h.user === "system")).toHaveLength(1);
    expect(ofKind("finding.acceptance_expired", id)).toHaveLength(1);
    const reopenings = ofKind("vulnerability.status_changed", id).filter((e) => (e.payload.value as { from: string }).from === "accepted");
    expect(reopenings).toHaveLength(1);
    expect(reopenings[0]!.payload.value).toMatchObject({ to: "open", user: "system" });
  });

  it("with approval required, the status waits for a second user; the requester and other organizations cannot decide", async () => {
    const put = await ana.request("PUT", "/api/v1/findings/policy", {
      sla_days: { critical: 7, high: 30, medium: 90, low: 180, info: null },
      require_acceptance_approval: true,
    });
    expect(put.status).toBe(200);
    const until = new Date(serviceNow().getTime() + 30 * DAY).toISOString();
    const asked = await ana.patch(`/api/v1/findings/${second}`, {
      status: "accepted",
      acceptance: { expires_at: until, justification: "Compensating WAF rule" },
    });
    expect(asked.body.status).toBe("open");
    const pending = (await ana.get(`/api/v1/findings/${second}`)).body;
    expect(pending).toMatchObject({ status: "open", acceptance: { state: "pending", justification: "Compensating WAF rule" } });
    await eventually(() => (deliveries("finding.acceptance_requested", second).length ? true : undefined), "request delivered");
    const self = await ana.post(`/api/v1/findings/${second}/acceptance/decision`, { decision: "approve" });
    expect(self.status).toBe(403);
    expect(self.body).toMatchObject({ error_code: "FORBIDDEN", detail: expect.any(String) });
    expect((await other.post(`/api/v1/findings/${second}/acceptance/decision`, { decision: "approve" })).status).toBe(404);
    expect((await bob.post(`/api/v1/findings/${second}/acceptance/decision`, { decision: "maybe" })).body).toMatchObject({ field: "decision" });
    const ok = await bob.post(`/api/v1/findings/${second}/acceptance/decision`, { decision: "approve", note: "Rule verified" });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: "accepted", acceptance: { state: "approved", decision_note: "Rule verified" } });
    expect(ok.body.history.map((h: { action: string }) => h.action)).toEqual(expect.arrayContaining(["acceptance_requested", "acceptance_approved"]));
    const again = await bob.post(`/api/v1/findings/${second}/acceptance/decision`, { decision: "approve" });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: "CONFLICT" });
  });

  it("bulk updates follow the same rules (pending with approval required)", async () => {
    const until = new Date(serviceNow().getTime() + 10 * DAY).toISOString();
    const res = await ana.post("/api/v1/findings/bulk", {
      finding_ids: [id, "finding_nope"],
      update: { status: "accepted", acceptance: { expires_at: until, justification: "Quarter freeze" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.failed).toEqual([expect.objectContaining({ finding_id: "finding_nope", error_code: "NOT_FOUND" })]);
    expect((await ana.get(`/api/v1/findings/${id}`)).body).toMatchObject({ status: "open", acceptance: { state: "pending", justification: "Quarter freeze" } });
  });
});
