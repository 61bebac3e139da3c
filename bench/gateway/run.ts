// Gateway benchmark: an authenticated request (bearer token, then API key) through the real
// guard — JWT verification, session check at auth, plan lookup, rate-limit counting in Mongo —
// beside a bare Fastify route, in the same run on the same machine. Load comes from the
// autocannon CLI in its own process, so it does not share an event loop with the servers.
// Usage: npx tsx bench/gateway/run.ts [--duration 10] [--connections 50]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createLogger, createMetrics, createMongo, createRpcClient, ensureIndexes } from "@vulnscan/kit";
import { AuthService, PlanTier } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import Fastify, { type FastifyPluginAsync } from "fastify";
import { buildApp } from "../../gateway/src/app.js";
import { TokenVerifier } from "../../gateway/src/auth/token-verifier.js";
import { gatewayEnvSchema } from "../../gateway/src/config.js";
import { PlanCache } from "../../gateway/src/plans.js";
import { RateLimiter, rateLimitIndexes } from "../../gateway/src/rate-limit.js";
import { createUpstreams } from "../../gateway/src/upstreams.js";
import { ROOT } from "../../scripts/lib/root.js";
import { startStack } from "../../scripts/stack/index.js";
import { startSystem } from "../../scripts/system.js";
import { admin, Api } from "../../test/support/api.js";

const { values } = parseArgs({ options: { duration: { type: "string", default: "10" }, connections: { type: "string", default: "50" } } });
const log = (s: string) => process.stderr.write(`[bench] ${s}\n`);

const stack = await startStack({ log });
const prefix = `bench${Date.now().toString(36)}_`;
const system = await startSystem({
  kafkaBrokers: stack.kafkaBrokers,
  mongoUrl: stack.mongoUrl,
  dbPrefix: prefix,
  logDir: fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-bench-")),
  logLevel: "warn",
});
try {
  const env = { MONGO_URL: stack.mongoUrl, MONGO_DB: `${prefix}auth` };
  const org = admin(["create-org", "--name", "Bench", "--plan", "enterprise"], env);
  admin(["create-user", "--org", org.id, "--email", "bench@example.test", "--password", "benchmark-password-1"], env);
  const auth = createRpcClient(AuthService, system.processes.auth.rpcUrl!);
  // Limits far above what the run can send, so every request is admitted and counted.
  await auth.setPlan({
    orgId: org.id,
    tier: PlanTier.ENTERPRISE,
    customLimits: { requestsPerHour: { max: 100_000_000 }, requestsPerDay: { max: 1_000_000_000 }, concurrentScans: { unlimited: true }, scansPerMonth: { unlimited: true }, webhooks: { unlimited: true }, webhookEventsPerHour: { max: 10_000 }, aiCreditsPerMonth: { max: 5000 }, minCidrPrefixLength: 20 },
  });
  const api = new Api(system.gatewayUrl);
  const token = (await api.token("bench@example.test", "benchmark-password-1")).body.access_token as string;
  const key = (await api.withToken(token).post("/api/v1/auth/api-keys", { name: "bench", permissions: ["read:scans"] })).body.key as string;

  // The bare baseline and the gateway under test, both in this process.
  const bare = Fastify({ logger: false });
  bare.get("/bare", async () => ({ ok: true }));
  await bare.listen({ host: "127.0.0.1", port: 0 });

  const config = gatewayEnvSchema.parse({ ...system.gatewayEnv, LOG_LEVEL: "silent" });
  const mongo = createMongo(stack.mongoUrl, `${prefix}gateway`, "bench");
  await ensureIndexes(mongo.db, rateLimitIndexes);
  const upstreams = createUpstreams(config);
  const verifier = new TokenVerifier(async () => {
    const r = await upstreams.auth.getJwks({});
    return { keys: r.keys, issuer: r.issuer, audience: r.audience, cacheSeconds: r.cacheSeconds };
  });
  const probe: FastifyPluginAsync = async (a) => {
    a.get("/api/v1/bench/echo", { config: { permission: "read:scans" } }, async () => ({ ok: true }));
  };
  const gw = await buildApp({
    config,
    logger: createLogger("bench", "silent"),
    registry: createMetrics("bench").registry,
    upstreams,
    guard: { verifier, limiter: new RateLimiter(mongo.db), plans: new PlanCache(upstreams.auth) },
    plugins: [probe],
  });
  await gw.listen({ host: "127.0.0.1", port: 0 });
  const gwUrl = `http://127.0.0.1:${(gw.server.address() as { port: number }).port}`;
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

  const cases = [
    { name: "bare Fastify route", url: `${bareUrl}/bare`, headers: [] as string[] },
    { name: "gateway, bearer token", url: `${gwUrl}/api/v1/bench/echo`, headers: ["-H", `authorization=Bearer ${token}`] },
    { name: "gateway, API key", url: `${gwUrl}/api/v1/bench/echo`, headers: ["-H", `x-api-key=${key}`] },
  ];
  const results: { name: string; rps: number; p50: number; p99: number; non2xx: number }[] = [];
  for (const c of cases) {
    log(`${c.name}: ${values.duration}s, ${values.connections} connections`);
    // Asynchronous on purpose: the servers under test run in this process's event loop.
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn(path.join(ROOT, "node_modules/.bin/autocannon"), ["-j", "-c", values.connections!, "-d", values.duration!, ...c.headers, c.url]);
      let text = "";
      child.stdout.on("data", (d: Buffer) => (text += d.toString()));
      child.once("error", reject);
      child.once("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`autocannon exited ${code}`))));
    });
    const out = JSON.parse(stdout) as { requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number };
    results.push({ name: c.name, rps: out.requests.average, p50: out.latency.p50, p99: out.latency.p99, non2xx: out.non2xx });
  }
  const base = results[0]!;
  console.log(`\nGateway benchmark (${os.cpus().length} cores, ${values.connections} connections, ${values.duration} s each, autocannon ${"8.0.0"})`);
  console.log("case                      req/s     p50 ms   p99 ms   non-2xx   req/s vs bare   p99 vs bare");
  for (const r of results) {
    console.log(
      `${r.name.padEnd(24)} ${r.rps.toFixed(0).padStart(7)} ${r.p50.toFixed(1).padStart(9)} ${r.p99.toFixed(1).padStart(8)} ${String(r.non2xx).padStart(9)} ${(r.rps / base.rps).toFixed(3).padStart(15)} ${(r.p99 / Math.max(base.p99, 1)).toFixed(1).padStart(13)}x`,
    );
  }
  await gw.close();
  await bare.close();
  await mongo.close();
} finally {
  await system.stop();
  await stack.stop();
}
