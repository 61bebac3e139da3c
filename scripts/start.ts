// `npm start`: Kafka, the database, every service and the gateway, on loopback; one ready
// line; Ctrl-C stops everything this started, the reverse of the order it started them.
// It runs compiled (dist/start/main.js, built by `npm start` with the services): a long-lived
// supervisor that does not hold a TypeScript loader or the services' libraries.
import { execFile } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { entryOf } from "./lib/build.js";
import { clearStackState, writeStackState } from "./lib/stack-state.js";
import { cacheDir, startStack, type StackHandle } from "./stack/index.js";
import { buildConsole } from "./lib/web.js";
import { LOCAL_SAFETY_ENV, NODE_FLAGS, ROOT, startSystem, type RunningSystem } from "./system.js";

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
// The services are process groups of their own (they do not see the terminal's signals):
// a closed terminal stops them through this process too.
process.on("SIGHUP", () => void shutdown(0));

interface DemoAccount {
  plan: string;
  orgId: string;
  email: string;
  password: string;
}

/** Demo organizations (one per plan) with fresh passwords, seeded by a process of its own (scripts/seed-demo.ts). */
async function seedDemoAccounts(mongoUrl: string): Promise<DemoAccount[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [...NODE_FLAGS, entryOf("seed-demo"), mongoUrl], { cwd: ROOT, env: process.env });
  return JSON.parse(stdout) as DemoAccount[];
}

try {
  if (await portInUse(port)) throw new Error(`port ${port} is already in use; set PORT to another port`);
  const started = Date.now();
  // The gateway serves the console from web/dist: build it when missing or older than its sources.
  if (buildConsole()) log("built the web console (web/dist)");
  // VULNSCAN_HOME: a second `npm start` beside the usual one (its own data and logs; the stop
  // test uses it); the servers' installs stay in the shared cache.
  const home = process.env.VULNSCAN_HOME ? path.resolve(process.env.VULNSCAN_HOME) : cacheDir();
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
    // tsx only for bench/runtime's before-and-after comparison.
    runtime: process.env.VULNSCAN_RUNTIME === "tsx" ? "tsx" : "compiled",
  });
  const { topics } = system;
  if (topics.created.length > 0) log(`created ${topics.created.length} Kafka topics (dead-letter topics included) in ${(topics.ms / 1000).toFixed(1)} s`);
  log(`service logs: ${path.join(home, "logs")}`);
  log(
    `ready in: ${Object.values(system.processes)
      .map((p) => `${p.name} ${((p.readyMs ?? 0) / 1000).toFixed(1)} s (pid ${p.pid})`)
      .join(", ")}`,
  );
  // Demo organizations (one per plan) with fresh passwords each start, so the printed ones work.
  const accounts = await seedDemoAccounts(stack.mongoUrl);
  for (const a of accounts) log(`demo ${a.plan.padEnd(12)} org ${a.orgId}  login ${a.email} / ${a.password}`);
  log(
    `scan targets and webhook URLs are limited to ${LOCAL_SAFETY_ENV.SCAN_ALLOWED_NETWORKS} ` +
      `(private targets allowed for the local lab); set SCAN_ALLOWED_NETWORKS / WEBHOOK_ALLOWED_NETWORKS to widen`,
  );
  const demo = accounts.find((a) => a.plan === "professional") ?? accounts[0];
  // Lets other commands on this machine (npm run admin, the benchmarks) find this stack; a
  // second stack (VULNSCAN_HOME) does not take the usual one's place.
  if (!process.env.VULNSCAN_HOME)
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
