// `npm run test:fuzz`: schemathesis against the whole system on a fresh local stack. It fuzzes
// every operation of the served /openapi.json (positive and negative data, all checks, a fixed
// number of examples per operation) as an Enterprise user, re-logging in when an operation
// ends its own session (scripts/fuzz/vulnscan_auth.py), prints schemathesis' summary and exits
// with its code. Not part of `npm test`: it takes minutes.
//
// Egress (DESIGN.md §5): scan targets and webhook URLs are limited to one loopback address
// nothing of ours listens on, so whatever the fuzzer asks to scan or deliver to stays on the machine.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Api, admin } from "../test/support/api.js";
import { ensureSchemathesis } from "./fuzz/schemathesis.js";
import { cacheDir, startStack, type StackHandle } from "./stack/index.js";
import { ROOT, startSystem, type RunningSystem } from "./system.js";

/** Test cases per operation and phase; 2 cores finish the run in a few minutes. */
const MAX_EXAMPLES = Number(process.env.FUZZ_MAX_EXAMPLES ?? 20);
const FUZZ_NETWORK = "127.0.0.3/32";

const log = (line: string) => process.stdout.write(`[fuzz] ${line}\n`);

let stack: StackHandle | undefined;
let system: RunningSystem | undefined;
let stopping = false;

async function stopAll(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await system?.stop().catch((err) => log(`stopping services: ${err}`));
  await stack?.stop().catch((err) => log(`stopping stack: ${err}`));
}

/** Enterprise organization and user made with the operator CLI, rate limits raised for the run. */
function createAccount(mongoUrl: string): { email: string; password: string } {
  const env = { MONGO_URL: mongoUrl, MONGO_DB: "auth" };
  const org = admin(["create-org", "--name", "Fuzzing", "--plan", "enterprise"], env);
  // The fuzzer sends thousands of requests within the hour; the rate limiter is not under test here.
  admin(["set-limits", "--org", org.id, "--requests-per-hour", "10000000", "--requests-per-day", "10000000"], env);
  const email = "fuzzer@fuzz.vulnscan.test";
  const password = randomBytes(18).toString("base64url");
  admin(["create-user", "--org", org.id, "--email", email, "--password", password], env);
  return { email, password };
}

/** The served document (behind authentication, as the spec says), saved for schemathesis to read. */
interface SignedIn {
  api: Api;
  token: string;
}

async function fetchOpenApi(gatewayUrl: string, account: { email: string; password: string }, file: string): Promise<SignedIn> {
  const api = new Api(gatewayUrl);
  const login = await api.token(account.email, account.password);
  if (login.status !== 200) throw new Error(`login as ${account.email} answered ${login.status}: ${JSON.stringify(login.body)}`);
  const token = login.body.access_token;
  const doc = await api.withToken(token).get("/openapi.json");
  if (doc.status !== 200) throw new Error(`/openapi.json answered ${doc.status}`);
  fs.writeFileSync(file, JSON.stringify(doc.body, null, 2));
  return { api: api.withToken(token), token };
}

/**
 * Resources the fuzzer cannot make itself (its targets and URLs are refused by the allowlist,
 * its uploads rarely land on a real control): a webhook to a closed loopback port, a scan of one
 * loopback port, a schedule, evidence and an audit request. Their ids are offered for the path
 * parameters half of the time (the other half stays generated), so the operations on one
 * resource (webhook test, deliveries, cancel, download...) run past their 404.
 */
async function seedResources({ api, token }: SignedIn): Promise<Record<string, string>> {
  const ok = async (what: string, res: Promise<{ status: number; body: { id?: string } }>) => {
    const r = await res;
    if (r.status !== 201 || !r.body.id) throw new Error(`seeding ${what} answered ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body.id;
  };
  const target = FUZZ_NETWORK.split("/")[0]!;
  const controls = await api.get<{ items: { id: string }[] }>("/api/v1/controls?per_page=1");
  const controlId = controls.body.items[0]?.id;
  if (!controlId) throw new Error(`no control to seed evidence on: ${controls.status}`);
  const form = new FormData();
  form.append("file", new Blob(["fuzzing evidence\n"], { type: "text/plain" }), "evidence.txt");
  const evidence = fetch(`${api.baseUrl}/api/v1/controls/${controlId}/evidence`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as { id?: string } }));
  return {
    webhook_id: await ok("a webhook", api.post("/api/v1/webhooks", { name: "fuzz", url: `https://${target}:9/hook`, events: ["scan.completed"] })),
    scan_id: await ok("a scan", api.post("/api/v1/scans", { target, ports: "9", authorized: true })),
    schedule_id: await ok("a schedule", api.post("/api/v1/scans/schedules", { target, ports: "9", frequency: "daily", hour: 3, timezone: "UTC" })),
    control_id: controlId,
    evidence_id: await ok("evidence", evidence),
    audit_request_id: await ok("an audit request", api.post("/api/v1/audit-requests", { framework: "soc2", title: "fuzz", control_ids: [controlId] })),
  };
}

/** The checked-in configuration plus this run's seeded ids, as the file schemathesis reads. */
function writeConfig(file: string, ids: Record<string, string>): void {
  const lines = [fs.readFileSync(path.join(ROOT, "scripts", "fuzz", "schemathesis.toml"), "utf8"), "", "# Seeded by scripts/fuzz.ts for this run."];
  for (const [name, id] of Object.entries(ids)) lines.push(`[dictionaries.${name}]`, `values = [${JSON.stringify(id)}]`);
  lines.push("[parameters]");
  for (const name of Object.keys(ids)) lines.push(`"path.${name}" = { dictionary = "${name}", probability = 0.5 }`);
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
}

function runSchemathesis(bin: string, gatewayUrl: string, account: { email: string; password: string }, reportDir: string): Promise<number> {
  const args = [
    "--config-file",
    path.join(reportDir, "schemathesis.toml"),
    "run",
    path.join(reportDir, "openapi.json"),
    "--url",
    gatewayUrl,
    "--checks",
    "all",
    "--mode",
    "all",
    "--max-examples",
    String(MAX_EXAMPLES),
    "--phases",
    "examples,coverage,fuzzing,stateful",
    // One worker: with two, CPython 3.11's parser raced inside schemathesis' coverage phase
    // ("SystemError: AST constructor recursion depth mismatch"), an error of the tool, not the API.
    "--workers",
    "1",
    "--seed",
    process.env.FUZZ_SEED ?? "20261124",
    "--request-timeout",
    "30",
    "--generation-database",
    "none",
    "--report",
    "junit,ndjson",
    "--report-dir",
    reportDir,
    "--no-color",
  ];
  log(`schemathesis ${args.join(" ")}`);
  return new Promise((resolve, reject) => {
    // schemathesis keeps a crash cache under its working directory; each run starts without one,
    // so a run's outcome depends on this tree alone.
    fs.rmSync(path.join(reportDir, ".schemathesis"), { recursive: true, force: true });
    const child = spawn(bin, args, {
      cwd: reportDir,
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        ...process.env,
        PYTHONPATH: path.join(ROOT, "scripts", "fuzz"),
        SCHEMATHESIS_HOOKS: "vulnscan_auth",
        FUZZ_BASE_URL: gatewayUrl,
        FUZZ_EMAIL: account.email,
        FUZZ_PASSWORD: account.password,
      },
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

process.on("SIGINT", () => void stopAll().then(() => process.exit(130)));
process.on("SIGTERM", () => void stopAll().then(() => process.exit(143)));

let code = 1;
const started = Date.now();
try {
  const bin = await ensureSchemathesis(log);
  stack = await startStack({ log });
  Object.assign(process.env, stack.serviceEnv);
  system = await startSystem({
    kafkaBrokers: stack.kafkaBrokers,
    mongoUrl: stack.mongoUrl,
    logDir: path.join(cacheDir(), "logs", "fuzz"),
    logLevel: process.env.LOG_LEVEL ?? "warn",
    env: {
      SCAN_ALLOWED_NETWORKS: FUZZ_NETWORK,
      SCAN_VERIFIED_NETWORKS: FUZZ_NETWORK,
      WEBHOOK_ALLOWED_NETWORKS: FUZZ_NETWORK,
      // The fuzzer sends wrong credentials to the token endpoint by design (the request examples
      // among them), all from one address, and signs in from that address: login throttling
      // (tested elsewhere) would otherwise lock its own account out mid-run.
      AUTH_LOGIN_SOURCE_MAX_FAILURES: "1000000",
      AUTH_LOGIN_ACCOUNT_MAX_FAILURES: "1000000",
      AUTH_LOGIN_MAX_FAILURES: "1000000",
    },
  });
  log(`system ready at ${system.gatewayUrl} on ${stack.mongoServer}; scan targets and webhook URLs limited to ${FUZZ_NETWORK}`);
  const account = createAccount(stack.mongoUrl);
  const reportDir = path.join(cacheDir(), "fuzz-report");
  fs.mkdirSync(reportDir, { recursive: true });
  const signedIn = await fetchOpenApi(system.gatewayUrl, account, path.join(reportDir, "openapi.json"));
  writeConfig(path.join(reportDir, "schemathesis.toml"), await seedResources(signedIn));
  code = await runSchemathesis(bin, system.gatewayUrl, account, reportDir);
  log(`schemathesis exited with ${code} after ${((Date.now() - started) / 1000).toFixed(0)} s in all; logs in ${path.join(cacheDir(), "logs", "fuzz")}`);
} catch (err) {
  log(`failed: ${(err as Error).stack ?? err}`);
  code = 1;
} finally {
  await stopAll();
}
process.exit(code);
