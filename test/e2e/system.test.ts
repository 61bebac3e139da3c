import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SERVICES, startSystem, type RunningSystem } from "../../scripts/system.js";
import { grpcHealthCheck } from "../support/grpc-health.js";
import { unique } from "../support/names.js";

const version = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../../package.json"), "utf8")).version as string;
let system: RunningSystem;
const said: string[] = [];

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
    // As under `npm start`: a process that dies is restarted (and said here).
    restart: { say: (line) => said.push(line) },
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

  it("reports degraded with 503 while a service is down, and healthy again once it is restarted", async () => {
    const findings = system.processes.findings;
    const killed = findings.pid;
    process.kill(killed, "SIGKILL");
    const health = async () => {
      const res = await fetch(`${system.gatewayUrl}/api/health`);
      return { status: res.status, body: (await res.json()) as { status: string; services: Record<string, string> } };
    };
    // The restart waits a second and the new process needs a few more to listen: the outage is seen.
    let down = await health();
    for (const deadline = Date.now() + 15_000; down.status !== 503 && Date.now() < deadline; down = await health());
    expect(down).toMatchObject({ status: 503, body: { status: "degraded", services: { findings: "down", auth: "up" } } });
    let up = down;
    for (const deadline = Date.now() + 90_000; up.status !== 200 && Date.now() < deadline; up = await health()) {
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(up).toMatchObject({ status: 200, body: { status: "healthy" } });
    expect(findings.pid).not.toBe(killed);
    expect(alive(findings.pid)).toBe(true);
    expect(said).toEqual([expect.stringMatching(/^findings exited \(SIGKILL\); restarting it in 1\.0 s$/), `findings restarted (pid ${findings.pid})`]);
  });

  it("stops every process it started", async () => {
    const pids = Object.values(system.processes).map((p) => p.pid);
    await system.stop();
    expect(pids.filter(alive)).toEqual([]);
  });
});
