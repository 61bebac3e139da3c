import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type Deployable, DEPLOYABLES, ensureBuilt, entryOf } from "./lib/build.js";
import { freePort, httpOk, waitUntil } from "./lib/net.js";
import { ROOT } from "./lib/root.js";
import { Supervised } from "./lib/supervisor.js";

export { ROOT };

/** Every deployable, its database and the env var the gateway reads its address from. */
export const SERVICES = [
  { name: "auth", database: "auth", urlEnv: "AUTH_URL", groupEnv: undefined },
  { name: "scan-orchestrator", database: "scans", urlEnv: "SCAN_ORCHESTRATOR_URL", groupEnv: "REPORTS_CONSUMER_GROUP" },
  { name: "scanner", database: "scanner", urlEnv: undefined, groupEnv: "SCANNER_CONSUMER_GROUP" },
  { name: "findings", database: "findings", urlEnv: "FINDINGS_URL", groupEnv: "CONSUMER_GROUP" },
  { name: "grc", database: "grc", urlEnv: "GRC_URL", groupEnv: "CONSUMER_GROUP" },
  { name: "webhook-dispatcher", database: "webhooks", urlEnv: "WEBHOOK_DISPATCHER_URL", groupEnv: "CONSUMER_GROUP" },
] as const;

export type ServiceName = (typeof SERVICES)[number]["name"];

/**
 * Egress allowlists (DESIGN.md §5) for every local run: loopback plus the scan lab's
 * network-namespace range, so nothing a test or a bug does can leave the machine.
 * An operator widens them by setting the variables before `npm start`.
 */
const LAB_NETWORKS = "127.0.0.0/8,::1/128,10.231.0.0/16";
export const LOCAL_SAFETY_ENV = {
  SCAN_ALLOW_PRIVATE_TARGETS: process.env.SCAN_ALLOW_PRIVATE_TARGETS ?? "true",
  SCAN_ALLOWED_NETWORKS: process.env.SCAN_ALLOWED_NETWORKS ?? LAB_NETWORKS,
  // The lab and loopback need no verified target (issue 29); anything wider does.
  SCAN_VERIFIED_NETWORKS: process.env.SCAN_VERIFIED_NETWORKS ?? LAB_NETWORKS,
  WEBHOOK_ALLOW_PRIVATE_URLS: process.env.WEBHOOK_ALLOW_PRIVATE_URLS ?? "true",
  WEBHOOK_ALLOWED_NETWORKS: process.env.WEBHOOK_ALLOWED_NETWORKS ?? LAB_NETWORKS,
};

export interface SystemOptions {
  kafkaBrokers: string;
  mongoUrl: string;
  /** Gateway port; a free one when omitted. */
  gatewayPort?: number;
  /** Prefix of every database name and consumer group, so runs never share data or offsets. */
  dbPrefix?: string;
  logDir: string;
  logLevel?: string;
  /**
   * KAFKA_TOPIC_PREFIX of every process: a system with topics of its own neither reads other
   * systems' records on a shared broker (a new consumer group starts at the beginning, so a late
   * system would otherwise replay every scan job and event of the run) nor is read by them.
   * Whoever talks to its topics from outside (a test's own KafkaBus) passes the same prefix.
   */
  topicPrefix?: string;
  /**
   * The PostgreSQL behind FerretDB when it runs on PostgreSQL (the stack's serviceEnv): every
   * process gets it as FERRETDB_POSTGRESQL_URL, so the kit's ensureIndexes adds the GIN indexes
   * FerretDB's equality filters need. Defaults to the variable of this process.
   */
  ferretdbPostgresqlUrl?: string;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
  /**
   * How many processes start at once, each launched when one before it is ready (auth first, the
   * gateway last). Defaults to the machine's cores: starting all seven at once on two cores made
   * each take 3–5 s to ready for the same total (docs/decisions.md, "Running services").
   */
  startConcurrency?: number;
  /**
   * Restart a process that exits on its own (with back-off), telling `say` (`npm start` does;
   * tests leave it off, so a test that stops a service sees it stay down).
   */
  restart?: { say: (line: string) => void };
  /**
   * What the processes run: the compiled bundles in dist/ (built first when stale; what the
   * image runs) or, for bench/runtime's before-and-after comparison only, the TypeScript through tsx.
   */
  runtime?: Runtime;
}

export type Runtime = "compiled" | "tsx";

/**
 * Node's flags for every deployable: stack traces through the source maps. V8's default young
 * generation stays: `--max-semi-space-size=1` took 15–25 MiB off an idle process but nearly
 * doubled the CPU of a findings list (docs/decisions.md, "Compiled deployables").
 */
export const NODE_FLAGS = ["--enable-source-maps"];

/**
 * `npm start`'s supervisor (package.json "start" says the same) keeps the 1 MiB young
 * generation: it serves no request, so the extra scavenges cost nothing anyone waits for.
 */
export const SUPERVISOR_NODE_FLAGS = [...NODE_FLAGS, "--max-semi-space-size=1"];

/**
 * Environment of every deployable, here and in the image (Dockerfile ENV): glibc's malloc keeps
 * up to eight arenas per core for Node's threads (libuv's pool, V8's platform workers), each
 * holding freed memory; two take a few MiB off every process, more off the supervisor
 * (docs/decisions.md). auth's password hashing (@node-rs/argon2) allocates its 19 MiB of
 * argon2id memory per hash through mimalloc, which returns freed memory only at a later call
 * on the same libuv thread after its purge delay, so an idle auth kept 19 MiB per thread that
 * had hashed (up to 76); a delay of 0 returns it at once, for a few ms of page faults per hash.
 * glibc raises its mmap threshold (from 128 KiB up to 32 MiB) each time a mapped block is freed,
 * after which large blocks come from the heap and leave holes it never returns: a fixed
 * threshold keeps blocks of 128 KiB and more mapped and given back when freed (3-5 MiB less
 * per idle process). An operator's own value wins.
 */
export const DEPLOYABLE_ENV: Record<string, string> = {
  MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
  MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? "131072",
  MIMALLOC_PURGE_DELAY: process.env.MIMALLOC_PURGE_DELAY ?? "0",
};

/** The command line (after `node`) that runs a deployable. */
export function deployableArgs(name: Deployable, runtime: Runtime = "compiled"): string[] {
  return runtime === "compiled" ? [...NODE_FLAGS, entryOf(name)] : ["--import", "tsx", path.join(ROOT, DEPLOYABLES[name])];
}

export interface ProcessInfo {
  name: string;
  /** The running process (a new one after a restart). */
  readonly pid: number;
  /** Milliseconds from its spawn to its first ready answer (admin /readyz). */
  readyMs?: number;
  rpcUrl?: string;
  adminUrl: string;
  logFile: string;
}

export interface RunningSystem {
  gatewayUrl: string;
  processes: Record<ServiceName | "gateway", ProcessInfo>;
  /** Env the gateway was started with (upstream addresses, database), for extra replicas. */
  gatewayEnv: Record<string, string>;
  /** Starts one more gateway replica on the same upstreams and database (stopped by stop()). */
  startGateway(): Promise<{ url: string; stop(): Promise<void> }>;
  stop(): Promise<void>;
  /** The topics created before the services started (none when the cluster had them) and how long it took. */
  topics: ProvisionedTopics;
}

export interface ProvisionedTopics {
  created: string[];
  ms: number;
}

/**
 * Every topic the services use, created before they start (scripts/provision-topics.ts, a process
 * of its own: the caller, such as `npm start`'s supervisor, never loads kafkajs).
 */
async function provisionTopics(runtime: Runtime, env: Record<string, string>): Promise<ProvisionedTopics> {
  const { stdout } = await promisify(execFile)(process.execPath, deployableArgs("provision-topics", runtime), { cwd: ROOT, env: { ...process.env, ...env } });
  // Its answer is its last line.
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as ProvisionedTopics;
}

/**
 * Every process is its own process group, as the stack's servers are (scripts/stack/process.ts):
 * a terminal's Ctrl-C reaches only the supervisor, which then stops them in order instead of
 * all at once (and never mistakes their exit for a crash).
 */
function launch(name: Deployable, runtime: Runtime, env: Record<string, string>, logFile: string): ChildProcess {
  const out = fs.openSync(logFile, "a");
  const child = spawn(process.execPath, deployableArgs(name, runtime), {
    cwd: ROOT,
    env: { ...process.env, ...DEPLOYABLE_ENV, ...env },
    stdio: ["ignore", out, out],
    detached: true,
  });
  fs.closeSync(out);
  child.once("error", (err) => fs.appendFileSync(logFile, `spawn failed: ${err.message}\n`));
  return child;
}

/** Runs `start` for each entry in order, at most `concurrency` at a time; the first failure stops further launches. */
async function startInTurn<T>(entries: T[], concurrency: number, start: (entry: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < entries.length)
      await start(entries[next++]!).catch((err) => {
        failed = true;
        throw err;
      });
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, entries.length)) }, worker));
}

function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/** Starts every service and the gateway as their own processes and waits until all answer ready. */
export async function startSystem(opts: SystemOptions): Promise<RunningSystem> {
  fs.mkdirSync(opts.logDir, { recursive: true });
  const runtime = opts.runtime ?? "compiled";
  if (runtime === "compiled") await ensureBuilt();
  const children: Supervised[] = [];
  const killAll = () => {
    for (const c of children) c.kill();
  };
  const supervise = (name: string, start: () => ChildProcess) => {
    const s = new Supervised(start, { name, restart: opts.restart !== undefined, say: opts.restart?.say });
    children.push(s);
    return s;
  };
  // Launched in order by startInTurn below; the pid getter reads the supervisor once it exists.
  const pending: { info: ProcessInfo; start: () => ChildProcess; supervised?: Supervised }[] = [];
  const plan = (fields: Omit<ProcessInfo, "pid">, start: () => ChildProcess): ProcessInfo => {
    const entry: (typeof pending)[number] = {
      info: {
        ...fields,
        get pid() {
          return entry.supervised?.child.pid ?? -1;
        },
      },
      start,
    };
    pending.push(entry);
    return entry.info;
  };
  process.once("exit", killAll);

  const processes = {} as RunningSystem["processes"];
  const pgUrl = opts.ferretdbPostgresqlUrl ?? process.env.FERRETDB_POSTGRESQL_URL;
  const common = {
    KAFKA_BROKERS: opts.kafkaBrokers,
    ...(opts.topicPrefix ? { KAFKA_TOPIC_PREFIX: opts.topicPrefix } : {}),
    MONGO_URL: opts.mongoUrl,
    HOST: "127.0.0.1",
    LOG_LEVEL: opts.logLevel ?? "info",
    ...LOCAL_SAFETY_ENV,
    ...(pgUrl ? { FERRETDB_POSTGRESQL_URL: pgUrl } : {}),
    ...opts.env,
  };
  const gatewayEnv: Record<string, string> = {};
  try {
    // Ports first, so every process learns every upstream address (services call auth too).
    const ports = new Map<string, { rpc: number; admin: number }>();
    for (const svc of SERVICES) ports.set(svc.name, { rpc: await freePort(), admin: await freePort() });
    for (const svc of SERVICES) if (svc.urlEnv) gatewayEnv[svc.urlEnv] = `http://127.0.0.1:${ports.get(svc.name)!.rpc}`;
    for (const svc of SERVICES) {
      const { rpc: rpcPort, admin: adminPort } = ports.get(svc.name)!;
      const logFile = path.join(opts.logDir, `${svc.name}.log`);
      // Fixed at first launch: a restart gets the same ports and upstreams.
      const env = {
        ...common,
        ...gatewayEnv,
        RPC_PORT: String(rpcPort),
        ADMIN_PORT: String(adminPort),
        MONGO_DB: `${opts.dbPrefix ?? ""}${svc.database}`,
        // A prefixed run (tests on a shared broker) also gets consumer groups of its own, so it
        // neither steals another system's records nor inherits its offsets.
        ...(opts.dbPrefix && svc.groupEnv ? { [svc.groupEnv]: `${opts.dbPrefix}${svc.name}` } : {}),
      };
      processes[svc.name] = plan({ name: svc.name, rpcUrl: `http://127.0.0.1:${rpcPort}`, adminUrl: `http://127.0.0.1:${adminPort}`, logFile }, () =>
        launch(svc.name, runtime, env, logFile),
      );
    }
    const gatewayPort = opts.gatewayPort ?? (await freePort());
    const gatewayAdmin = await freePort();
    const gatewayLog = path.join(opts.logDir, "gateway.log");
    Object.assign(gatewayEnv, common, { MONGO_DB: `${opts.dbPrefix ?? ""}gateway` });
    const gatewayOwnEnv = { ...gatewayEnv, PORT: String(gatewayPort), ADMIN_PORT: String(gatewayAdmin) };
    processes.gateway = plan({ name: "gateway", adminUrl: `http://127.0.0.1:${gatewayAdmin}`, logFile: gatewayLog }, () =>
      launch("gateway", runtime, gatewayOwnEnv, gatewayLog),
    );
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;

    const timeoutMs = opts.readyTimeoutMs ?? 120_000;
    // On a new cluster the broker creates them in one request while nothing else starts (about
    // 0.2 s, and 1.5 s until their leaders serve them) instead of under seven starting processes,
    // each then waiting a second or more for its own.
    const topics = await provisionTopics(runtime, common);
    await startInTurn(pending, opts.startConcurrency ?? os.availableParallelism(), async (entry) => {
      const p = entry.info;
      const child = supervise(p.name, entry.start);
      entry.supervised = child;
      await waitUntil(() => httpOk(`${p.adminUrl}/readyz`), {
        timeoutMs,
        // Polled often enough that readyMs measures the process, not the poll.
        intervalMs: 50,
        what: p.name,
        failIf: () => (child.child.exitCode !== null ? `exited with code ${child.child.exitCode}` : undefined),
      }).catch((err: Error) => {
        throw new Error(`${err.message}\n--- ${p.name} log ---\n${tail(p.logFile)}`);
      });
      p.readyMs = Date.now() - child.spawnedAt;
    });
    await waitUntil(() => httpOk(`${gatewayUrl}/api/health`, 3000), { timeoutMs, what: "gateway /api/health" });

    let replicas = 0;
    const startGateway = async () => {
      const [port, admin] = [await freePort(), await freePort()];
      const logFile = path.join(opts.logDir, `gateway-${++replicas}.log`);
      const replicaEnv = { ...gatewayEnv, PORT: String(port), ADMIN_PORT: String(admin) };
      const child = supervise("gateway replica", () => launch("gateway", runtime, replicaEnv, logFile));
      const url = `http://127.0.0.1:${port}`;
      // Ready (admin /readyz) means its view of revocations is loaded, not only that it listens.
      await waitUntil(async () => (await httpOk(`http://127.0.0.1:${admin}/readyz`)) && httpOk(`${url}/api/health`, 3000), {
        timeoutMs,
        what: "extra gateway",
        failIf: () => (child.child.exitCode !== null ? `exited with code ${child.child.exitCode}:\n${tail(logFile)}` : undefined),
      });
      return { url, stop: () => child.stop() };
    };

    return {
      gatewayUrl,
      processes,
      gatewayEnv,
      startGateway,
      topics,
      stop: async () => {
        process.removeListener("exit", killAll);
        for (const c of children) c.hold();
        // The reverse of the start: the gateways (started last) first, so no new requests
        // arrive while the services drain; then the services, together (one after another
        // took 30 s: each waits out its consumer group's leave).
        const services = children.slice(0, SERVICES.length);
        await Promise.all(children.slice(SERVICES.length).map((c) => c.stop()));
        await Promise.all(services.reverse().map((c) => c.stop()));
      },
    };
  } catch (err) {
    killAll();
    throw err;
  }
}
