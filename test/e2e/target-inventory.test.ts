import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSystem, type RunningSystem } from "../../scripts/system.js";
import { startLab, type Lab } from "../lab/lab.js";
import { admin, Api } from "../support/api.js";
import { unique } from "../support/names.js";
import { waitFor } from "../support/wait.js";

/*
 * A target's inventory (issue 29 item 4) end to end: every service as its own process on the real
 * Kafka and MongoDB-protocol server, the real scanner against the scan lab (its own network
 * namespace, or loopback). Two quick scans of the lab's weak host: the target shows the last scan,
 * open findings by severity (moving when one is resolved), an SLA breach once one is announced,
 * and the open ports with first and last seen; another organization's id is 404.
 */

let system: RunningSystem;
let lab: Lab;
let api: Api;
let other: Api;
let prefix: string;
const PASSWORD = "correct horse battery staple";

async function account(): Promise<Api> {
  const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  const org = admin(["create-org", "--name", `inventory ${unique("org")}`, "--plan", "enterprise"], env);
  const email = `${unique("inv")}@example.test`.toLowerCase();
  admin(["create-user", "--org", org.id, "--email", email, "--password", PASSWORD], env);
  const a = new Api(system.gatewayUrl);
  const res = await a.token(email, PASSWORD);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return a.withToken(res.body.access_token);
}

async function scanLab(ports: string): Promise<string> {
  const scan = await api.post("/api/v1/scans", { target: lab.weak.address, ports, scan_type: "quick", authorized: true });
  expect(scan.status, JSON.stringify(scan.body)).toBe(201);
  await waitFor(
    `scan ${scan.body.id} to complete`,
    async () => {
      const s = (await api.get(`/api/v1/scans/${scan.body.id}`)).body;
      expect(["pending", "running", "completed"]).toContain(s.status);
      return s.status === "completed" ? s : undefined;
    },
    180_000,
    500,
  );
  return scan.body.id;
}

/** Open and in-progress findings of the host by severity, from the findings list (what the inventory must agree with). */
async function listedOpen(): Promise<Record<string, number>> {
  const out: Record<string, number> = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const status of ["open", "in_progress"]) {
    const items = (await api.get(`/api/v1/findings?target=${encodeURIComponent(lab.weak.address)}&status=${status}&per_page=100`)).body.items as any[];
    for (const f of items) out[f.severity]! += 1;
  }
  return { ...out, total: Object.values(out).reduce((a, b) => a + b, 0) };
}

let targetId: string;
let firstScan: string;

beforeAll(async () => {
  prefix = `${unique("e2einv")}_`;
  lab = await startLab();
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir: fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-e2e-inventory-")),
    logLevel: "warn",
    env: { SCAN_ALLOWED_NETWORKS: lab.allowedNetworks, OUTBOX_RELAY_INTERVAL_MS: "300", RELAY_INTERVAL_MS: "300", SCANNER_HEARTBEAT_MS: "1000" },
  });
  api = await account();
  other = await account();
}, 300_000);

afterAll(async () => {
  await system?.stop();
  await lab?.stop();
});

describe("target inventory", () => {
  it("is empty before any scan", async () => {
    const created = await api.post("/api/v1/targets", { target: lab.weak.address });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.inventory).toBeUndefined();
    targetId = created.body.id;
    const got = await api.get(`/api/v1/targets/${targetId}`);
    expect(got.status).toBe(200);
    expect(got.body.inventory).toEqual({
      last_scan: null,
      open_findings: { critical: 0, high: 0, medium: 0, low: 0, info: 0, total: 0 },
      sla_breaches: 0,
      ports: [],
    });
  });

  it("after a scan of the lab: the last scan, open findings by severity as the list has them, open ports with first and last seen", async () => {
    const ports = [lab.targets.redis.port, lab.targets.memcached.port];
    firstScan = await scanLab(ports.join(","));
    const inv = await waitFor("the inventory of the first scan", async () => {
      const i = (await api.get(`/api/v1/targets/${targetId}`)).body.inventory;
      return i.last_scan?.scan_id === firstScan && i.ports.length === ports.length && i.open_findings.total > 0 ? i : undefined;
    });
    expect(inv.last_scan).toMatchObject({ scan_id: firstScan, status: "completed" });
    expect(inv.ports.map((p: any) => p.port).sort()).toEqual([...ports].sort());
    for (const p of inv.ports) {
      expect(p).toMatchObject({ address: lab.weak.address, transport: "tcp", last_scan_id: firstScan });
      expect(p.first_seen_at).toBe(p.last_seen_at);
    }
    expect(inv.ports.find((p: any) => p.port === lab.targets.redis.port).service).toBe("redis");
    // The counts are kept as findings are written; wait until they settle, then they equal the list's.
    await waitFor("inventory counts equal to the findings list", async () => {
      const [i, listed] = [(await api.get(`/api/v1/targets/${targetId}`)).body.inventory, await listedOpen()];
      return JSON.stringify(i.open_findings) === JSON.stringify(listed) ? true : undefined;
    });
  }, 240_000);

  it("counts move when a finding is resolved or breaches its deadline", async () => {
    const before = (await api.get(`/api/v1/targets/${targetId}`)).body.inventory;
    const items = (await api.get(`/api/v1/findings?target=${encodeURIComponent(lab.weak.address)}&status=open&per_page=100`)).body.items as any[];
    const [a, b] = items;
    expect(b, "two open findings on the lab host").toBeDefined();

    const resolved = await api.patch(`/api/v1/findings/${a.id}`, { status: "resolved" });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    await waitFor("open count down by one", async () => {
      const i = (await api.get(`/api/v1/targets/${targetId}`)).body.inventory;
      return i.open_findings[a.severity] === before.open_findings[a.severity] - 1 && i.open_findings.total === before.open_findings.total - 1 ? i : undefined;
    });

    // A due date a person sets in the past: findings' upkeep announces the breach, and the inventory counts it.
    const due = await api.patch(`/api/v1/findings/${b.id}`, { due_date: new Date(Date.now() - 86_400_000).toISOString() });
    expect(due.status, JSON.stringify(due.body)).toBe(200);
    await waitFor("the breach counted", async () => {
      const i = (await api.get(`/api/v1/targets/${targetId}`)).body.inventory;
      return i.sla_breaches === 1 ? i : undefined;
    });
    // In progress still runs the SLA; resolving it ends the breach.
    expect((await api.patch(`/api/v1/findings/${b.id}`, { status: "in_progress" })).status).toBe(200);
    expect((await api.get(`/api/v1/targets/${targetId}`)).body.inventory.sla_breaches).toBe(1);
    expect((await api.patch(`/api/v1/findings/${b.id}`, { status: "resolved" })).status).toBe(200);
    await waitFor("the breach gone", async () => {
      const i = (await api.get(`/api/v1/targets/${targetId}`)).body.inventory;
      return i.sla_breaches === 0 ? i : undefined;
    });
  }, 120_000);

  it("a second scan moves the last scan and each port's last seen, not its first seen", async () => {
    const first = (await api.get(`/api/v1/targets/${targetId}`)).body.inventory;
    const second = await scanLab(String(lab.targets.redis.port));
    const inv = await waitFor("the inventory of the second scan", async () => {
      const i = (await api.get(`/api/v1/targets/${targetId}`)).body.inventory;
      const redis = i.ports.find((p: any) => p.port === lab.targets.redis.port);
      return i.last_scan?.scan_id === second && redis?.last_scan_id === second ? i : undefined;
    });
    const was = (port: number) => first.ports.find((p: any) => p.port === port);
    const redis = inv.ports.find((p: any) => p.port === lab.targets.redis.port);
    expect(redis.first_seen_at).toBe(was(lab.targets.redis.port).first_seen_at);
    expect(Date.parse(redis.last_seen_at)).toBeGreaterThan(Date.parse(redis.first_seen_at));
    // memcached was not scanned again: still listed, as last seen by the first scan.
    expect(inv.ports.find((p: any) => p.port === lab.targets.memcached.port)).toEqual(was(lab.targets.memcached.port));
  }, 240_000);

  it("another organization's target is not found; its own target of the same address has its own inventory", async () => {
    const res = await other.get(`/api/v1/targets/${targetId}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error_code: "NOT_FOUND" });
    // The other organization's own target of the same address knows nothing of the first one's scans.
    const mine = await other.post("/api/v1/targets", { target: lab.weak.address });
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    expect((await other.get(`/api/v1/targets/${mine.body.id}`)).body.inventory).toMatchObject({ last_scan: null, ports: [], open_findings: { total: 0 } });
  });
});
