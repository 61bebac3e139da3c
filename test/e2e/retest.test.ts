import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createLogger, KafkaBus, Topics } from "@vulnscan/kit";
import { EventEnvelopeSchema, type EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startReceiver, type ReceivedDelivery, type Receiver } from "../../examples/webhook-receiver/receiver.js";
import { startSystem, type RunningSystem } from "../../scripts/system.js";
import { startLab, type Lab } from "../lab/lab.js";
import { redisCommand } from "../lab/redis.js";
import { type Api, newAccount } from "../support/api.js";
import { unique } from "../support/names.js";
import { selfSignedCertificates } from "../support/tls.js";
import { labSystemEnv } from "../support/system-env.js";

/*
 * Retest of one finding (issue 28 item 1) end to end: every service as its own process on the
 * real Kafka and MongoDB-protocol server, the real scanner against the scan lab. A quick scan of
 * the lab's real Redis and memcached (both without authentication) makes the findings; the lab
 * then changes under them: Redis paused (it accepts connections and says nothing) → the retest
 * is inconclusive and the finding stays open; Redis given a password → fixed, resolved as
 * verified_fixed, finding.retested delivered to a webhook and stored as evidence on the controls;
 * memcached killed → inconclusive (refused).
 */

let system: RunningSystem;
let lab: Lab;
let bus: KafkaBus;
let receiver: Receiver;
let api: Api;
let other: Api;
let prefix: string;
const events: EventEnvelope[] = [];
const PASSWORD = "correct horse battery staple";
const SECRET = "e2e-retest-webhook-secret";

const account = (plan: string) =>
  newAccount({ gatewayUrl: system.gatewayUrl, mongoUrl: inject("mongoUrl"), authDb: `${prefix}auth`, plan, name: unique("org"), password: PASSWORD });

async function waitFor<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 90_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Asks for a retest and polls its list until the retest has a verdict. */
async function retest(findingId: string) {
  const started = await api.post(`/api/v1/findings/${findingId}/retest`, {});
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  expect(started.body).toMatchObject({ finding_id: findingId, status: "pending", verdict: null });
  const done = await waitFor(`verdict of ${started.body.id}`, async () => {
    const res = await api.get(`/api/v1/findings/${findingId}/retests`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body.items.find((x: any) => x.id === started.body.id);
    return r?.status === "completed" ? r : undefined;
  });
  return { started: started.body, done };
}

function delivered(event: string): (ReceivedDelivery & { json: any })[] {
  const byId = new Map<string, ReceivedDelivery & { json: any }>();
  for (const d of receiver.requests) if (d.event === event && !byId.has(d.id)) byId.set(d.id, { ...d, json: JSON.parse(d.body) });
  return [...byId.values()];
}

let redisFinding: any;
let memcachedFinding: any;

beforeAll(async () => {
  prefix = `${unique("e2eretest")}_`;
  lab = await startLab();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-e2e-retest-"));
  const tls = selfSignedCertificates(logDir, "127.0.0.2");
  receiver = await startReceiver({ host: "127.0.0.2", key: tls.key, cert: tls.cert, secret: SECRET });
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir,
    logLevel: "warn",
    env: labSystemEnv({ scanNetworks: lab.allowedNetworks, receiverCa: tls.ca }),
  });
  bus = new KafkaBus({ clientId: "e2e-retest", brokers: [inject("kafkaBrokers")], topicPrefix: prefix, logger: createLogger("e2e", "silent") });
  await bus.subscribe({
    groupId: unique("e2e-retest-events"),
    topic: Topics.findingEvents,
    schema: EventEnvelopeSchema,
    handle: async (e) => void events.push(e),
  });
  api = await account("enterprise");
  other = await account("enterprise");

  const hook = await api.post("/api/v1/webhooks", {
    name: "retests",
    url: `${receiver.url}/retest`,
    events: ["finding.retested", "vulnerability.resolved"],
    secret: SECRET,
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  const ports = [lab.targets.redis.port, lab.targets.memcached.port].join(",");
  const scan = await api.post("/api/v1/scans", { target: lab.weak.address, ports, scan_type: "quick", authorized: true });
  expect(scan.status, JSON.stringify(scan.body)).toBe(201);
  await waitFor(
    "scan to complete",
    async () => {
      const s = (await api.get(`/api/v1/scans/${scan.body.id}`)).body;
      expect(["pending", "running", "completed"]).toContain(s.status);
      return s.status === "completed" ? s : undefined;
    },
    180_000,
    500,
  );
  const findings = await waitFor("the redis and memcached findings", async () => {
    const items = (await api.get(`/api/v1/scans/${scan.body.id}/findings`)).body.items as any[];
    const redis = items.find((f) => f.tool === "templates" && f.affected_component.includes(`:${lab.targets.redis.port}`) && f.severity === "critical");
    const memcached = items.find((f) => f.affected_component.includes(`:${lab.targets.memcached.port}`) && /memcached/i.test(f.title));
    return redis && memcached ? { redis, memcached } : undefined;
  });
  redisFinding = (await api.get(`/api/v1/findings/${findings.redis.id}`)).body;
  memcachedFinding = (await api.get(`/api/v1/findings/${findings.memcached.id}`)).body;
}, 300_000);

afterAll(async () => {
  await bus?.close();
  await system?.stop();
  await lab?.stop();
  await receiver?.close();
});

describe("retest of one finding against the scan lab", () => {
  it("is inconclusive (timeout) while the host is stopped, and leaves the status alone", async () => {
    await lab.control("redis", "pause");
    try {
      const { done } = await retest(redisFinding.id);
      expect(done).toMatchObject({ verdict: "inconclusive", reason: "timeout", finding_status: "open" });
      expect(done.check).toMatchObject({ template_id: redisFinding.template_id, tool: "templates", port: lab.targets.redis.port });
    } finally {
      await lab.control("redis", "resume");
    }
    const f = (await api.get(`/api/v1/findings/${redisFinding.id}`)).body;
    expect(f).toMatchObject({ status: "open", resolution: null });
  }, 120_000);

  it("is still_vulnerable with fresh evidence while the weakness is there", async () => {
    const { done } = await retest(redisFinding.id);
    expect(done).toMatchObject({ verdict: "still_vulnerable", reason: null, finding_status: "open" });
    expect(done.evidence.response).toMatch(/redis_version:/);
  }, 120_000);

  it("is fixed once the lab requires a password: resolved as verified_fixed, events, webhook and evidence", async () => {
    expect(await redisCommand(lab.targets.redis.host, lab.targets.redis.port, "CONFIG", "SET", "requirepass", "lab-fixed-it")).toMatch(/^\+OK/);
    const { started, done } = await retest(redisFinding.id);
    expect(done).toMatchObject({ verdict: "fixed", reason: null, finding_status: "resolved" });
    expect(Date.parse(done.completed_at)).toBeGreaterThanOrEqual(Date.parse(done.requested_at));

    const f = (await api.get(`/api/v1/findings/${redisFinding.id}`)).body;
    expect(f).toMatchObject({ status: "resolved", resolution: "verified_fixed" });
    expect(f.history).toContainEqual(expect.objectContaining({ action: "status_changed", from: "open", to: "resolved", user: "system" }));
    expect(f.history).toContainEqual(expect.objectContaining({ action: "retested", to: `fixed (${started.id})` }));

    const kinds = () => events.filter((e) => e.payload.case && (e.payload.value as { findingId?: string }).findingId === redisFinding.id).map((e) => e.type);
    await waitFor("finding.retested and the status events on Kafka", () =>
      ["finding.retested", "vulnerability.status_changed", "vulnerability.resolved"].every((k) => kinds().includes(k)) ? true : undefined,
    );
    const hook = await waitFor("finding.retested delivered", () => delivered("finding.retested").find((d) => d.json.data.retest_id === started.id));
    expect(hook.json.data).toMatchObject({
      finding_id: redisFinding.id,
      retest_id: started.id,
      verdict: "fixed",
      reason: "",
      status: "resolved",
      template_id: redisFinding.template_id,
    });
    await waitFor("vulnerability.resolved delivered", () => delivered("vulnerability.resolved").find((d) => d.json.data.finding_id === redisFinding.id));

    // The verified fix is dated evidence on the controls the finding maps to.
    expect(redisFinding.frameworks.length).toBeGreaterThan(0);
    const evidence = await waitFor("verified-fix evidence", async () => {
      const items = (await api.get("/api/v1/evidence?per_page=100")).body.items as any[];
      return items.find((e) => e.source === "retest" && e.scan_id === started.id);
    });
    expect(evidence).toMatchObject({ status: "clean", content_type: "application/json" });
    expect(evidence.name).toContain(redisFinding.id);
  }, 120_000);

  it("is inconclusive (refused) when the service is gone", async () => {
    await lab.control("memcached", "kill");
    const { done } = await retest(memcachedFinding.id);
    expect(done).toMatchObject({ verdict: "inconclusive", reason: "refused", finding_status: memcachedFinding.status });
    expect((await api.get(`/api/v1/findings/${memcachedFinding.id}`)).body.status).toBe(memcachedFinding.status);
  }, 120_000);

  it("refuses what cannot be retested, and another organization's finding", async () => {
    const missing = await api.post("/api/v1/findings/finding_00000000000000000000000000/retest", {});
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error_code: "NOT_FOUND" });
    expect((await other.post(`/api/v1/findings/${redisFinding.id}/retest`, {})).status).toBe(404);
    expect((await other.get(`/api/v1/findings/${redisFinding.id}/retests`)).status).toBe(404);
    const inventory = (await api.get(`/api/v1/findings?tool=portscan&per_page=100`)).body.items.find((f: any) => f.template_id === "net-open-ports");
    if (inventory) {
      const res = await api.post(`/api/v1/findings/${inventory.id}/retest`, {});
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error_code: "INVALID_STATE" });
    }
    const list = (await api.get(`/api/v1/findings/${redisFinding.id}/retests?per_page=2`)).body;
    expect(list).toMatchObject({ total: 3, page: 1, per_page: 2, pages: 2 });
    expect(list.items.map((r: any) => r.verdict)).toEqual(["fixed", "still_vulnerable"]);
  }, 60_000);
});
