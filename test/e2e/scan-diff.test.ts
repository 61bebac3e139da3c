import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startReceiver, type Receiver } from "../../examples/webhook-receiver/receiver.js";
import { startSystem, type RunningSystem } from "../../scripts/system.js";
import { startLab, type Lab } from "../lab/lab.js";
import { redisCommand } from "../lab/redis.js";
import { type Api, newAccount } from "../support/api.js";
import { unique } from "../support/names.js";
import { selfSignedCertificates } from "../support/tls.js";
import { waitFor } from "../support/wait.js";
import { labSystemEnv } from "../support/system-env.js";

/*
 * Scan comparison (issue 28 item 2) end to end: every service as its own process on the real
 * Kafka and MongoDB-protocol server, the real scanner against the scan lab. Scan A and scan A2
 * of the unchanged lab (Redis and memcached without authentication, the Redis-like fake) differ
 * by nothing fixed; then the lab fixes Redis (a password) and memcached is killed, and scan B's
 * comparison lists the Redis finding as fixed and memcached's as not covered (port not open).
 * Each scan.completed delivered to a webhook carries the same bucket counts against the
 * previous completed scan (none for the first).
 */

let system: RunningSystem;
let lab: Lab;
let api: Api;
let other: Api;
let prefix: string;
let receiver: Receiver;
const PASSWORD = "correct horse battery staple";
const SECRET = "e2e-diff-webhook-secret";

const account = (plan: string) =>
  newAccount({ gatewayUrl: system.gatewayUrl, mongoUrl: inject("mongoUrl"), authDb: `${prefix}auth`, plan, name: unique("org"), password: PASSWORD });

let ports: string;

/** A quick scan of the lab's weak host on the test's ports, until completed. */
async function scan(): Promise<string> {
  const res = await api.post("/api/v1/scans", { target: lab.weak.address, ports, scan_type: "quick", authorized: true });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await waitFor(
    `scan ${res.body.id} to complete`,
    async () => {
      const s = (await api.get(`/api/v1/scans/${res.body.id}`)).body;
      expect(["pending", "running", "completed"]).toContain(s.status);
      return s.status === "completed" ? s : undefined;
    },
    240_000,
    500,
  );
  return res.body.id;
}

/** The comparison once findings has the scan's coverage (it arrives after the scan's detections). */
async function diff(scanId: string, query = "") {
  return waitFor(`coverage of ${scanId}`, async () => {
    const res = await api.get(`/api/v1/scans/${scanId}/diff${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.coverage_recorded ? res.body : undefined;
  });
}

const ids = (bucket: { items: { finding_id: string }[] }) => bucket.items.map((i) => i.finding_id);

/** The data of the scan's scan.completed as the webhook received it (once delivered). */
function completedDelivery(scanId: string) {
  return waitFor(`scan.completed of ${scanId} delivered`, () => {
    for (const d of receiver.requests) {
      if (d.event !== "scan.completed") continue;
      const body = JSON.parse(d.body);
      if (body.data.scan_id === scanId) return body.data;
    }
    return undefined;
  });
}

/** The comparison a scan.completed carries: the diff's counts against the scan it names. */
const comparisonOf = (d: { against: { id: string }; counts: Record<string, number> }) => ({ against_scan_id: d.against.id, ...d.counts });

let scanA: string;
let scanA2: string;
let scanB: string;
let redisFinding: any;
let memcachedFindings: any[];

beforeAll(async () => {
  prefix = `${unique("e2ediff")}_`;
  lab = await startLab();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-e2e-diff-"));
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
  api = await account("enterprise");
  other = await account("enterprise");
  const hook = await api.post("/api/v1/webhooks", { name: "scans", url: `${receiver.url}/scans`, events: ["scan.completed"], secret: SECRET });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  // Auto-resolution (item 3) is off by default; this organization turns it on, the other keeps it off.
  const policy = await api.get("/api/v1/findings/policy");
  expect(policy.body.auto_resolve).toBe(false);
  const sla_days = policy.body.sla_days;
  const on = await api.request("PUT", "/api/v1/findings/policy", { sla_days, require_acceptance_approval: false, auto_resolve: true });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
  expect(on.body.auto_resolve).toBe(true);
  // Left out of a later update, the setting is kept.
  const kept = await api.request("PUT", "/api/v1/findings/policy", { sla_days, require_acceptance_approval: false });
  expect(kept.body.auto_resolve).toBe(true);
  const bad = await api.request("PUT", "/api/v1/findings/policy", { sla_days, require_acceptance_approval: false, auto_resolve: "yes" });
  expect(bad.status).toBe(422);
  expect((await other.get("/api/v1/findings/policy")).body.auto_resolve).toBe(false);
  ports = [lab.targets.redis.port, lab.targets.memcached.port].join(",");
  scanA = await scan();
  const items = (await api.get(`/api/v1/scans/${scanA}/findings`)).body.items as any[];
  redisFinding = items.find((f) => f.tool === "templates" && f.affected_component.includes(`:${lab.targets.redis.port}`) && f.severity === "critical");
  memcachedFindings = items.filter((f) => f.affected_component.includes(`:${lab.targets.memcached.port}`));
  expect(redisFinding, JSON.stringify(items)).toBeDefined();
  redisFinding = (await api.get(`/api/v1/findings/${redisFinding.id}`)).body;
  expect(memcachedFindings.length, JSON.stringify(items)).toBeGreaterThan(0);
}, 400_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
  await lab?.stop();
});

describe("scan comparison against the scan lab", () => {
  it("finds nothing fixed between two scans of the unchanged lab", async () => {
    scanA2 = await scan();
    const d = await diff(scanA2);
    expect(d.against.id).toBe(scanA);
    expect(d.counts.fixed).toBe(0);
    expect(d.fixed.items).toEqual([]);
    expect(d.counts.new).toBe(0);
    expect(ids(d.unchanged)).toContain(redisFinding.id);
    for (const f of memcachedFindings) expect(ids(d.unchanged)).toContain(f.id);
    expect(d.counts.unchanged).toBe(d.unchanged.items.length);
    // Auto-resolution resolved nothing: every finding of scan A is still open.
    for (const f of [redisFinding, ...memcachedFindings]) expect((await api.get(`/api/v1/findings/${f.id}`)).body.status).toBe("open");
    // scan.completed: the first scan of the target had nothing to compare with; the second
    // carries the diff's counts against it.
    const first = await completedDelivery(scanA);
    expect(first).toMatchObject({ scan_id: scanA, status: "completed" });
    expect(first).not.toHaveProperty("comparison");
    expect((await completedDelivery(scanA2)).comparison).toEqual(comparisonOf(d));
  }, 300_000);

  it("lists the fixed weakness as fixed and the stopped service's findings as not covered", async () => {
    expect(await redisCommand(lab.targets.redis.host, lab.targets.redis.port, "CONFIG", "SET", "requirepass", "lab-fixed-it")).toMatch(/^\+OK/);
    await lab.control("memcached", "kill");
    scanB = await scan();
    const d = await diff(scanB);
    // The default comparison is with the previous completed scan of the target.
    expect(d.against.id).toBe(scanA2);
    expect(d.scan).toMatchObject({ id: scanB, target: lab.weak.address, status: "completed" });
    expect(ids(d.fixed)).toContain(redisFinding.id);
    expect(d.fixed.items.find((i: any) => i.finding_id === redisFinding.id)).toMatchObject({ template_id: redisFinding.template_id, reason: null });
    for (const f of memcachedFindings) {
      const item = d.not_covered.items.find((i: any) => i.finding_id === f.id);
      expect(item, `${f.title} not covered`).toMatchObject({ reason: "port_not_open" });
      expect(ids(d.fixed)).not.toContain(f.id);
    }
    expect(d.counts).toMatchObject({ fixed: d.fixed.items.length, not_covered: d.not_covered.items.length });
    // The same counts reached the webhook with scan B's completion.
    const done = await completedDelivery(scanB);
    expect(done.comparison).toEqual(comparisonOf(d));
    expect(done.comparison.against_scan_id).toBe(scanA2);
    expect(done.comparison.fixed).toBeGreaterThanOrEqual(1);
    expect(done.comparison.not_covered).toBeGreaterThanOrEqual(memcachedFindings.length);

    // Auto-resolution: the covered, no longer matching check resolves its finding as not_detected;
    // the stopped service's findings were not covered and stay open.
    const resolved = await waitFor("the fixed finding auto-resolved", async () => {
      const f = (await api.get(`/api/v1/findings/${redisFinding.id}`)).body;
      return f.status === "resolved" ? f : undefined;
    });
    expect(resolved.resolution).toBe("not_detected");
    expect(resolved.history).toContainEqual(expect.objectContaining({ action: "not_detected", to: scanB, user: "system" }));
    expect(resolved.history).toContainEqual(expect.objectContaining({ action: "status_changed", from: "open", to: "resolved", user: "system" }));
    for (const f of memcachedFindings) expect((await api.get(`/api/v1/findings/${f.id}`)).body).toMatchObject({ status: "open", resolution: null });

    // Against an explicit scan, with a bucket limit.
    const explicit = (await api.get(`/api/v1/scans/${scanB}/diff?against=${scanA}&limit=1`)).body;
    expect(explicit.against.id).toBe(scanA);
    expect(explicit.counts.not_covered).toBe(d.counts.not_covered);
    expect(explicit.not_covered.items.length).toBeLessThanOrEqual(1);
  }, 300_000);

  it("answers errors in the spec's shape, scoped to the organization", async () => {
    expect((await other.get(`/api/v1/scans/${scanB}/diff`)).status).toBe(404);
    const foreign = await other.get(`/api/v1/scans/${scanB}/diff?against=${scanA}`);
    expect(foreign.status).toBe(404);
    const same = await api.get(`/api/v1/scans/${scanB}/diff?against=${scanB}`);
    expect(same.status).toBe(422);
    expect(same.body).toMatchObject({ error_code: "VALIDATION_ERROR", field: "against" });
    const missing = await api.get(`/api/v1/scans/${scanB}/diff?against=scan_00000000000000000000000000`);
    expect(missing.status).toBe(404);
    // The first scan of a target has nothing earlier to compare with.
    const first = await api.get(`/api/v1/scans/${scanA}/diff`);
    expect(first.status).toBe(400);
    expect(first.body).toMatchObject({ error_code: "INVALID_STATE", field: "against" });
  }, 60_000);
});
