// `npm start`: Kafka, the database, every service and the gateway, on loopback; one ready
// line; Ctrl-C stops everything this started.
import net from "node:net";
import path from "node:path";
import { createMongo } from "@vulnscan/kit";
import { seedDemo } from "@vulnscan/auth/admin";
import { clearStackState, writeStackState } from "./lib/stack-state.js";
import { cacheDir, startStack, type StackHandle } from "./stack/index.js";
import { buildConsole } from "./lib/web.js";
import { LOCAL_SAFETY_ENV, startSystem, type RunningSystem } from "./system.js";

const port = Number(process.env.PORT ?? 8080);
const log = (line: string) => process.stdout.write(`[start] ${line}\n`);

function portInUse(p: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: "127.0.0.1", port: p });
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });
}

let stack: StackHandle | undefined;
let system: RunningSystem | undefined;
let stopping = false;

async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  clearStackState();
  log("stopping…");
  await system?.stop().catch((err) => log(`stopping services: ${err}`));
  await stack?.stop().catch((err) => log(`stopping stack: ${err}`));
  log("stopped");
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

try {
  if (await portInUse(port)) throw new Error(`port ${port} is already in use; set PORT to another port`);
  const started = Date.now();
  // The gateway serves the console from web/dist: build it when missing or older than its sources.
  if (buildConsole()) log("built the web console (web/dist)");
  const home = cacheDir();
  stack = await startStack({ persistent: true, dataDir: path.join(home, "data"), log: (l) => log(l) });
  log(`${stack.kafkaServer} at ${stack.kafkaBrokers}; ${stack.mongoServer} at ${stack.mongoUrl}`);
  // FERRETDB_POSTGRESQL_URL when FerretDB runs on PostgreSQL: the services and the seeding below
  // add the GIN indexes FerretDB's queries need (services/kit/src/ferretdb-pg.ts).
  Object.assign(process.env, stack.serviceEnv);
  system = await startSystem({
    kafkaBrokers: stack.kafkaBrokers,
    mongoUrl: stack.mongoUrl,
    gatewayPort: port,
    logDir: path.join(home, "logs"),
    logLevel: process.env.LOG_LEVEL ?? "info",
    // A process that dies (crash, OOM, kill -9) is said here and started again.
    restart: { say: (line) => log(line) },
  });
  log(`service logs: ${path.join(home, "logs")}`);
  // Demo organizations (one per plan) with fresh passwords each start, so the printed ones work.
  const authDb = createMongo(stack.mongoUrl, "auth", "npm-start");
  const accounts = await seedDemo(authDb.db).finally(() => authDb.close());
  for (const a of accounts) log(`demo ${a.plan.padEnd(12)} org ${a.orgId}  login ${a.email} / ${a.password}`);
  log(
    `scan targets and webhook URLs are limited to ${LOCAL_SAFETY_ENV.SCAN_ALLOWED_NETWORKS} ` +
      `(private targets allowed for the local lab); set SCAN_ALLOWED_NETWORKS / WEBHOOK_ALLOWED_NETWORKS to widen`,
  );
  const demo = accounts.find((a) => a.plan === "professional") ?? accounts[0];
  // Lets other commands on this machine (npm run admin, the benchmarks) find this stack.
  writeStackState({
    mongoUrl: stack.mongoUrl,
    mongoServer: stack.mongoServer,
    kafkaBrokers: stack.kafkaBrokers,
    gatewayUrl: system.gatewayUrl,
    services: Object.fromEntries(Object.values(system.processes).flatMap((p) => (p.rpcUrl ? [[p.name, p.rpcUrl]] : []))),
    dbPrefix: "",
    serviceEnv: stack.serviceEnv,
    pid: process.pid,
    startedAt: new Date().toISOString(),
  });
  log(`database: ${stack.mongoServer}${stack.scaleNote ? ` — ${stack.scaleNote}` : ""}`);
  console.log(
    `vulnscan ready at ${system.gatewayUrl} (web console: ${system.gatewayUrl}/) in ${((Date.now() - started) / 1000).toFixed(1)} s on ${stack.mongoServer} — ` +
      `try: curl -d username=${demo?.email} -d password=${demo?.password} ${system.gatewayUrl}/api/v1/auth/token — Ctrl-C stops everything`,
  );
} catch (err) {
  log(`failed: ${(err as Error).message}`);
  await shutdown(1);
}
