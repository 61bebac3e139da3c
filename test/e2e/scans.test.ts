import { createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toJson } from "@bufbuild/protobuf";
import { createMongo, createLogger, KafkaBus, Topics, type MongoHandle } from "@vulnscan/kit";
import { EventEnvelopeSchema, type EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { VulnerabilityCriticalSchema } from "@vulnscan/proto/vulnscan/events/v1/finding_events_pb.js";
import { ScanCompletedSchema } from "@vulnscan/proto/vulnscan/events/v1/scan_events_pb.js";
import { FULL_PHASES, QUICK_PHASES } from "@vulnscan/scan-contract";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startReceiver, type ReceivedDelivery, type Receiver } from "../../examples/webhook-receiver/receiver.js";
import { startSystem, type RunningSystem } from "../../scripts/system.js";
import { weaknessKey } from "../../services/scanner/src/engine/identity.js";
import { startLab, type Lab } from "../lab/lab.js";
import { admin, Api } from "../support/api.js";
import { unique } from "../support/names.js";
import { selfSignedCertificates } from "../support/tls.js";

/*
 * Scans and findings end to end: every service and the gateway as their own processes on the
 * real Kafka and MongoDB-protocol server, the real scanner against the scan lab (test/lab, in a
 * network namespace when the machine allows it). Customers' view only: the public API, plus the
 * Kafka events an internal consumer would read, the webhook deliveries an HTTPS receiver gets
 * (its own self-signed CA, on 127.0.0.2, the only address the dispatcher may reach) and the
 * compliance controls the findings turn failing.
 */

let system: RunningSystem;
let lab: Lab;
let bus: KafkaBus;
let scansDb: MongoHandle;
let prefix: string;
const events: EventEnvelope[] = [];
const PASSWORD = "correct horse battery staple";
const WEBHOOK_SECRET = "e2e-scans-webhook-secret";
let receiver: Receiver;

interface Account {
  orgId: string;
  api: Api;
}
const accounts = {} as Record<"enterprise" | "professional" | "startup" | "other", Account>;

async function account(plan: string): Promise<Account> {
  const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  const org = admin(["create-org", "--name", `${plan} ${unique("org")}`, "--plan", plan], env);
  const email = `${unique(plan)}@example.test`.toLowerCase();
  admin(["create-user", "--org", org.id, "--email", email, "--password", PASSWORD], env);
  const api = new Api(system.gatewayUrl);
  const res = await api.token(email, PASSWORD);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { orgId: org.id, api: api.withToken(res.body.access_token) };
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 90_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** Polls a scan's detail until it is terminal; returns every snapshot seen. */
async function follow(api: Api, scanId: string, timeoutMs = 180_000) {
  const seen: any[] = [];
  const last = await waitFor(
    `scan ${scanId} to finish`,
    async () => {
      const res = await api.get(`/api/v1/scans/${scanId}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(res.body);
      return TERMINAL.has(res.body.status) ? res.body : undefined;
    },
    timeoutMs,
    150,
  );
  return { seen, last };
}

const scanEvents = (scanId: string) =>
  events.filter((e) => e.type.startsWith("scan.") && (e.payload.value as { scanId?: string } | undefined)?.scanId === scanId);
const findingEvents = (orgId: string, type: string) => events.filter((e) => e.type === type && e.orgId === orgId);

beforeAll(async () => {
  prefix = `${unique("e2escans")}_`;
  lab = await startLab();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-e2e-scans-"));
  const tls = selfSignedCertificates(logDir, "127.0.0.2");
  receiver = await startReceiver({ host: "127.0.0.2", key: tls.key, cert: tls.cert, secret: WEBHOOK_SECRET });
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir,
    logLevel: "warn",
    env: {
      // Webhooks reach the test's receiver only.
      NODE_EXTRA_CA_CERTS: tls.ca,
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32",
      // Only the lab: loopback (explicit ports) and the lab's namespace range.
      SCAN_ALLOWED_NETWORKS: lab.allowedNetworks,
      SCHEDULER_INTERVAL_MS: "500",
      OUTBOX_RELAY_INTERVAL_MS: "300",
      SCANNER_CONCURRENCY: "4",
      SCANNER_HEARTBEAT_MS: "1000",
    },
  });
  bus = new KafkaBus({ clientId: "e2e-scans", brokers: [inject("kafkaBrokers")], topicPrefix: prefix, logger: createLogger("e2e", "silent") });
  for (const topic of [Topics.scanEvents, Topics.findingEvents]) {
    await bus.subscribe({ groupId: unique(`e2e-${topic}`), topic, schema: EventEnvelopeSchema, handle: async (e) => void events.push(e) });
  }
  scansDb = createMongo(inject("mongoUrl"), `${prefix}scans`, "e2e");
  accounts.enterprise = await account("enterprise");
  accounts.professional = await account("professional");
  accounts.startup = await account("startup");
  accounts.other = await account("enterprise");
}, 300_000);

afterAll(async () => {
  await bus?.close();
  await scansDb?.close();
  await system?.stop();
  await lab?.stop();
  await receiver?.close();
});

/** The deliveries of one event kind the receiver accepted (its spec signature check passed), parsed, one per delivery id. */
function delivered(event: string) {
  const byId = new Map<string, ReceivedDelivery & { json: any }>();
  for (const d of receiver.requests) if (d.event === event && !byId.has(d.id)) byId.set(d.id, { ...d, json: JSON.parse(d.body) });
  return [...byId.values()];
}

/** Verifies a delivery independently of the receiver: the spec's HMAC and a Standard Webhooks library. */
function verifySignatures(d: ReceivedDelivery) {
  expect(d.headers["x-service-signature"]).toBe(`sha256=${createHmac("sha256", WEBHOOK_SECRET).update(d.body).digest("hex")}`);
  expect(new StandardWebhook(WEBHOOK_SECRET, { format: "raw" }).verify(d.body, d.headers)).toEqual(JSON.parse(d.body));
}

const weak = () => ({ target: lab.weak.address, ports: lab.weak.ports.join(",") });
const hardened = () => ({ target: lab.hardened.address, ports: lab.hardened.ports.join(",") });

describe("creating a scan", () => {
  it("answers 201 with the creation result, and scan.created on Kafka", async () => {
    const { api, orgId } = accounts.enterprise;
    const res = await api.post("/api/v1/scans", { ...hardened(), scan_type: "quick", authorized: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^scan_/),
      target: lab.hardened.address,
      scan_type: "quick",
      status: "pending",
      created_at: expect.any(String),
      estimated_duration: expect.any(Number),
    });
    expect(Number.isInteger(res.body.estimated_duration) && res.body.estimated_duration > 0).toBe(true);
    const created = await waitFor("scan.created", () => scanEvents(res.body.id).find((e) => e.type === "scan.created"));
    expect(created.orgId).toBe(orgId);
    await follow(api, res.body.id);
  });

  it("refuses bad bodies and targets with 422 naming the field, and malformed JSON with 400", async () => {
    const { api } = accounts.enterprise;
    const ok = { target: lab.weak.address, authorized: true, ports: String(lab.weak.ports[0]) };
    const cases: [string, unknown, string][] = [
      ["no target", { authorized: true }, "target"],
      ["not authorized", { ...ok, authorized: false }, "authorized"],
      ["no attestation", { target: lab.weak.address }, "authorized"],
      ["malformed host", { ...ok, target: "not a host" }, "target"],
      ["URL instead of host", { ...ok, target: `http://${lab.weak.address}/` }, "target"],
      ["CIDR above the plan's cap", { ...ok, target: "10.231.0.0/8" }, "target"],
      ["unknown scan type", { ...ok, scan_type: "deep" }, "scan_type"],
      ["bad port range", { ...ok, ports: "22,0-70000" }, "ports"],
      ["reversed port range", { ...ok, ports: "90-80" }, "ports"],
      ["unknown framework", { ...ok, frameworks: ["soc3"] }, "frameworks"],
      ["unknown field", { ...ok, org_id: accounts.other.orgId }, "org_id"],
      ["wrong type", { ...ok, authorized: "yes" }, "authorized"],
    ];
    for (const [name, body, field] of cases) {
      const res = await api.post("/api/v1/scans", body);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body, name).toMatchObject({ error_code: "VALIDATION_ERROR", detail: expect.any(String) });
      // Nested values are named by their path (frameworks.0); the top-level field comes first.
      expect(res.body.field.split(".")[0], name).toBe(field);
    }
    const malformed = await api.post("/api/v1/scans", '{"target": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_code).toBe("BAD_REQUEST");
    // Nothing was created by any of them.
    const list = await api.get(`/api/v1/scans?target=${encodeURIComponent("not a host")}`);
    expect(list.body.total).toBe(0);
  });
});

describe("a full scan of the scan lab", () => {
  let scanId: string;
  let final: any;
  let snapshots: any[];

  beforeAll(async () => {
    const hook = await accounts.enterprise.api.post("/api/v1/webhooks", {
      name: "lab scans",
      url: `${receiver.url}/lab`,
      events: ["scan.started", "scan.completed", "vulnerability.critical", "control.status_changed"],
      secret: WEBHOOK_SECRET,
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const res = await accounts.enterprise.api.post("/api/v1/scans", { ...weak(), scan_type: "full", frameworks: ["pci_dss", "soc2"], authorized: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    scanId = res.body.id;
    const followed = await follow(accounts.enterprise.api, scanId);
    snapshots = followed.seen;
    final = followed.last;
  }, 240_000);

  it("moves through all 11 phases in order with rising progress, and completes", () => {
    expect(final.status, JSON.stringify(final)).toBe("completed");
    expect(final).toMatchObject({
      progress: 100,
      phase: "complete",
      phases_completed: [...FULL_PHASES],
      phases_remaining: [],
      target: lab.weak.address,
      scan_type: "full",
    });
    expect(final.completed_at).toEqual(expect.any(String));
    expect(final.started_at).toEqual(expect.any(String));
    const progress = snapshots.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b)); // never goes back
    expect(new Set(progress).size, `progress seen: ${[...new Set(progress)].join(",")}`).toBeGreaterThanOrEqual(3);
    for (const s of snapshots) {
      // Truthful at every moment: done + remaining is always the whole plan, in order.
      expect([...s.phases_completed, ...s.phases_remaining]).toEqual([...FULL_PHASES]);
      if (s.status === "running") expect(FULL_PHASES as readonly string[]).toContain(s.phase);
    }
    expect(snapshots.some((s) => s.status === "running" && s.current_tool !== "")).toBe(true);
  });

  it("emits scan.started, one scan.progress per phase and scan.completed with the spec's data", async () => {
    const done = await waitFor("scan.completed", () => scanEvents(scanId).find((e) => e.type === "scan.completed"));
    const kinds = scanEvents(scanId).map((e) => e.type);
    expect(kinds.filter((k) => k === "scan.created")).toHaveLength(1);
    expect(kinds.filter((k) => k === "scan.started")).toHaveLength(1);
    const progress = scanEvents(scanId)
      .filter((e) => e.type === "scan.progress")
      .map((e) => (e.payload.value as { phase: string }).phase);
    expect(progress).toEqual([...FULL_PHASES]);
    const data = toJson(ScanCompletedSchema, done.payload.value as never, { useProtoFieldName: true, alwaysEmitImplicit: true }) as any;
    expect(Object.keys(data).sort()).toEqual(["duration_seconds", "findings", "scan_id", "status", "target"]);
    expect(Object.keys(data.findings).sort()).toEqual(["critical", "high", "low", "medium", "total"]);
    expect(data).toMatchObject({ scan_id: scanId, target: lab.weak.address, status: "completed" });
    expect(data.duration_seconds).toBe(Math.round((Date.parse(final.completed_at) - Date.parse(final.started_at)) / 1000));
    expect(data.findings).toEqual({
      total: final.vulnerabilities_found,
      critical: final.critical_count,
      high: final.high_count,
      medium: final.medium_count,
      low: final.low_count,
    });
  });

  it("shows the findings through the gateway, agreeing with the scan's counts", async () => {
    const { api } = accounts.enterprise;
    const list = await waitFor(
      "every finding ingested",
      async () => {
        const res = await api.get(`/api/v1/scans/${scanId}/findings`);
        expect(res.status).toBe(200);
        return res.body.total === final.vulnerabilities_found ? res.body : undefined;
      },
      30_000,
    );
    expect(Object.keys(list).sort()).toEqual(["items", "total"]);
    expect(list.total).toBeGreaterThan(5);
    const bySeverity = (s: string) => list.items.filter((f: any) => f.severity === s).length;
    expect([bySeverity("critical"), bySeverity("high"), bySeverity("medium"), bySeverity("low")]).toEqual([
      final.critical_count,
      final.high_count,
      final.medium_count,
      final.low_count,
    ]);
    for (const f of list.items) {
      expect(f).toMatchObject({
        id: expect.stringMatching(/^finding_/),
        title: expect.any(String),
        cvss_score: expect.any(Number),
        status: "open",
        tool: expect.any(String),
        affected_component: expect.any(String),
        description: expect.any(String),
        remediation: expect.any(String),
        cve_ids: expect.any(Array),
        detected_at: expect.any(String),
      });
    }
    const http = lab.targets.http;
    const components = list.items.map((f: any) => `${f.affected_component}`);
    expect(
      components.some((c: string) => c.endsWith(`:${http.port}/.git/HEAD`)),
      components.join(" "),
    ).toBe(true);
    expect(components.some((c: string) => c.endsWith(`:${http.port}/.env`))).toBe(true);
    expect(list.items.some((f: any) => f.cve_ids.includes("CVE-2011-2523"))).toBe(true); // vsFTPd 2.3.4

    // The global list's filter by scan agrees, with the list-item shape and framework names.
    const global = await api.get(`/api/v1/findings?scan_id=${scanId}&per_page=100`);
    expect(global.status).toBe(200);
    expect(global.body.total).toBe(list.total);
    // One weakness, one finding: no two findings of this scan share the scanner's weakness identity.
    const keys = global.body.items.map((f: any) =>
      weaknessKey({ target: f.target, templateId: f.template_id, cveIds: f.cve_ids, tool: f.tool, affectedComponent: f.affected_component }),
    );
    expect(keys.filter((k: string, i: number) => keys.indexOf(k) !== i)).toEqual([]);
    const critical = global.body.items.find((f: any) => f.cve_ids.includes("CVE-2011-2523"));
    expect(critical).toMatchObject({ severity: "critical", target: lab.weak.address, scan_id: scanId });
    const detail = await api.get(`/api/v1/findings/${critical.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: critical.id,
      cvss_vector: expect.stringMatching(/^CVSS:3\.[01]\//),
      remediation: { summary: expect.any(String), steps: expect.any(Array) },
      evidence: { request: expect.any(String), response: expect.any(String) },
      history: [{ from: null, to: "open", user: "system", timestamp: expect.any(String) }],
      comments: [],
    });
    expect(detail.body.evidence.response.length).toBeGreaterThan(0);
  });

  it("emits vulnerability.found once per finding and vulnerability.critical with the spec's data", async () => {
    const { orgId, api } = accounts.enterprise;
    const list = (await api.get(`/api/v1/scans/${scanId}/findings`)).body;
    const found = await waitFor(
      "vulnerability.found for every finding",
      () => {
        const evs = findingEvents(orgId, "vulnerability.found").filter((e) => (e.payload.value as { scanId: string }).scanId === scanId);
        return evs.length >= list.total ? evs : undefined;
      },
      30_000,
    );
    const ids = found.map((e) => (e.payload.value as { findingId: string }).findingId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(list.items.map((f: any) => f.id)));
    const criticals = list.items.filter((f: any) => f.severity === "critical");
    const crit = await waitFor(
      "vulnerability.critical",
      () => {
        const evs = findingEvents(orgId, "vulnerability.critical").filter((e) => (e.payload.value as { scanId: string }).scanId === scanId);
        return evs.length >= criticals.length ? evs : undefined;
      },
      30_000,
    );
    expect(crit).toHaveLength(criticals.length);
    const f = criticals[0];
    // The scan's findings list has the spec's fields; the finding itself says its confidence.
    const { confidence } = (await api.get(`/api/v1/findings/${f.id}`)).body;
    const ev = crit.find((e) => (e.payload.value as { findingId: string }).findingId === f.id)!;
    const data = toJson(VulnerabilityCriticalSchema, ev.payload.value as never, { useProtoFieldName: true, alwaysEmitImplicit: true });
    expect(data).toEqual({
      finding_id: f.id,
      title: f.title,
      severity: "critical",
      cvss_score: f.cvss_score,
      target: lab.weak.address,
      affected_component: f.affected_component,
      cve_ids: f.cve_ids,
      scan_id: scanId,
      // Added to the spec's data: how far the finding can be trusted (the API's field).
      confidence: confidence ?? "",
    });
  });

  it("delivers its events to a subscribed HTTPS webhook, signed, once each, with the data Kafka carries", async () => {
    const { api } = accounts.enterprise;
    const done = await waitFor("scan.completed on Kafka", () => scanEvents(scanId).find((e) => e.type === "scan.completed"));
    const completed = await waitFor("scan.completed delivered", () => delivered("scan.completed").find((d) => d.json.data.scan_id === scanId), 30_000);
    expect(completed.json).toEqual({
      id: completed.id,
      event: "scan.completed",
      timestamp: expect.any(String),
      data: toJson(ScanCompletedSchema, done.payload.value as never, { useProtoFieldName: true, alwaysEmitImplicit: true }),
    });
    expect(delivered("scan.started").filter((d) => d.json.data.scan_id === scanId)).toHaveLength(1);
    const criticals = (await api.get(`/api/v1/scans/${scanId}/findings`)).body.items.filter((f: any) => f.severity === "critical");
    expect(criticals.length).toBeGreaterThan(0);
    const crit = await waitFor(
      "vulnerability.critical delivered for every critical finding",
      () => {
        const c = delivered("vulnerability.critical").filter((d) => d.json.data.scan_id === scanId);
        return c.length >= criticals.length ? c : undefined;
      },
      30_000,
    );
    expect(crit.map((d) => d.json.data.finding_id).sort()).toEqual(criticals.map((f: any) => f.id).sort());
    for (const d of [completed, ...crit]) verifySignatures(d);
  });

  it("a second scan de-duplicates, reopens what was resolved and leaves false positives alone", async () => {
    const { api, orgId } = accounts.enterprise;
    const before = (await api.get(`/api/v1/findings?target=${lab.weak.address}&per_page=100`)).body;
    const [resolved, falsePositive] = before.items.filter((f: any) => f.severity !== "info");
    expect((await api.patch(`/api/v1/findings/${resolved.id}`, { status: "resolved" })).status).toBe(200);
    expect((await api.patch(`/api/v1/findings/${falsePositive.id}`, { status: "false_positive", notes: "lab" })).status).toBe(200);
    const foundBefore = findingEvents(orgId, "vulnerability.found").length;

    const second = await api.post("/api/v1/scans", { ...weak(), scan_type: "full", authorized: true });
    expect(second.status).toBe(201);
    const { last } = await follow(api, second.body.id);
    expect(last.status).toBe("completed");
    await waitFor(
      "second scan's findings",
      async () => {
        const r = await api.get(`/api/v1/scans/${second.body.id}/findings`);
        return r.body.total === last.vulnerabilities_found ? r : undefined;
      },
      30_000,
    );

    const after = (await api.get(`/api/v1/findings?target=${lab.weak.address}&per_page=100`)).body;
    expect(after.total).toBe(before.total); // no duplicates
    const reopened = (await api.get(`/api/v1/findings/${resolved.id}`)).body;
    expect(reopened.status).toBe("open");
    expect(reopened.history.at(-1)).toMatchObject({ from: "resolved", to: "open", user: "system" });
    expect(Date.parse(reopened.last_seen_at)).toBeGreaterThan(Date.parse(final.completed_at));
    expect((await api.get(`/api/v1/findings/${falsePositive.id}`)).body.status).toBe("false_positive");
    // The second scan's own list holds the same findings, and nothing was announced as new.
    const secondList = (await api.get(`/api/v1/scans/${second.body.id}/findings`)).body;
    expect(secondList.items.map((f: any) => f.id).sort()).toEqual(before.items.map((f: any) => f.id).sort());
    expect(findingEvents(orgId, "vulnerability.found")).toHaveLength(foundBefore);
  }, 240_000);

  it("turns the compliance controls its critical/high findings map to failing; resolving them restores the control and its framework's score", async () => {
    const { api } = accounts.enterprise;
    const failing = await waitFor(
      "a failing PCI DSS control",
      async () => {
        const r = await api.get("/api/v1/controls?framework=pci_dss&status=failing&per_page=100");
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return r.body.total > 0 ? r.body.items : undefined;
      },
      30_000,
    );
    const open = (await api.get(`/api/v1/findings?target=${lab.weak.address}&per_page=100`)).body.items;
    const openSevere = new Set(open.filter((f: any) => f.status === "open" && ["critical", "high"].includes(f.severity)).map((f: any) => f.id));
    const control = (await api.get(`/api/v1/controls/${failing[0].id}`)).body;
    expect(control.finding_ids.length).toBeGreaterThan(0);
    for (const id of control.finding_ids) expect(openSevere.has(id), id).toBe(true);
    expect(delivered("control.status_changed").some((d) => d.json.data.control_id === control.id && d.json.data.to === "failing")).toBe(true);

    // The people's status is kept while it fails, and shown again once its findings are resolved.
    expect((await api.patch(`/api/v1/controls/${control.id}`, { status: "implemented" })).body).toMatchObject({ status: "failing", set_status: "implemented" });
    const pci = async () => (await api.get("/api/v1/frameworks")).body.items.find((f: any) => f.id === "pci_dss");
    const before = await pci();
    for (const id of control.finding_ids) expect((await api.patch(`/api/v1/findings/${id}`, { status: "resolved" })).status).toBe(200);
    const restored = await waitFor(
      "the control restored",
      async () => {
        const c = (await api.get(`/api/v1/controls/${control.id}`)).body;
        return c.status === "implemented" ? c : undefined;
      },
      30_000,
    );
    expect(restored.finding_ids).toEqual([]);
    const after = await waitFor("the score raised", async () => {
      const f = await pci();
      return f.controls_implemented === before.controls_implemented + 1 ? f : undefined;
    });
    expect(after.controls_failing).toBeLessThan(before.controls_failing); // others its findings also failed may leave too
    expect(after.score).toBeGreaterThan(before.score);
  });

  it("finds none of the planted weaknesses on the hardened host (quick scan, truthful phases)", async () => {
    const { api } = accounts.enterprise;
    const res = await api.post("/api/v1/scans", { ...hardened(), scan_type: "quick", authorized: true });
    const first = (await api.get(`/api/v1/scans/${res.body.id}`)).body;
    expect([...first.phases_completed, ...first.phases_remaining]).toEqual([...QUICK_PHASES]);
    const { last } = await follow(api, res.body.id);
    expect(last).toMatchObject({ status: "completed", phases_completed: [...QUICK_PHASES], phases_remaining: [] });
    const items = (await api.get(`/api/v1/scans/${res.body.id}/findings`)).body.items;
    // The hardened host still announces what any server does (open ports, TLS details): info only.
    expect(items.filter((f: any) => f.severity !== "info")).toEqual([]);
  });
});

describe("cancelling", () => {
  it("cancels a running scan within seconds, keeps it cancelled, and refuses to cancel a finished one", async () => {
    const { api } = accounts.enterprise;
    const res = await api.post("/api/v1/scans", { ...weak(), scan_type: "full", authorized: true });
    await waitFor("scan running", async () => ((await api.get(`/api/v1/scans/${res.body.id}`)).body.status === "running" ? true : undefined), 30_000, 100);
    const cancel = await api.delete(`/api/v1/scans/${res.body.id}`);
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body).toEqual({ id: res.body.id, status: "cancelled", message: expect.any(String) });
    await new Promise((r) => setTimeout(r, 3000));
    const after = (await api.get(`/api/v1/scans/${res.body.id}`)).body;
    expect(after.status).toBe("cancelled");
    expect(after.progress).toBeLessThan(100);
    expect(scanEvents(res.body.id).map((e) => e.type)).not.toContain("scan.completed");

    const again = await api.delete(`/api/v1/scans/${res.body.id}`);
    expect(again.status).toBe(400);
    expect(again.body.error_code).toBe("INVALID_STATE");
    const done = (await api.get("/api/v1/scans?status=completed&per_page=1")).body.items[0];
    const finished = await api.delete(`/api/v1/scans/${done.id}`);
    expect(finished.status).toBe(400);
    expect(finished.body.error_code).toBe("INVALID_STATE");
  });

  it("cancels a pending scan", async () => {
    const { api } = accounts.enterprise;
    const res = await api.post("/api/v1/scans", { ...weak(), scan_type: "quick", authorized: true });
    const cancel = await api.delete(`/api/v1/scans/${res.body.id}`);
    expect(cancel.status).toBe(200);
    expect(cancel.body.status).toBe("cancelled");
    expect((await api.get(`/api/v1/scans/${res.body.id}`)).body.status).toBe("cancelled");
  });
});

describe("listing scans", () => {
  it("filters by status, target and dates, newest first, with the pagination envelope", async () => {
    const { api } = accounts.enterprise;
    const all = (await api.get("/api/v1/scans?per_page=100")).body;
    // The spec's envelope, plus the keyset cursor of the next page (null on the last page).
    expect(Object.keys(all).sort()).toEqual(["items", "next_cursor", "page", "pages", "per_page", "total"]);
    expect(all.next_cursor).toBeNull();
    expect(all.total).toBeGreaterThanOrEqual(6);
    const created = all.items.map((s: any) => Date.parse(s.created_at));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    for (const s of all.items) {
      expect(Object.keys(s).sort()).toEqual(
        [
          "critical_count",
          "created_at",
          "high_count",
          "id",
          "low_count",
          "medium_count",
          "phase",
          "progress",
          "scan_type",
          "status",
          "target",
          "vulnerabilities_found",
          ...(s.status === "completed" ? ["completed_at"] : []),
        ].sort(),
      );
    }

    const completed = (await api.get("/api/v1/scans?status=completed&per_page=100")).body;
    expect(completed.total).toBe(all.items.filter((s: any) => s.status === "completed").length);
    expect(completed.items.every((s: any) => s.status === "completed")).toBe(true);
    const cancelled = (await api.get("/api/v1/scans?status=cancelled")).body;
    expect(
      cancelled.total,
      JSON.stringify({ filtered: cancelled.items.map((s: any) => s.id), all: all.items.map((s: any) => [s.id, s.status, s.phase]) }),
    ).toBe(all.items.filter((s: any) => s.status === "cancelled").length);

    const byTarget = (await api.get(`/api/v1/scans?target=${lab.hardened.address}&per_page=100`)).body;
    expect(byTarget.total).toBe(all.items.filter((s: any) => s.target === lab.hardened.address).length);

    const sorted = [...all.items].sort((a: any, b: any) => Date.parse(a.created_at) - Date.parse(b.created_at));
    const pivot = sorted[2].created_at;
    const after = (await api.get(`/api/v1/scans?from_date=${encodeURIComponent(pivot)}&per_page=100`)).body;
    expect(after.total).toBe(all.items.filter((s: any) => Date.parse(s.created_at) >= Date.parse(pivot)).length);
    const before = (await api.get(`/api/v1/scans?to_date=${encodeURIComponent(pivot)}&per_page=100`)).body;
    expect(before.total).toBe(all.items.filter((s: any) => Date.parse(s.created_at) < Date.parse(pivot)).length); // "before": strictly

    const page2 = (await api.get("/api/v1/scans?per_page=2&page=2")).body;
    expect(page2).toMatchObject({ page: 2, per_page: 2, total: all.total, pages: Math.ceil(all.total / 2) });
    expect(page2.items.map((s: any) => s.id)).toEqual(all.items.slice(2, 4).map((s: any) => s.id));

    for (const q of ["per_page=101", "per_page=0", "page=0", "status=sleeping", "from_date=yesterday"]) {
      const res = await api.get(`/api/v1/scans?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.field, q).toBe(q.split("=")[0]);
    }
  });

  it("keeps each organization's scans to itself (404 on another's id)", async () => {
    const mine = (await accounts.enterprise.api.get("/api/v1/scans?per_page=1")).body.items[0];
    const other = accounts.other.api;
    expect((await other.get("/api/v1/scans")).body.total).toBe(0);
    for (const res of [
      await other.get(`/api/v1/scans/${mine.id}`),
      await other.delete(`/api/v1/scans/${mine.id}`),
      await other.get(`/api/v1/scans/${mine.id}/findings`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error_code).toBe("NOT_FOUND");
    }
    expect((await accounts.enterprise.api.get(`/api/v1/scans/${mine.id}`)).body.status).toBe(mine.status);
  });
});

describe("plan limits", () => {
  it("admits exactly the concurrent-scan limit of 20 parallel creations (Professional: 3)", async () => {
    const { api } = accounts.professional;
    const results = await Promise.all(Array.from({ length: 20 }, () => api.post("/api/v1/scans", { ...weak(), scan_type: "full", authorized: true })));
    const admitted = results.filter((r) => r.status === 201);
    expect(admitted).toHaveLength(3);
    for (const r of results.filter((r) => r.status !== 201)) {
      expect(r.status).toBe(429);
      expect(r.body.error_code).toBe("CONCURRENT_SCAN_LIMIT");
    }
    for (const r of admitted) expect((await api.delete(`/api/v1/scans/${r.body.id}`)).status).toBe(200);
    const quota = (await api.get("/api/v1/scans/quota")).body;
    expect(quota).toMatchObject({ plan: "professional", monthly_limit: 150, used_this_month: 3, remaining: 147 });
  });

  it("admits exactly the monthly quota under parallel requests (Startup: 25), then 429 SCAN_QUOTA_EXCEEDED", async () => {
    const { api } = accounts.startup;
    const body = { target: lab.weak.address, ports: String(lab.weak.ports[0]), scan_type: "quick", authorized: true };
    for (let i = 0; i < 24; i++) {
      const r = await api.post("/api/v1/scans", body);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect((await api.delete(`/api/v1/scans/${r.body.id}`)).status).toBe(200);
    }
    const quota = await api.get("/api/v1/scans/quota");
    expect(quota.body).toMatchObject({ plan: "startup", monthly_limit: 25, used_this_month: 24, remaining: 1, resets_at: expect.any(String) });
    const resets = new Date(quota.body.resets_at);
    expect(resets.getUTCDate()).toBe(1);
    expect(resets.getTime()).toBeGreaterThan(Date.now());

    const results = await Promise.all(Array.from({ length: 20 }, () => api.post("/api/v1/scans", body)));
    const admitted = results.filter((r) => r.status === 201);
    expect(admitted).toHaveLength(1);
    expect(results.filter((r) => r.status === 429)).toHaveLength(19);
    expect((await api.delete(`/api/v1/scans/${admitted[0]!.body.id}`)).status).toBe(200);
    const over = await api.post("/api/v1/scans", body);
    expect(over.status).toBe(429);
    expect(over.body.error_code).toBe("SCAN_QUOTA_EXCEEDED");
    // Retry-After points at the monthly reset.
    expect(Math.abs(Number(over.headers.get("retry-after")) - (resets.getTime() - Date.now()) / 1000)).toBeLessThan(60);
    expect((await api.get("/api/v1/scans/quota")).body).toMatchObject({ used_this_month: 25, remaining: 0 });
  });
});

describe("plan changes", () => {
  it("a downgrade limits the quota within seconds, not after the orchestrator's 30 s plan cache", async () => {
    const acct = await account("professional");
    // The orchestrator now caches the Professional plan for this organization.
    expect((await acct.api.get("/api/v1/scans/quota")).body).toMatchObject({ plan: "professional", monthly_limit: 150 });
    admin(["set-plan", "--org", acct.orgId, "--plan", "startup"], { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` });
    const started = Date.now();
    const quota = await waitFor(
      "the quota to show the Startup plan",
      async () => {
        const body = (await acct.api.get("/api/v1/scans/quota")).body;
        return body.plan === "startup" ? body : undefined;
      },
      10_000,
    );
    expect(quota).toMatchObject({ plan: "startup", monthly_limit: 25 });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe("schedules", () => {
  it("need the Professional plan", async () => {
    const res = await accounts.startup.api.post("/api/v1/scans/schedules", {
      ...weak(),
      scan_type: "quick",
      frequency: "weekly",
      day_of_week: 1,
      hour: 3,
      timezone: "UTC",
    });
    expect(res.status).toBe(403);
    expect(res.body.error_code).toBe("PLAN_UPGRADE_REQUIRED");
  });

  it("refuses bad schedules with 422 naming the field", async () => {
    const { api } = accounts.professional;
    const ok = { ...weak(), scan_type: "quick", frequency: "weekly", day_of_week: 1, hour: 3, timezone: "Europe/Berlin" };
    for (const [body, field] of [
      [{ ...ok, timezone: "Mars/Olympus" }, "timezone"],
      [{ ...ok, day_of_week: 7 }, "day_of_week"],
      [{ ...ok, hour: 24 }, "hour"],
      [{ ...ok, frequency: "hourly" }, "frequency"],
      [{ ...ok, target: "not a host" }, "target"],
      [{ ...ok, owner: "x" }, "owner"],
    ] as const) {
      const res = await api.post("/api/v1/scans/schedules", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.field).toBe(field);
    }
  });

  it("are created, listed, run once when due (counted against the quota) and deleted", async () => {
    const { api } = accounts.professional;
    const res = await api.post("/api/v1/scans/schedules", {
      target: lab.hardened.address,
      ports: lab.hardened.ports.join(","),
      scan_type: "quick",
      frequency: "weekly",
      day_of_week: 1,
      hour: 3,
      timezone: "Europe/Berlin",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^schedule_/),
      frequency: "weekly",
      day_of_week: 1,
      hour: 3,
      timezone: "Europe/Berlin",
      next_run_at: expect.any(String),
    });
    const next = new Date(res.body.next_run_at);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    const berlin = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", weekday: "short", hour: "2-digit", hourCycle: "h23" }).formatToParts(next);
    expect(berlin.find((p) => p.type === "weekday")!.value).toBe("Mon");
    expect(berlin.find((p) => p.type === "hour")!.value).toBe("03");

    const list = (await api.get("/api/v1/scans/schedules")).body;
    expect(list.items.map((s: any) => s.id)).toContain(res.body.id);
    expect((await accounts.other.api.get("/api/v1/scans/schedules")).body.items).toEqual([]);

    const used = (await api.get("/api/v1/scans/quota")).body.used_this_month;
    // In loopback mode (no namespaces) both lab hosts are 127.0.0.1: count what is there already.
    const earlier = (await api.get(`/api/v1/scans?target=${lab.hardened.address}`)).body.total;
    // Make it due now, as if a week had passed: the scheduler (two ticks a second) must run it once.
    const moved = await scansDb.db.collection("schedules").updateOne({ _id: res.body.id as never }, { $set: { next_run_at: new Date(Date.now() - 1000) } });
    expect(moved.matchedCount).toBe(1);
    const ran = await waitFor(
      "the scheduled scan",
      async () => {
        const s = (await api.get(`/api/v1/scans?target=${lab.hardened.address}`)).body;
        return s.total > earlier ? s.items : undefined;
      },
      30_000,
      500,
    );
    await new Promise((r) => setTimeout(r, 2500)); // several more scheduler ticks
    expect((await api.get(`/api/v1/scans?target=${lab.hardened.address}`)).body.total).toBe(earlier + 1);
    expect((await api.get("/api/v1/scans/quota")).body.used_this_month).toBe(used + 1);
    const after = (await api.get("/api/v1/scans/schedules")).body.items.find((s: any) => s.id === res.body.id);
    expect(after.last_scan_id).toBe(ran[0].id);
    expect(Date.parse(after.next_run_at)).toBeGreaterThan(Date.now());
    await follow(api, ran[0].id);

    expect((await accounts.other.api.delete(`/api/v1/scans/schedules/${res.body.id}`)).status).toBe(404);
    const del = await api.delete(`/api/v1/scans/schedules/${res.body.id}`);
    expect(del.status).toBe(200);
    expect((await api.delete(`/api/v1/scans/schedules/${res.body.id}`)).status).toBe(404);
    expect((await api.get("/api/v1/scans/schedules")).body.items.map((s: any) => s.id)).not.toContain(res.body.id);
  });
});

describe("API key permissions", () => {
  const PERMISSIONS = ["read:scans", "write:scans", "read:findings", "write:findings", "read:grc", "write:grc"] as const;
  // Each route with the permission it needs; bodies are such that an admitted request fails only later (404/422).
  const ROUTES: [string, string, (typeof PERMISSIONS)[number], unknown?][] = [
    ["GET", "/api/v1/scans", "read:scans"],
    ["GET", "/api/v1/scans/quota", "read:scans"],
    ["GET", "/api/v1/scans/schedules", "read:scans"],
    ["GET", "/api/v1/scans/scan_nope", "read:scans"],
    ["POST", "/api/v1/scans", "write:scans", {}],
    ["DELETE", "/api/v1/scans/scan_nope", "write:scans"],
    ["POST", "/api/v1/scans/schedules", "write:scans", {}],
    ["DELETE", "/api/v1/scans/schedules/schedule_nope", "write:scans"],
    ["GET", "/api/v1/scans/scan_nope/findings", "read:findings"],
    ["GET", "/api/v1/findings", "read:findings"],
    ["GET", "/api/v1/findings/stats", "read:findings"],
    ["GET", "/api/v1/findings/export?format=json", "read:findings"],
    ["GET", "/api/v1/findings/finding_nope", "read:findings"],
    ["GET", "/api/v1/findings/finding_nope/ai-analysis", "read:findings"],
    ["PATCH", "/api/v1/findings/finding_nope", "write:findings", { status: "open" }],
    ["POST", "/api/v1/findings/finding_nope/comments", "write:findings", { text: "x" }],
    ["POST", "/api/v1/findings/bulk", "write:findings", {}],
  ];

  it("admit each route only with its permission (403 FORBIDDEN otherwise)", async () => {
    const keys = new Map<string, Api>();
    for (const p of PERMISSIONS) {
      const res = await accounts.enterprise.api.post("/api/v1/auth/api-keys", { name: `only ${p}`, permissions: [p] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      keys.set(p, new Api(system.gatewayUrl).withApiKey(res.body.key));
    }
    const failures: string[] = [];
    for (const [method, url, needed, body] of ROUTES) {
      for (const p of PERMISSIONS) {
        const res = await keys.get(p)!.request(method, url, body);
        if (p === needed ? res.status === 403 || res.status === 401 : res.status !== 403 || res.body.error_code !== "FORBIDDEN") {
          failures.push(`${method} ${url} with ${p}: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
