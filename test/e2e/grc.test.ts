import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ComplianceMap, FRAMEWORK_IDS } from "@vulnscan/compliance-catalogue";
import { createLogger, KafkaBus, pendingEvent, Topics } from "@vulnscan/kit";
import { EventEnvelopeSchema, type EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { DetectionSchema } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import { Severity } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort, httpOk, waitUntil } from "../../scripts/lib/net.js";
import { ROOT, startSystem, type RunningSystem, deployableArgs } from "../../scripts/system.js";
import { admin, Api } from "../support/api.js";
import { unique } from "../support/names.js";

/*
 * Compliance through the gateway against the real stack: controls and their permissions, findings
 * (real detections through Kafka and the findings service) turning controls failing and back,
 * evidence with the real clamd (EICAR quarantined), audit requests, compliance scans as evidence,
 * and the expiry job running once with two grc replicas.
 */

const PASSWORD = "correct horse battery staple";
const EICAR = "X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*";
const DAY = 24 * 3600_000;

let system: RunningSystem;
let prefix: string;
let api: Api;
let bus: KafkaBus;
let replica: ChildProcess | undefined;
const grcEvents: EventEnvelope[] = [];
let a: { orgId: string; token: string; api: Api };
let b: { orgId: string; token: string; api: Api };

function account(plan: string) {
  const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  const org = admin(["create-org", "--name", unique("grc"), "--plan", plan], env);
  const email = `${unique("grc")}@example.test`.toLowerCase();
  admin(["create-user", "--org", org.id, "--email", email, "--password", PASSWORD], env);
  return { orgId: org.id, email };
}

async function login(plan: string) {
  const acct = account(plan);
  const res = await api.token(acct.email, PASSWORD);
  expect(res.status).toBe(200);
  return { orgId: acct.orgId, token: res.body.access_token as string, api: api.withToken(res.body.access_token) };
}

async function eventually<T>(fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error("not seen in time");
    await new Promise((r) => setTimeout(r, 200));
  }
}

const eventsOf = (orgId: string, type: string) => grcEvents.filter((e) => e.orgId === orgId && e.type === type);

function upload(client: Api, controlId: string, content: string | Uint8Array, fields: Record<string, string> = {}, name = "evidence.txt") {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new Blob([content], { type: "text/plain" }), name);
  return rawRequest(client, "POST", `/api/v1/controls/${controlId}/evidence`, form);
}

async function rawRequest(client: Api, method: string, p: string, body?: FormData) {
  const headers: Record<string, string> = {};
  const auth = (client as unknown as { auth: { token?: string; apiKey?: string } }).auth;
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  if (auth.apiKey) headers["x-api-key"] = auth.apiKey;
  const res = await fetch(`${client.baseUrl}${p}`, { method, headers, body });
  const buf = Buffer.from(await res.arrayBuffer());
  const json = (res.headers.get("content-type") ?? "").includes("application/json") ? JSON.parse(buf.toString("utf8")) : undefined;
  return { status: res.status, headers: res.headers, body: json, bytes: buf };
}

/** Starts one more grc process on the same database, topics and consumer group. */
async function startGrcReplica(env: Record<string, string>): Promise<ChildProcess> {
  const [rpc, adminPort] = [await freePort(), await freePort()];
  const log = fs.openSync(path.join(os.tmpdir(), `${prefix}grc-2.log`), "a");
  const child = spawn(process.execPath, deployableArgs("grc"), {
    cwd: ROOT,
    env: { ...process.env, ...env, RPC_PORT: String(rpc), ADMIN_PORT: String(adminPort) },
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  await waitUntil(() => httpOk(`http://127.0.0.1:${adminPort}/readyz`), { timeoutMs: 120_000, what: "second grc replica" });
  return child;
}

const grcEnv = () => ({
  KAFKA_BROKERS: inject("kafkaBrokers"),
  KAFKA_TOPIC_PREFIX: prefix,
  MONGO_URL: inject("mongoUrl"),
  HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
  MONGO_DB: `${prefix}grc`,
  CONSUMER_GROUP: `${prefix}grc`,
  EVIDENCE_EXPIRY_INTERVAL_MS: "1000",
  EVIDENCE_RESCAN_INTERVAL_MS: "1000",
});

beforeAll(async () => {
  prefix = `${unique("e2egrc")}_`;
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir: fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-e2e-grc-")),
    logLevel: "warn",
    env: { EVIDENCE_EXPIRY_INTERVAL_MS: "1000", EVIDENCE_RESCAN_INTERVAL_MS: "1000" },
  });
  api = new Api(system.gatewayUrl);
  bus = new KafkaBus({ clientId: unique("e2e-grc"), brokers: [inject("kafkaBrokers")], topicPrefix: prefix, logger: createLogger("e2e", "silent") });
  await bus.subscribe({
    groupId: unique("e2e-grc-events"),
    topic: Topics.grcEvents,
    schema: EventEnvelopeSchema,
    fromBeginning: true,
    handle: async (e) => {
      grcEvents.push(e);
    },
  });
  [a, b] = [await login("enterprise"), await login("enterprise")];
  replica = await startGrcReplica(grcEnv());
}, 240_000);

afterAll(async () => {
  replica?.kill("SIGTERM");
  await bus?.close();
  await system?.stop();
});

describe("controls", () => {
  it("lists every control of the organization in the spec's envelope, filtered and paged", async () => {
    const res = await a.api.get("/api/v1/controls");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 794, page: 1, per_page: 20, pages: 40 });
    expect(res.body.items).toHaveLength(20);
    expect(res.body.items[0]).toMatchObject({
      id: expect.stringMatching(/^ctrl_[0-9a-f]{28}$/),
      name: expect.any(String),
      status: "not_started",
      frameworks: ["soc2"],
      evidence_count: 0,
    });
    const pci = await a.api.get("/api/v1/controls?framework=pci_dss&per_page=100&page=1");
    expect(pci.body.items.every((c: { frameworks: string[] }) => c.frameworks[0] === "pci_dss")).toBe(true);
    // Each control says what it asks for in our words (the catalogue's requirements.json), in the list and on its page.
    const patches = pci.body.items.find((c: { framework_refs: { control_ref: string }[] }) => c.framework_refs[0]?.control_ref === "6.3.3");
    expect(patches.requirement).toMatch(/^Security patches are installed in time/);
    expect((await a.api.get(`/api/v1/controls/${patches.id}`)).body.requirement).toBe(patches.requirement);
    const bad = await a.api.get("/api/v1/controls?framework=sox");
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error_code: "VALIDATION_ERROR", field: "framework" });
    expect((await a.api.get("/api/v1/controls?per_page=101")).status).toBe(422);
  });

  it("updates status, owner and notes; the framework score follows", async () => {
    const list = await a.api.get("/api/v1/controls?framework=gdpr&per_page=1");
    const id = list.body.items[0].id as string;
    const res = await a.api.patch(`/api/v1/controls/${id}`, { status: "implemented", owner: "dpo@example.test", notes: "Reviewed" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: "implemented", set_status: "implemented", owner: "dpo@example.test", notes: "Reviewed" });
    expect((await a.api.patch(`/api/v1/controls/${id}`, { status: "failing" })).status).toBe(422);
    const fw = await a.api.get("/api/v1/frameworks");
    expect(fw.status).toBe(200);
    expect(fw.body.items.find((f: { id: string }) => f.id === "gdpr")).toMatchObject({ score: 2.9, controls_total: 35, controls_implemented: 1 });
    await eventually(() =>
      eventsOf(a.orgId, "control.status_changed").find((e) => e.payload.case === "controlStatusChanged" && e.payload.value.controlId === id),
    );
    await eventually(() => eventsOf(a.orgId, "framework.score_changed")[0]);
  });
});

describe("findings → controls", () => {
  it("an open high finding turns its mapped controls failing and lowers the score; resolving restores them", async () => {
    // The mapping the scanner applies to a detection, from the shared catalogue.
    const frameworks = (await ComplianceMap.load()).map(["CWE-89"], []);
    const soc2Ref = frameworks.find((f) => f.name === "soc2")!.controls[0]!;
    const soc2 = await a.api.get("/api/v1/controls?framework=soc2&per_page=100");
    const target = soc2.body.items.find((c: { framework_refs: { control_ref: string }[] }) => c.framework_refs[0]!.control_ref === soc2Ref);
    await a.api.patch(`/api/v1/controls/${target.id}`, { status: "implemented" });
    const scoreBefore = (await a.api.get("/api/v1/frameworks")).body.items.find((f: { id: string }) => f.id === "soc2").score as number;
    expect(scoreBefore).toBeGreaterThan(0);

    const d = create(DetectionSchema, {
      detectionId: randomUUID(),
      orgId: a.orgId,
      scanId: `scan_${randomUUID().replaceAll("-", "").slice(0, 28)}`,
      target: "app.example.test",
      templateId: unique("sqli"),
      title: "SQL injection in login",
      severity: Severity.HIGH,
      cvssScore: 8.6,
      cweIds: ["CWE-89"],
      tool: "web",
      affectedComponent: "POST /login",
      frameworks,
      detectedAt: timestampFromDate(new Date()),
      phase: "vulnerability_scanning",
    });
    await bus.publishRaw(Topics.findingsDetected, d.scanId, Buffer.from(toBinary(DetectionSchema, d)), DetectionSchema.typeName);

    const failing = await eventually(async () => {
      const c = await a.api.get(`/api/v1/controls/${target.id}`);
      return c.body.status === "failing" ? c.body : undefined;
    });
    expect(failing).toMatchObject({ set_status: "implemented", open_finding_count: 1 });
    const findingId = failing.finding_ids[0] as string;
    expect((await a.api.get(`/api/v1/findings/${findingId}`)).status).toBe(200);
    const scoreFailing = (await a.api.get("/api/v1/frameworks")).body.items.find((f: { id: string }) => f.id === "soc2");
    expect(scoreFailing.score).toBeLessThan(scoreBefore);
    expect(scoreFailing.controls_failing).toBeGreaterThan(0);
    expect((await a.api.get("/api/v1/controls?status=failing&per_page=100")).body.total).toBeGreaterThanOrEqual(frameworks.length);
    // Organization B sees none of it.
    expect((await b.api.get("/api/v1/controls?status=failing")).body.total).toBe(0);

    expect((await a.api.patch(`/api/v1/findings/${findingId}`, { status: "resolved" })).status).toBe(200);
    await eventually(async () => ((await a.api.get(`/api/v1/controls/${target.id}`)).body.status === "implemented" ? true : undefined));
    expect((await a.api.get("/api/v1/frameworks")).body.items.find((f: { id: string }) => f.id === "soc2").score).toBe(scoreBefore);
    const changes = eventsOf(a.orgId, "control.status_changed").filter(
      (e) => e.payload.case === "controlStatusChanged" && e.payload.value.controlId === target.id,
    );
    await eventually(() => (changes.length >= 3 ? true : undefined));
    expect(changes.map((e) => (e.payload.case === "controlStatusChanged" ? `${e.payload.value.from}>${e.payload.value.to}` : ""))).toEqual([
      "not_started>implemented",
      "implemented>failing",
      "failing>implemented",
    ]);
  });
});

describe("evidence", () => {
  let controlId: string;
  beforeAll(async () => {
    controlId = (await a.api.get("/api/v1/controls?framework=iso27001&per_page=1")).body.items[0].id;
  });

  it("stores a clean upload with its SHA-256, serves it back, counts it, and deletes it", async () => {
    const res = await upload(a.api, controlId, "quarterly access review", { title: "Access review Q1", observed_from: "2026-01-01T00:00:00Z" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      status: "clean",
      name: "evidence.txt",
      title: "Access review Q1",
      size_bytes: 23,
      sha256: createHash("sha256").update("quarterly access review").digest("hex"),
      source: "upload",
      observed_from: "2026-01-01T00:00:00.000Z",
    });
    const dl = await rawRequest(a.api, "GET", `/api/v1/evidence/${res.body.id}/download`);
    expect(dl.status).toBe(200);
    expect(dl.bytes.toString("utf8")).toBe("quarterly access review");
    expect(dl.headers.get("content-disposition")).toBe('attachment; filename="evidence.txt"');
    expect((await a.api.get(`/api/v1/controls/${controlId}`)).body.evidence_count).toBe(1);
    expect((await a.api.get(`/api/v1/evidence?control_id=${controlId}`)).body.items.map((e: { id: string }) => e.id)).toContain(res.body.id);
    await eventually(() =>
      eventsOf(a.orgId, "evidence.uploaded").find((e) => e.payload.case === "evidenceUploaded" && e.payload.value.evidenceId === res.body.id),
    );
    expect((await a.api.delete(`/api/v1/evidence/${res.body.id}`)).status).toBe(204);
    expect((await a.api.get(`/api/v1/evidence/${res.body.id}`)).status).toBe(404);
    expect((await a.api.get(`/api/v1/controls/${controlId}`)).body.evidence_count).toBe(0);
  });

  it("quarantines the EICAR test file with quarantine.threat_detected; it is never downloadable", async () => {
    const res = await upload(a.api, controlId, EICAR, {}, "eicar.com");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "quarantined", threat: expect.stringMatching(/^Eicar-Test-Signature/) });
    const dl = await rawRequest(a.api, "GET", `/api/v1/evidence/${res.body.id}/download`);
    expect(dl.status).toBe(400);
    expect(dl.body).toMatchObject({ error_code: "INVALID_STATE" });
    expect(dl.bytes.toString("utf8")).not.toContain("EICAR");
    const event = await eventually(() =>
      eventsOf(a.orgId, "quarantine.threat_detected").find((e) => e.payload.case === "quarantineThreatDetected" && e.payload.value.evidenceId === res.body.id),
    );
    expect(event.payload.value).toMatchObject({ fileName: "eicar.com", sha256: createHash("sha256").update(EICAR).digest("hex") });
    expect(eventsOf(a.orgId, "evidence.uploaded").some((e) => e.payload.case === "evidenceUploaded" && e.payload.value.evidenceId === res.body.id)).toBe(false);
  });

  it("refuses a missing file, a bad date and an oversized file with the spec's error shape", async () => {
    const form = new FormData();
    form.append("title", "no file");
    const none = await rawRequest(a.api, "POST", `/api/v1/controls/${controlId}/evidence`, form);
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ error_code: "VALIDATION_ERROR", field: "file" });
    const badDate = await upload(a.api, controlId, "x", { expires_at: "tomorrow" });
    expect(badDate.body).toMatchObject({ error_code: "VALIDATION_ERROR", field: "expires_at" });
    const big = await upload(a.api, controlId, new Uint8Array(10 * 1024 * 1024 + 1));
    expect(big.status).toBe(422);
    expect(big.body).toMatchObject({ error_code: "VALIDATION_ERROR", field: "file" });
    const json = await a.api.post(`/api/v1/controls/${controlId}/evidence`, { file: "x" });
    expect(json.status).toBe(400);
  });

  it("announces expiring evidence once even with two grc replicas running the job", async () => {
    const expires = new Date(Date.now() + 10 * DAY).toISOString();
    const res = await upload(a.api, controlId, "policy v3", { expires_at: expires });
    expect(res.status).toBe(201);
    const first = await eventually(() =>
      eventsOf(a.orgId, "evidence.expiring").find((e) => e.payload.case === "evidenceExpiring" && e.payload.value.evidenceId === res.body.id),
    );
    expect(first.payload.value).toMatchObject({ daysRemaining: 9 });
    // Both replicas run the 1 s job several more times: still one event.
    await new Promise((r) => setTimeout(r, 5000));
    expect(
      eventsOf(a.orgId, "evidence.expiring").filter((e) => e.payload.case === "evidenceExpiring" && e.payload.value.evidenceId === res.body.id),
    ).toHaveLength(1);
  });

  it("stores a completed compliance scan as hashed evidence on the controls it tests", async () => {
    const scanId = `scan_${randomUUID().replaceAll("-", "").slice(0, 28)}`;
    const publish = async (init: Parameters<typeof pendingEvent>[2]) => {
      const p = pendingEvent(Topics.scanEvents, scanId, init);
      await bus.publishRaw(Topics.scanEvents, scanId, Buffer.from(p.envelope.buffer), EventEnvelopeSchema.typeName);
    };
    await publish({
      type: "scan.created",
      orgId: a.orgId,
      // Every framework: its evidence names hundreds of controls (once more than a btree row holds on PostgreSQL).
      payload: { case: "scanCreated", value: { scanId, target: "10.0.0.9", scanType: "compliance", status: "pending", frameworks: [...FRAMEWORK_IDS] } },
    });
    await publish({
      type: "scan.completed",
      orgId: a.orgId,
      payload: { case: "scanCompleted", value: { scanId, target: "10.0.0.9", status: "completed", durationSeconds: 42, findings: { total: 0 } } },
    });
    const item = await eventually(async () => {
      const list = await a.api.get("/api/v1/evidence?per_page=100");
      return list.body.items.find((e: { scan_id: string | null }) => e.scan_id === scanId);
    });
    expect(item).toMatchObject({ source: "scan", status: "clean", content_type: "application/json", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(item.control_ids.length).toBeGreaterThan(100);
    const last = item.control_ids.at(-1);
    for (const id of [item.control_ids[0], last]) {
      const control = await eventually(async () => {
        const body = (await a.api.get(`/api/v1/controls/${id}`)).body;
        return body.evidence_count === 1 ? body : undefined;
      });
      expect(control).toMatchObject({ evidence_count: 1, last_tested_at: expect.any(String) });
    }
    const ofControl = await a.api.get(`/api/v1/evidence?control_id=${last}&per_page=100`);
    expect(ofControl.body.items.map((e: { id: string }) => e.id)).toContain(item.id);
    const dl = await rawRequest(a.api, "GET", `/api/v1/evidence/${item.id}/download`);
    expect(createHash("sha256").update(dl.bytes).digest("hex")).toBe(item.sha256);
    await eventually(() => eventsOf(a.orgId, "evidence.uploaded").find((e) => e.payload.case === "evidenceUploaded" && e.payload.value.scanId === scanId));
  });
});

describe("audit requests", () => {
  it("are opened with audit.request_created, listed and answered", async () => {
    const created = await a.api.post("/api/v1/audit-requests", { framework: "soc2", title: "Show MFA enforcement", requested_by: "auditor@firm.test" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^audit_/), status: "open", framework: "soc2", requested_by: "auditor@firm.test" });
    await eventually(() =>
      eventsOf(a.orgId, "audit.request_created").find((e) => e.payload.case === "auditRequestCreated" && e.payload.value.auditRequestId === created.body.id),
    );
    const answered = await a.api.post(`/api/v1/audit-requests/${created.body.id}/answer`, { answer: "Enforced for every user" });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: "closed", answer: "Enforced for every user" });
    expect((await a.api.get("/api/v1/audit-requests?status=closed")).body.items.map((x: { id: string }) => x.id)).toContain(created.body.id);
    expect((await a.api.post("/api/v1/audit-requests", { framework: "sox", title: "x" })).body).toMatchObject({ field: "framework" });
  });
});

describe("OpenAPI", () => {
  it("documents every GRC route, the upload as multipart", async () => {
    const doc = (await a.api.get("/openapi.json")).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/controls",
        "/api/v1/controls/{control_id}",
        "/api/v1/controls/{control_id}/evidence",
        "/api/v1/frameworks",
        "/api/v1/evidence",
        "/api/v1/evidence/{evidence_id}",
        "/api/v1/evidence/{evidence_id}/download",
        "/api/v1/audit-requests",
        "/api/v1/audit-requests/{audit_request_id}",
        "/api/v1/audit-requests/{audit_request_id}/answer",
      ]),
    );
    expect(JSON.stringify(doc.paths["/api/v1/controls/{control_id}/evidence"].post)).toContain("multipart/form-data");
  });
});

describe("permissions and organizations", () => {
  it("enforces read:grc and write:grc for API keys and answers 404 for another organization's ids on every route", async () => {
    const control = (await a.api.get("/api/v1/controls?per_page=1")).body.items[0].id as string;
    const evidence = (await upload(a.api, control, "for the permission checks")).body.id as string;
    const audit = (await a.api.post("/api/v1/audit-requests", { framework: "iso27001", title: "Perm check" })).body.id as string;
    const key = async (permissions: string[]) => api.withApiKey((await a.api.post("/api/v1/auth/api-keys", { name: unique("k"), permissions })).body.key);
    const [none, reader, writer] = [await key(["read:findings"]), await key(["read:grc"]), await key(["read:grc", "write:grc"])];

    const reads = [
      ["GET", "/api/v1/controls"],
      ["GET", `/api/v1/controls/${control}`],
      ["GET", "/api/v1/frameworks"],
      ["GET", "/api/v1/evidence"],
      ["GET", `/api/v1/evidence/${evidence}`],
      ["GET", `/api/v1/evidence/${evidence}/download`],
      ["GET", "/api/v1/audit-requests"],
      ["GET", `/api/v1/audit-requests/${audit}`],
    ] as const;
    const writes = [
      ["PATCH", `/api/v1/controls/${control}`, { owner: "x" }],
      ["POST", `/api/v1/audit-requests/${audit}/answer`, { answer: "x" }],
      ["POST", "/api/v1/audit-requests", { framework: "soc2", title: "x" }],
      ["DELETE", `/api/v1/evidence/${evidence}`, undefined],
    ] as const;
    for (const [method, p] of reads) {
      expect((await none.request(method, p)).status, `${method} ${p} without read:grc`).toBe(403);
      expect((await reader.request(method, p)).status, `${method} ${p} with read:grc`).toBe(200);
    }
    for (const [method, p, body] of writes) expect((await reader.request(method, p, body)).status, `${method} ${p} with read:grc only`).toBe(403);
    expect((await upload(reader, control, "x")).status).toBe(403);
    expect((await upload(writer, control, "by key")).status).toBe(201);

    // Organization B: every id of A is unknown.
    const foreign = [
      ["GET", `/api/v1/controls/${control}`, undefined],
      ["PATCH", `/api/v1/controls/${control}`, { owner: "x" }],
      ["GET", `/api/v1/evidence/${evidence}`, undefined],
      ["GET", `/api/v1/evidence/${evidence}/download`, undefined],
      ["DELETE", `/api/v1/evidence/${evidence}`, undefined],
      ["GET", `/api/v1/evidence?control_id=${control}`, undefined],
      ["GET", `/api/v1/audit-requests/${audit}`, undefined],
      ["POST", `/api/v1/audit-requests/${audit}/answer`, { answer: "x" }],
    ] as const;
    for (const [method, p, body] of foreign) {
      const res = await b.api.request(method, p, body);
      expect(res.status, `${method} ${p} from another organization`).toBe(404);
      expect(res.body.error_code).toBe("NOT_FOUND");
    }
    expect((await upload(b.api, control, "x")).status).toBe(404);
    expect((await b.api.get("/api/v1/evidence")).body.total).toBe(0);
    expect((await b.api.get("/api/v1/audit-requests")).body.total).toBe(0);
    // The writer key's changes succeed, the evidence is still there for A.
    expect((await writer.request("DELETE", `/api/v1/evidence/${evidence}`)).status).toBe(204);
  });
});
