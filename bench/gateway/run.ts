// Gateway benchmark: authenticated requests (bearer token, then API key) through the real guard
// (token verified once and cached, revocations and plans from the AuthView that follows
// vulnscan.auth.events, rate limits counted in blocks in Mongo) beside a bare Fastify route, in
// the same run on the same machine; then GET /api/v1/scans/quota (one RPC to the
// scan-orchestrator) at full speed and at a fixed 500 req/s. Load comes from the autocannon CLI
// in its own process, so it does not share an event loop with the servers.
// Usage: npx tsx bench/gateway/run.ts [--duration 10] [--connections 50] [--rate 500]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createLogger, createMetrics } from "@vulnscan/kit";
import Fastify, { type FastifyPluginAsync } from "fastify";
import { composeGateway } from "../../gateway/src/compose.js";
import { gatewayEnvSchema } from "../../gateway/src/config.js";
import { ROOT } from "../../scripts/lib/root.js";
import { startStack } from "../../scripts/stack/index.js";
import { startSystem } from "../../scripts/system.js";
import { admin, Api } from "../../test/support/api.js";

const { values } = parseArgs({
  options: { duration: { type: "string", default: "10" }, connections: { type: "string", default: "50" }, rate: { type: "string", default: "500" } },
});
const verdict = (ok: boolean, goal: string) => `${goal}: ${ok ? "met" : "MISSED"}`;
const log = (s: string) => process.stderr.write(`[bench] ${s}\n`);

const stack = await startStack({ log });
// The services' environment for this server (FERRETDB_POSTGRESQL_URL on PostgreSQL), for the
// gateway built in this process and the admin CLI it runs.
Object.assign(process.env, stack.serviceEnv);
const prefix = `bench${Date.now().toString(36)}_`;
const system = await startSystem({
  kafkaBrokers: stack.kafkaBrokers,
  mongoUrl: stack.mongoUrl,
  dbPrefix: prefix,
  logDir: fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-bench-")),
  logLevel: "warn",
});
try {
  const env = { MONGO_URL: stack.mongoUrl, MONGO_DB: `${prefix}auth`, KAFKA_BROKERS: stack.kafkaBrokers };
  const org = admin(["create-org", "--name", "Bench", "--plan", "enterprise"], env);
  admin(["create-user", "--org", org.id, "--email", "bench@example.test", "--password", "benchmark-password-1"], env);
  // Enterprise limits far above what the run can send (the operator's set-limits), so every
  // request is admitted and counted; a monthly scan limit so the quota answer counts usage.
  admin(["set-limits", "--org", org.id, "--requests-per-hour", "100000000", "--requests-per-day", "1000000000", "--scans-per-month", "1000"], env);
  const api = new Api(system.gatewayUrl);
  const token = (await api.token("bench@example.test", "benchmark-password-1")).body.access_token as string;
  const key = (await api.withToken(token).post("/api/v1/auth/api-keys", { name: "bench", permissions: ["read:scans"] })).body.key as string;

  // The bare baseline and the gateway under test, both in this process.
  const bare = Fastify({ logger: false });
  bare.get("/bare", async () => ({ ok: true }));
  await bare.listen({ host: "127.0.0.1", port: 0 });

  const config = gatewayEnvSchema.parse({ ...system.gatewayEnv, LOG_LEVEL: "silent" });
  const probe: FastifyPluginAsync = async (a) => {
    a.get("/api/v1/bench/echo", { config: { permission: "read:scans" } }, async () => ({ ok: true }));
  };
  const gw = await composeGateway(config, { logger: createLogger("bench", "silent"), registry: createMetrics("bench").registry, plugins: [probe] });
  await gw.indexed;
  await gw.app.listen({ host: "127.0.0.1", port: 0 });
  const gwUrl = `http://127.0.0.1:${(gw.app.server.address() as { port: number }).port}`;
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;
  // Warm up: the view loaded, the token verified, the key resolved and the plan cached once.
  const deadline = Date.now() + 60_000;
  while (!gw.view.isCurrent()) {
    if (Date.now() > deadline) throw new Error("the gateway's auth view did not become current");
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const h of [{ authorization: `Bearer ${token}` }, { "x-api-key": key }] as Record<string, string>[]) {
    for (const url of [`${gwUrl}/api/v1/bench/echo`, `${gwUrl}/api/v1/scans/quota`]) {
      const res = await fetch(url, { headers: h });
      if (res.status !== 200) throw new Error(`warm-up ${url} answered ${res.status}: ${await res.text()}`);
    }
  }

  const conn = ["-c", values.connections!];
  const cases = [
    { name: "bare Fastify route", url: `${bareUrl}/bare`, args: conn },
    { name: "auth, bearer, no RPC", url: `${gwUrl}/api/v1/bench/echo`, args: [...conn, "-H", `authorization=Bearer ${token}`] },
    { name: "auth, API key, no RPC", url: `${gwUrl}/api/v1/bench/echo`, args: [...conn, "-H", `x-api-key=${key}`] },
    { name: "quota (1 RPC), bearer", url: `${gwUrl}/api/v1/scans/quota`, args: [...conn, "-H", `authorization=Bearer ${token}`] },
    {
      name: `quota at ${values.rate} req/s`,
      url: `${gwUrl}/api/v1/scans/quota`,
      // A fixed rate: 10 connections are plenty for 500 req/s at a few ms each.
      args: ["-c", "10", "--overallRate", values.rate!, "-H", `authorization=Bearer ${token}`],
    },
  ];
  const results: { name: string; rps: number; p50: number; p99: number; non2xx: number }[] = [];
  for (const c of cases) {
    log(`${c.name}: ${values.duration}s, ${c.args.join(" ").replace(/(Bearer |x-api-key=)\S+/g, "$1…")}`);
    // Asynchronous on purpose: the servers under test run in this process's event loop.
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn(path.join(ROOT, "node_modules/.bin/autocannon"), ["-j", "-d", values.duration!, ...c.args, c.url]);
      let text = "";
      child.stdout.on("data", (d: Buffer) => (text += d.toString()));
      child.once("error", reject);
      child.once("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`autocannon exited ${code}`))));
    });
    const out = JSON.parse(stdout) as { requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number };
    results.push({ name: c.name, rps: out.requests.average, p50: out.latency.p50, p99: out.latency.p99, non2xx: out.non2xx });
  }
  const base = results[0]!;
  console.log(
    `\nGateway benchmark (${os.cpus().length} cores, ${values.connections} connections unless fixed-rate, ${values.duration} s each, autocannon 8.0.0, database: ${stack.mongoServer})`,
  );
  console.log("case                         req/s     p50 ms   p99 ms   non-2xx   req/s vs bare   goal");
  const goals: Record<number, (r: (typeof results)[number]) => string> = {
    1: (r) => verdict(r.rps / base.rps >= 0.75, "≥ 0.75× bare"),
    2: (r) => verdict(r.rps / base.rps >= 0.75, "≥ 0.75× bare"),
    3: (r) => verdict(r.rps / base.rps >= 0.3, "≥ 0.30× bare"),
    4: (r) => verdict(r.p99 <= 10 && r.non2xx === 0, "p99 ≤ 10 ms"),
  };
  results.forEach((r, i) => {
    console.log(
      `${r.name.padEnd(27)} ${r.rps.toFixed(0).padStart(7)} ${r.p50.toFixed(1).padStart(9)} ${r.p99.toFixed(1).padStart(8)} ${String(r.non2xx).padStart(9)} ${(r.rps / base.rps).toFixed(3).padStart(15)}   ${goals[i]?.(r) ?? ""}`,
    );
  });
  await gw.stop();
  await bare.close();
} finally {
  await system.stop();
  await stack.stop();
}
