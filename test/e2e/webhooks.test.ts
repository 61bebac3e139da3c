import { spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { KafkaBus, Topics } from "@vulnscan/kit";
import { createLogger } from "@vulnscan/kit/logger";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { Confidence, Severity } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startReceiver, type Receiver, type ReceivedDelivery } from "../../examples/webhook-receiver/receiver.js";
import { freePort, httpOk, waitUntil } from "../../scripts/lib/net.js";
import { ROOT, startSystem, type RunningSystem, deployableArgs } from "../../scripts/system.js";
import { detection, publish } from "../../services/findings/test/support.js";
import { admin, Api } from "../support/api.js";
import { unique } from "../support/names.js";
import { selfSignedCertificates } from "../support/tls.js";

/*
 * Webhooks end to end: every service in its own process, a real HTTPS receiver on 127.0.0.2 with
 * its own self-signed CA (trusted by the services through NODE_EXTRA_CA_CERTS), events produced
 * as real envelopes on Kafka and by finding updates through the gateway. The egress allowlist is
 * 127.0.0.2/32 only, so every other loopback form is an SSRF vector the dispatcher must refuse.
 * A shortened retry schedule (WEBHOOK_RETRY_DELAYS_MS) stands in for the spec's hours; the
 * schedule itself is tested under a controlled clock in the dispatcher's unit tests.
 */

const SECRET = "e2e-webhook-secret-value";
const PASSWORD = "correct horse battery staple";
// The last delay also bounds every delay (as 8 h bounds Retry-After in the spec's schedule), so it
// is 8 s too: with 1,500 ms there, the "8 s" second attempt came 1.5 s after the first.
const DELAYS = "0,8000,1500,1500,8000";
let system: RunningSystem;
let receiver: Receiver;
let bus: KafkaBus;
let prefix: string;
let logDir: string;
let api: Api;
const extraDispatchers: ChildProcess[] = [];
/** Per path and delivery id: how many attempts the receiver has answered. */
const seen = new Map<string, number>();

/** The receiver's scripted answers: /flaky/<n> fails the first n attempts of each delivery, /redirect answers 302 to a private address. */
function script(d: ReceivedDelivery) {
  const key = `${d.path}#${d.id}`;
  const n = (seen.get(key) ?? 0) + 1;
  seen.set(key, n);
  const flaky = /^\/flaky\/(\d+)/.exec(d.path);
  if (flaky && n <= Number(flaky[1])) return { status: 500 };
  if (d.path.startsWith("/redirect")) return { status: 302, headers: { location: "https://127.0.0.1:9/internal" } };
  return undefined;
}

async function account(plan: string) {
  const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  const org = admin(["create-org", "--name", `${plan} ${unique("org")}`, "--plan", plan], env);
  const email = `${unique(plan)}@example.test`.toLowerCase();
  admin(["create-user", "--org", org.id, "--email", email, "--password", PASSWORD], env);
  const res = await api.token(email, PASSWORD);
  expect(res.status).toBe(200);
  return { orgId: org.id, api: api.withToken(res.body.access_token) };
}

async function eventually<T>(fn: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not seen in time`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type EnvelopeInit = MessageInitShape<typeof EventEnvelopeSchema>;

/** Publishes an envelope as its producer would (key = entity id). */
async function produce(topic: string, init: EnvelopeInit, key: string) {
  await bus.publish(topic, EventEnvelopeSchema, create(EventEnvelopeSchema, init), { key });
}

const scanCompleted = (orgId: string, scanId = unique("scan")): EnvelopeInit => ({
  id: unique("evt"),
  type: "scan.completed",
  orgId,
  occurredAt: timestampFromDate(new Date()),
  payload: {
    case: "scanCompleted",
    value: { scanId, target: "app.example.test", status: "completed", durationSeconds: 95, findings: { total: 4, critical: 1, high: 1, medium: 1, low: 1 } },
  },
});

/**
 * Produces until the dispatcher has it (a consumer group that has just joined starts at the
 * newest offset); producing the same envelope again is itself a redelivery it must absorb.
 */
async function deliverOnce(topic: string, init: EnvelopeInit, key: string, match: (d: ReceivedDelivery) => boolean) {
  for (let round = 0; round < 10; round++) {
    await produce(topic, init, key);
    const hit = await eventually(() => receiver.requests.find(match), "delivery", 3000).catch(() => undefined);
    if (hit) return hit;
  }
  throw new Error("event never delivered");
}

function verifyBoth(d: ReceivedDelivery) {
  expect(d.headers["x-service-signature"]).toBe(`sha256=${createHmac("sha256", SECRET).update(d.body).digest("hex")}`);
  expect(new StandardWebhook(SECRET, { format: "raw" }).verify(d.body, d.headers)).toEqual(JSON.parse(d.body));
  expect(d.headers["x-service-delivery"]).toBe(JSON.parse(d.body).id);
  expect(d.headers["x-service-event"]).toBe(JSON.parse(d.body).event);
}

/** One more dispatcher process on the run's database and consumer groups (a replica, or a restart on given ports). */
async function startDispatcher(ports?: { rpc: number; admin: number }): Promise<ChildProcess> {
  const rpc = ports?.rpc ?? (await freePort());
  const adminPort = ports?.admin ?? (await freePort());
  const log = fs.openSync(path.join(logDir, `webhook-dispatcher-extra-${extraDispatchers.length}.log`), "a");
  const child = spawn(process.execPath, deployableArgs("webhook-dispatcher"), {
    cwd: ROOT,
    env: {
      ...process.env,
      ...system.gatewayEnv,
      MONGO_DB: `${prefix}webhooks`,
      CONSUMER_GROUP: `${prefix}webhook-dispatcher`,
      RPC_PORT: String(rpc),
      ADMIN_PORT: String(adminPort),
    },
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  extraDispatchers.push(child);
  await waitUntil(() => httpOk(`http://127.0.0.1:${adminPort}/readyz`), { timeoutMs: 90_000, what: "extra dispatcher" });
  return child;
}

const portsOf = (url: string) => Number(new URL(url).port);

beforeAll(async () => {
  prefix = `${unique("wh")}_`;
  logDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-webhooks-e2e-"));
  const tls = selfSignedCertificates(logDir, "127.0.0.2");
  receiver = await startReceiver({ host: "127.0.0.2", key: tls.key, cert: tls.cert, secret: SECRET, onDelivery: script });
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir,
    logLevel: "warn",
    env: {
      NODE_EXTRA_CA_CERTS: tls.ca,
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32",
      WEBHOOK_RETRY_DELAYS_MS: DELAYS,
      RETRY_POLL_MS: "200",
    },
  });
  api = new Api(system.gatewayUrl);
  bus = new KafkaBus({
    clientId: unique("webhooks-e2e"),
    brokers: [inject("kafkaBrokers")],
    topicPrefix: prefix,
    logger: createLogger("webhooks-e2e", "silent"),
  });
});

afterAll(async () => {
  for (const c of extraDispatchers) if (c.exitCode === null && c.signalCode === null) c.kill("SIGTERM");
  await system?.stop();
  await bus?.close();
  await receiver?.close();
});

const body = (over: object = {}) => ({ name: "ci", url: `${receiver.url}/ok`, events: ["scan.completed"], secret: SECRET, ...over });

describe("webhooks through the gateway", () => {
  it("refuses Startup with 403 PLAN_UPGRADE_REQUIRED", async () => {
    const startup = await account("startup");
    const res = await startup.api.post("/api/v1/webhooks", body());
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error_code: "PLAN_UPGRADE_REQUIRED" });
  });

  it("answers 422 naming the field, and refuses every SSRF vector at creation", async () => {
    const pro = await account("professional");
    const cases: [object, string][] = [
      [{ url: "http://127.0.0.2/x" }, "url"],
      [{ url: "not a url" }, "url"],
      [{ events: ["scan.completed", "auth.session_revoked"] }, "events"],
      [{ events: [] }, "events"],
      [{ name: undefined }, "name"],
      [{ secret: "short" }, "secret"],
    ];
    for (const vector of ["2130706433", "0177.0.0.1", "0x7f.0.0.1", "[::ffff:127.0.0.1]", "0.0.0.0", "localhost", "127.0.0.1", "[::1]", "169.254.169.254"]) {
      cases.push([{ url: `https://${vector}/hook` }, "url"]);
    }
    for (const [over, field] of cases) {
      const res = await pro.api.post("/api/v1/webhooks", body(over));
      expect(res.status, JSON.stringify(over)).toBe(422);
      // Schema errors name the item (`events.1`), domain ones the field.
      expect(res.body, JSON.stringify(over)).toMatchObject({ error_code: "VALIDATION_ERROR", field: expect.stringMatching(new RegExp(`^${field}(\\.|$)`)) });
    }
  });

  it("keeps the plan's webhook count exact under 20 concurrent creates", async () => {
    const pro = await account("professional");
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => pro.api.post("/api/v1/webhooks", body({ name: `w${i}` }))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    for (const r of results.filter((r) => r.status !== 201)) expect(r.body).toMatchObject({ error_code: "PLAN_UPGRADE_REQUIRED" });
    const list = await pro.api.get("/api/v1/webhooks?per_page=100");
    expect(list.body).toMatchObject({ total: 5, page: 1, per_page: 100, pages: 1 });
    await pro.api.delete(`/api/v1/webhooks/${list.body.items[0].id}`);
    expect((await pro.api.post("/api/v1/webhooks", body())).status).toBe(201);
  });

  it("CRUD: the secret is write-only, another organization's id is 404", async () => {
    const a = await account("professional");
    const b = await account("enterprise");
    const created = await a.api.post("/api/v1/webhooks", body());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "ci", url: `${receiver.url}/ok`, events: ["scan.completed"], active: true, has_secret: true });
    expect(created.body.id).toMatch(/^webhook_/);
    const id = created.body.id as string;
    const got = await a.api.get(`/api/v1/webhooks/${id}`);
    const patched = await a.api.patch(`/api/v1/webhooks/${id}`, { name: "renamed", events: ["scan.failed", "scan.completed"], active: false });
    expect(patched.body).toMatchObject({ name: "renamed", events: ["scan.failed", "scan.completed"], active: false });
    const list = await a.api.get("/api/v1/webhooks");
    for (const r of [created, got, patched, list]) expect(JSON.stringify(r.body)).not.toContain(SECRET);
    for (const [method, p] of [
      ["GET", `/api/v1/webhooks/${id}`],
      ["PATCH", `/api/v1/webhooks/${id}`],
      ["DELETE", `/api/v1/webhooks/${id}`],
      ["POST", `/api/v1/webhooks/${id}/test`],
      ["GET", `/api/v1/webhooks/${id}/deliveries`],
    ] as const) {
      const res = await b.api.request(method, p, method === "PATCH" ? { name: "x" } : undefined);
      expect(res.status, `${method} ${p}`).toBe(404);
      expect(res.body).toMatchObject({ error_code: "NOT_FOUND" });
    }
    expect((await a.api.delete(`/api/v1/webhooks/${id}`)).status).toBe(204);
    expect((await a.api.get(`/api/v1/webhooks/${id}`)).status).toBe(404);
  });

  it("test: a signed webhook.test verified by the spec's scheme and a Standard Webhooks library; failures are results, not 500s", async () => {
    const a = await account("professional");
    const ok = (await a.api.post("/api/v1/webhooks", body())).body.id;
    const res = await a.api.post(`/api/v1/webhooks/${ok}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "success", response_code: 200 });
    expect(res.body.delivery_id).toMatch(/^delivery_/);
    const got = receiver.requests.find((r) => r.id === res.body.delivery_id)!;
    verifyBoth(got);
    expect(JSON.parse(got.body)).toMatchObject({ event: "webhook.test", data: { webhook_id: ok } });

    const closed = await freePort("127.0.0.2");
    const down = (await a.api.post("/api/v1/webhooks", body({ url: `https://127.0.0.2:${closed}/gone` }))).body.id;
    const refused = await a.api.post(`/api/v1/webhooks/${down}/test`);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ status: "failed", response_code: 0, error: expect.stringMatching(/ECONNREFUSED/) });

    const redirect = (await a.api.post("/api/v1/webhooks", body({ url: `${receiver.url}/redirect` }))).body.id;
    const moved = await a.api.post(`/api/v1/webhooks/${redirect}/test`);
    expect(moved.body).toMatchObject({ status: "failed", response_code: 302, error: expect.stringMatching(/redirects are not followed/) });

    // History, filters, a manual retry and a window replay of the refused one.
    const history = await a.api.get(`/api/v1/webhooks/${down}/deliveries?status=failed&event=webhook.test`);
    expect(history.body).toMatchObject({ total: 1, items: [{ id: refused.body.delivery_id, status: "failed", attempts: 1, response_code: 0 }] });
    const retried = await a.api.post(`/api/v1/webhooks/${down}/deliveries/${refused.body.delivery_id}/retry`);
    expect(retried.body).toMatchObject({ id: refused.body.delivery_id, status: "failed", attempts: 2 });
    const replay = await a.api.post(`/api/v1/webhooks/${down}/deliveries/replay`, {});
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual({ scheduled: 1 });
    await eventually(
      async () => ((await a.api.get(`/api/v1/webhooks/${down}/deliveries`)).body.items[0].attempts === 3 ? true : undefined),
      "replayed attempt",
    );
  });

  it("fans real Kafka envelopes out once per (event, webhook) with the spec's data, never auth.* events", async () => {
    const a = await account("professional");
    const hooks = await Promise.all(
      ["one", "two"].map(
        async (n) =>
          (await a.api.post("/api/v1/webhooks", body({ name: n, url: `${receiver.url}/ok/${n}`, events: ["scan.completed", "user.login_failed"] }))).body.id,
      ),
    );
    const init = scanCompleted(a.orgId);
    const scanId = (init.payload as { value: { scanId: string } }).value.scanId;
    const mine = (d: ReceivedDelivery) => d.body.includes(scanId);
    await deliverOnce(Topics.scanEvents, init, scanId, mine);
    await eventually(() => (receiver.requests.filter(mine).length >= 2 ? true : undefined), "both webhooks");
    await produce(Topics.scanEvents, init, scanId); // a redelivery
    await produce(
      Topics.authEvents,
      { id: unique("evt"), type: "auth.session_revoked", orgId: a.orgId, payload: { case: "authSessionRevoked", value: { sessionId: scanId } } },
      scanId,
    );
    await new Promise((r) => setTimeout(r, 2500));
    const got = receiver.requests.filter(mine);
    expect(got).toHaveLength(2);
    expect(new Set(got.map((d) => d.path))).toEqual(new Set(["/ok/one", "/ok/two"]));
    for (const d of got) {
      verifyBoth(d);
      expect(JSON.parse(d.body)).toEqual({
        id: d.id,
        event: "scan.completed",
        timestamp: expect.stringMatching(/Z$/),
        data: {
          scan_id: scanId,
          target: "app.example.test",
          status: "completed",
          duration_seconds: 95,
          findings: { total: 4, critical: 1, high: 1, medium: 1, low: 1 },
        },
      });
    }
    const history = await a.api.get(`/api/v1/webhooks/${hooks[0]}/deliveries`);
    expect(history.body.items[0]).toMatchObject({
      event: "scan.completed",
      status: "success",
      response_code: 200,
      attempts: 1,
      delivered_at: expect.any(String),
    });
  });

  it("delivers finding events: a critical detection and a status change made through the gateway", async () => {
    const a = await account("professional");
    await a.api.post("/api/v1/webhooks", body({ url: `${receiver.url}/ok/findings`, events: ["vulnerability.critical", "vulnerability.status_changed"] }));
    const scanId = unique("scan");
    const det = detection(a.orgId, { scanId, severity: Severity.CRITICAL, cvssScore: 9.8, title: `Critical ${scanId}`, confidence: Confidence.CONFIRMED });
    const mine = (event: string) => (d: ReceivedDelivery) => d.event === event && d.body.includes(`Critical ${scanId}`);
    let critical: ReceivedDelivery | undefined;
    for (let round = 0; round < 10 && !critical; round++) {
      await publish(bus, Topics.findingsDetected, [det]);
      critical = await eventually(() => receiver.requests.find(mine("vulnerability.critical")), "critical", 5000).catch(() => undefined);
    }
    expect(critical).toBeDefined();
    verifyBoth(critical!);
    const data = JSON.parse(critical!.body).data;
    // The spec's data, plus the finding's confidence (an additive field).
    expect(Object.keys(data).sort()).toEqual([
      "affected_component",
      "confidence",
      "cve_ids",
      "cvss_score",
      "finding_id",
      "scan_id",
      "severity",
      "target",
      "title",
    ]);
    expect(data).toMatchObject({ severity: "critical", cvss_score: 9.8, scan_id: scanId, cve_ids: ["CVE-2016-2183"], confidence: "confirmed" });
    const patched = await a.api.patch(`/api/v1/findings/${data.finding_id}`, { status: "in_progress" });
    expect(patched.status).toBe(200);
    const changed = await eventually(() => receiver.requests.find(mine("vulnerability.status_changed")), "status change");
    expect(JSON.parse(changed.body).data).toMatchObject({ finding_id: data.finding_id, from: "open", to: "in_progress" });
  });

  it("two replicas and a restart mid-retry: every attempt once, every delivery delivered", async () => {
    const a = await account("enterprise");
    await a.api.post("/api/v1/webhooks", body({ url: `${receiver.url}/flaky/2/${a.orgId}`, events: ["scan.completed"] }));
    const replica = await startDispatcher();
    const inits = Array.from({ length: 10 }, () => scanCompleted(a.orgId));
    const path = `/flaky/2/${a.orgId}`;
    const ours = () => receiver.requests.filter((d) => d.path === path);
    for (const init of inits) await produce(Topics.scanEvents, init, (init.payload as { value: { scanId: string } }).value.scanId);
    // Groups that have just joined start at the newest offset: produce again until each arrived.
    await eventually(
      async () => {
        const ids = new Set(ours().map((d) => JSON.parse(d.body).data.scan_id));
        if (ids.size === 10) return true;
        for (const init of inits) {
          const scanId = (init.payload as { value: { scanId: string } }).value.scanId;
          if (!ids.has(scanId)) await produce(Topics.scanEvents, init, scanId);
        }
        return undefined;
      },
      "first attempts",
      60_000,
    );
    // Every first attempt failed; the second is due 8 s later. A second for the last answers to be
    // recorded (the receiver sees a request before the dispatcher records it), then kill both
    // replicas while no attempt is in flight: an attempt killed mid-send would be resent after its
    // 45 s lease, which is at-least-once HTTP, not what this test is about. The first attempts can
    // spread over seconds (the groups rebalance as the replica joins), hence 8 s, and the check
    // that no second attempt has started when the replicas are killed.
    await new Promise((r) => setTimeout(r, 1000));
    expect(ours().length, "a second attempt started before the kill: the first attempts spread over more than the retry delay").toBe(10);
    const original = system.processes["webhook-dispatcher"];
    process.kill(original.pid, "SIGKILL");
    replica.kill("SIGKILL");
    await startDispatcher({ rpc: portsOf(original.rpcUrl!), admin: portsOf(original.adminUrl) });
    await eventually(() => (ours().length >= 30 ? true : undefined), "retries after the restart", 60_000);
    await new Promise((r) => setTimeout(r, 3000)); // nothing more may arrive
    const perDelivery = new Map<string, number>();
    for (const d of ours()) perDelivery.set(d.id, (perDelivery.get(d.id) ?? 0) + 1);
    expect(perDelivery.size).toBe(10);
    expect([...perDelivery.values()]).toEqual(Array(10).fill(3));
    const hook = (await a.api.get("/api/v1/webhooks")).body.items[0].id;
    const history = await eventually(async () => {
      const res = await a.api.get(`/api/v1/webhooks/${hook}/deliveries?status=success`);
      return res.status === 200 && res.body.total === 10 ? res.body : undefined;
    }, "history");
    for (const d of history.items) expect(d).toMatchObject({ status: "success", attempts: 3, response_code: 200 });
    const metrics = await (await fetch(`${original.adminUrl}/metrics`)).text();
    expect(metrics).toMatch(/webhook_deliveries_total\{[^}]*outcome="success"/);
    expect(metrics).toMatch(/webhook_queue_depth/);
    expect(metrics).toMatch(/webhook_oldest_pending_age_seconds/);
  }, 240_000);
});
