import { afterEach, describe, expect, inject, it } from "vitest";
import { grpcHealthCheck } from "../../../test/support/grpc-health.js";
import { unique } from "../../../test/support/names.js";
import { loadConfig, serviceEnvSchema } from "../src/config.js";
import { runService, type RunningService } from "../src/service.js";

const schema = serviceEnvSchema({ rpcPort: 0, adminPort: 0, database: "kit_service" });
let running: RunningService | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

async function readyz(port: number) {
  const res = await fetch(`http://127.0.0.1:${port}/readyz`);
  return { status: res.status, body: (await res.json()) as { ready: boolean; checks: Record<string, { ok: boolean; error?: string }> } };
}

describe("runService", () => {
  it("is live but not ready while the database does not answer", async () => {
    const config = loadConfig(schema, {
      MONGO_URL: "mongodb://127.0.0.1:1/",
      KAFKA_BROKERS: inject("kafkaBrokers"),
      LOG_LEVEL: "silent",
    });
    running = await runService({ name: "kit-probe", config, compose: () => ({}) });
    expect((await fetch(`http://127.0.0.1:${running.adminPort}/livez`)).status).toBe(200);
    const { status, body } = await readyz(running.adminPort);
    expect(status).toBe(503);
    expect(body.ready).toBe(false);
    expect(body.checks.mongo?.ok).toBe(false);
    expect(await grpcHealthCheck(`http://127.0.0.1:${running.rpcPort}`)).toBe("NOT_SERVING");
  });

  it("becomes ready once Mongo and Kafka answer, and says so over grpc.health.v1 and /metrics", async () => {
    const config = loadConfig(schema, {
      MONGO_URL: inject("mongoUrl"),
      MONGO_DB: unique("kitsvc"),
      KAFKA_BROKERS: inject("kafkaBrokers"),
      LOG_LEVEL: "silent",
    });
    let startedHook = false;
    running = await runService({
      name: "kit-probe",
      config,
      compose: () => ({
        topics: [unique("vulnscan.test.svc")],
        start: async () => {
          startedHook = true;
        },
      }),
    });
    await running.started;
    expect(startedHook).toBe(true);
    const { status, body } = await readyz(running.adminPort);
    expect(status).toBe(200);
    expect(body.checks).toMatchObject({ mongo: { ok: true }, kafka: { ok: true }, startup: { ok: true } });
    expect(await grpcHealthCheck(`http://127.0.0.1:${running.rpcPort}`)).toBe("SERVING");
    expect(await grpcHealthCheck(`http://127.0.0.1:${running.rpcPort}`, "no.such.Service").catch((e: Error) => e.message)).toMatch(
      /NOT_FOUND|unknown service/i,
    );

    const metrics = await (await fetch(`http://127.0.0.1:${running.adminPort}/metrics`)).text();
    expect(metrics).toMatch(/process_cpu_user_seconds_total\{service="kit-probe"\}/);
    expect(metrics).toMatch(/rpc_server_duration_seconds_count\{[^}]*method="grpc.health.v1.Health\/Check"[^}]*code="ok"/);
    expect(metrics).toMatch(/rpc_server_duration_seconds_count\{[^}]*code="not_found"/);
  });
});
