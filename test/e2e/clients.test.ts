import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startReceiver, type Receiver } from "../../examples/webhook-receiver/receiver.js";
import { ROOT } from "../../scripts/lib/root.js";
import { startSystem, type RunningSystem } from "../../scripts/system.js";
import { startLab, type Lab } from "../lab/lab.js";
import { admin, Api } from "../support/api.js";
import { unique } from "../support/names.js";
import { selfSignedCertificates } from "../support/tls.js";
import { labSystemEnv } from "../support/system-env.js";

/*
 * The client libraries (clients/), installed the way a user installs them — a virtualenv with
 * pip for Python, `go build` for Go, the npm workspace (built with tsc) for TypeScript — each
 * running the same tour (clients/<language>/examples) against a started system and the lab:
 * sign in, scan, wait, page through the findings, triage one, export CSV, read a typed error,
 * verify a webhook delivery the system sent. Each tour prints what it saw; the test checks it
 * against the API.
 */

const PASSWORD = "correct horse battery staple";
const SECRET = "e2e-clients-webhook-secret";
const CLIENTS = path.join(ROOT, "clients");

let system: RunningSystem;
let lab: Lab;
let receiver: Receiver;
let api: Api;
let email: string;
let work: string;
let deliveryFile: string;
let deliveryId: string;

function sh(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const r = spawnSync(cmd, args, { encoding: "utf8", cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** `pip install clients/python` into a virtualenv, reused while the library's files are unchanged. */
function pythonWithClient(): string {
  const hash = createHash("sha256");
  for (const f of sh("git", ["ls-files", "clients/python"]).split("\n").filter(Boolean).sort()) hash.update(f).update(fs.readFileSync(path.join(ROOT, f)));
  hash.update(spawnSync("python3", ["--version"], { encoding: "utf8" }).stdout);
  const dir = path.join(ROOT, "node_modules", ".cache", "vulnscan-python-client", hash.digest("hex").slice(0, 12));
  const bin = path.join(dir, "bin", "python");
  if (fs.existsSync(path.join(dir, ".ready"))) return bin;
  fs.rmSync(dir, { recursive: true, force: true });
  sh("python3", ["-m", "venv", dir]);
  // A copy: building from the work tree would leave build/ and *.egg-info behind in it.
  const src = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-python-client-"));
  fs.cpSync(path.join(CLIENTS, "python"), src, { recursive: true });
  sh(bin, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", src]);
  fs.rmSync(src, { recursive: true, force: true });
  fs.writeFileSync(path.join(dir, ".ready"), "");
  return bin;
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-e2e-clients-"));
  lab = await startLab({ realServers: false });
  const tls = selfSignedCertificates(work, "127.0.0.2");
  receiver = await startReceiver({ host: "127.0.0.2", key: tls.key, cert: tls.cert, secret: SECRET });
  const prefix = `${unique("e2eclients")}_`;
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir: work,
    logLevel: "warn",
    env: labSystemEnv({ scanNetworks: lab.allowedNetworks, receiverCa: tls.ca }),
  });
  const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  const org = admin(["create-org", "--name", `clients ${unique("org")}`, "--plan", "enterprise"], env);
  email = `${unique("clients")}@example.test`.toLowerCase();
  admin(["create-user", "--org", org.id, "--email", email, "--password", PASSWORD], env);
  const token = await new Api(system.gatewayUrl).token(email, PASSWORD);
  api = new Api(system.gatewayUrl).withToken(token.body.access_token);

  // One real signed delivery for the tours to verify: the webhook's test event.
  const hook = await api.post("/api/v1/webhooks", { name: "clients", url: `${receiver.url}/hooks`, events: ["scan.completed"], secret: SECRET });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  expect((await api.post(`/api/v1/webhooks/${hook.body.id}/test`, {})).body.status).toBe("success");
  const got = await waitFor("the test delivery", () => receiver.requests[0]);
  deliveryId = got.id;
  deliveryFile = path.join(work, "delivery.json");
  fs.writeFileSync(deliveryFile, JSON.stringify({ body: got.body, headers: got.headers }));
}, 300_000);

afterAll(async () => {
  await system?.stop();
  await lab?.stop();
  await receiver?.close();
});

const tourEnv = () => ({
  ...process.env,
  VULNSCAN_URL: system.gatewayUrl,
  VULNSCAN_EMAIL: email,
  VULNSCAN_PASSWORD: PASSWORD,
  TARGET: lab.weak.address,
  PORTS: lab.weak.ports.join(","),
  WEBHOOK_FILE: deliveryFile,
  WEBHOOK_SECRET: SECRET,
  PYTHONDONTWRITEBYTECODE: "1",
});

/** What each tour prints, checked against the API. */
async function expectTour(out: string, language: string) {
  const lines = out.trim().split("\n");
  const seen = JSON.parse(lines[lines.length - 1]!);
  console.log(`[clients] ${language}: ${lines[lines.length - 1]}`);
  expect(seen.language).toBe(language);
  expect(seen.status).toBe("completed");
  const listed = await api.get(`/api/v1/findings?scan_id=${seen.scan_id}&per_page=1`);
  // The lab's weak host has several findings: with two per page, the tour followed several pages.
  expect(listed.body.total).toBeGreaterThan(2);
  expect(seen.findings).toBe(listed.body.total);
  expect(seen.updated.status).toBe("in_progress");
  expect((await api.get(`/api/v1/findings/${seen.updated.id}`)).body.status).toBe("in_progress");
  expect(seen.csv_lines).toBeGreaterThanOrEqual(listed.body.total + 1);
  expect(seen.not_found).toBe("NOT_FOUND");
  expect(seen.webhook).toEqual({ id: deliveryId, event: "webhook.test", tampered: "refused" });
}

describe("client libraries, installed as a user would, run the same tour against the stack", () => {
  it("TypeScript (the npm workspace, built with tsc)", async () => {
    sh("npm", ["run", "build", "-w", "clients/typescript"]);
    await expectTour(sh(path.join(ROOT, "node_modules/.bin/tsx"), [path.join(CLIENTS, "typescript/examples/tour.ts")], { env: tourEnv() }), "typescript");
  }, 240_000);

  it("Python (pip install into a virtualenv)", async () => {
    const python = pythonWithClient();
    // The hand-written layer's own tests (retries, refresh, pagination, errors, webhooks), against the installed library.
    sh(python, ["-m", "unittest", "discover", "-s", "tests"], { cwd: path.join(CLIENTS, "python"), env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
    await expectTour(sh(python, [path.join(CLIENTS, "python/examples/tour.py")], { env: tourEnv() }), "python");
  }, 240_000);

  it("Go (go build)", async () => {
    const dir = path.join(CLIENTS, "go");
    sh("go", ["vet", "./..."], { cwd: dir });
    sh("go", ["test", "./..."], { cwd: dir });
    const bin = path.join(work, "tour");
    sh("go", ["build", "-o", bin, "./examples/tour"], { cwd: dir });
    await expectTour(sh(bin, [], { env: tourEnv() }), "go");
  }, 240_000);
});
