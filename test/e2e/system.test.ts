import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SERVICES, startSystem, type RunningSystem } from "../../scripts/system.js";
import { grpcHealthCheck } from "../support/grpc-health.js";
import { unique } from "../support/names.js";

const version = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../../package.json"), "utf8")).version as string;
let system: RunningSystem;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: `${unique("e2e")}_`,
    logDir: fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-e2e-logs-")),
    logLevel: "warn",
    env: { SERVICE_VERSION: version },
  });
});

afterAll(async () => {
  await system?.stop();
});

describe("the whole system, every service in its own process", () => {
  it("GET /api/health answers the spec's health record", async () => {
    const res = await fetch(`${system.gatewayUrl}/api/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as { timestamp: string };
    expect(body).toEqual({
      status: "healthy",
      version,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      services: { auth: "up", "scan-orchestrator": "up", findings: "up", grc: "up", "webhook-dispatcher": "up" },
    });
    expect(Math.abs(Date.parse(body.timestamp) - Date.now())).toBeLessThan(60_000);
  });

  it("every service is ready on its admin port and SERVING to a standard gRPC client", async () => {
    for (const svc of SERVICES) {
      const p = system.processes[svc.name];
      const ready = await fetch(`${p.adminUrl}/readyz`);
      expect(ready.status, svc.name).toBe(200);
      expect(await ready.json()).toMatchObject({ ready: true, checks: { mongo: { ok: true }, kafka: { ok: true } } });
      expect(await grpcHealthCheck(p.rpcUrl!), svc.name).toBe("SERVING");
    }
    const gw = await fetch(`${system.processes.gateway.adminUrl}/metrics`);
    expect(await gw.text()).toMatch(/http_server_duration_seconds_count\{[^}]*route="\/api\/health"/);
  });

  it("unknown routes answer 404 in the spec's error shape", async () => {
    const res = await fetch(`${system.gatewayUrl}/api/v1/does-not-exist`, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not found", error_code: "NOT_FOUND" });
  });

  it("reports degraded with 503 when a required service goes down", async () => {
    const findings = system.processes.findings;
    process.kill(findings.pid, "SIGTERM");
    const deadline = Date.now() + 15_000;
    while (alive(findings.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const res = await fetch(`${system.gatewayUrl}/api/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: "degraded", version, services: { findings: "down", auth: "up" } });
  });

  it("stops every process it started", async () => {
    const pids = Object.values(system.processes).map((p) => p.pid);
    await system.stop();
    expect(pids.filter(alive)).toEqual([]);
  });
});
