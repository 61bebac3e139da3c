import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { toJson } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { createLogger, KafkaBus, Topics, TOPIC_SPECS, type MessageMeta } from "@vulnscan/kit";
import { WEBHOOK_EVENT_KINDS } from "../../services/kit/src/event-kinds.js";
import { EventEnvelopeSchema, type EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { Kafka, logLevel, ConfigResourceTypes } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startReceiver, type Receiver } from "../../examples/webhook-receiver/receiver.js";
import { buildDescriptorSet } from "../../scripts/asyncapi.js";
import { ROOT } from "../../scripts/lib/root.js";
import { startSystem, type RunningSystem } from "../../scripts/system.js";
import { startLab, type Lab } from "../lab/lab.js";
import { admin, Api } from "../support/api.js";
import { unique } from "../support/names.js";
import { selfSignedCertificates } from "../support/tls.js";
import { labSystemEnv } from "../support/system-env.js";

/*
 * Our events as another team sees them: the Python consumer of examples/python-consumer
 * (kafka-python + protobuf from PyPI, types loaded from buf's descriptor set, nothing generated
 * or committed) reads the public topics of a real run — a quick scan of the scan lab, a triage
 * change, a control change, an audit request, evidence (clean and EICAR), a failed login, a
 * logout everywhere and auth's heartbeats; 17 event kinds — and what it
 * decoded must equal, field for field, what the TypeScript side decoded from the same records,
 * and what the webhook receiver was delivered. Network: loopback and the lab only.
 */

const PASSWORD = "correct horse battery staple";
const SECRET = "e2e-events-python-secret";
/** The antivirus test file: clamd (test signatures) quarantines it. */
const EICAR = "X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*";
const PUBLIC_TOPICS = Object.entries(TOPIC_SPECS)
  .filter(([t, s]) => s.audience === "public" && t !== Topics.webhookEvents)
  .map(([t]) => t);
const CONSUMER = path.join(ROOT, "examples", "python-consumer");
/** No __pycache__ left in the work tree. */
const PY_ENV = { ...process.env, PYTHONDONTWRITEBYTECODE: "1" };

let system: RunningSystem;
let lab: Lab;
let bus: KafkaBus;
let receiver: Receiver;
let python: string;
let descriptorSet: string;
let orgId: string;
let api: Api;
let since: number;
const seen = new Map<string, { envelope: EventEnvelope; meta: MessageMeta; arrived: number }>();
let pythonStarted: number;
const at = (topic: string, partition: number, offset: string | number) => `${topic}/${partition}/${offset}`;

/**
 * A virtualenv with the example's requirements, under node_modules/.cache, made once per
 * requirements file and Python version (a cold pip install takes seconds; later runs reuse it).
 */
function pythonConsumerEnv(): string {
  const requirements = fs.readFileSync(path.join(CONSUMER, "requirements.txt"));
  const version = spawnSync("python3", ["--version"], { encoding: "utf8" }).stdout.trim();
  const hash = createHash("sha256").update(requirements).update(version).digest("hex").slice(0, 12);
  const dir = path.join(ROOT, "node_modules", ".cache", "vulnscan-python-consumer", hash);
  const bin = path.join(dir, "bin", "python");
  if (fs.existsSync(path.join(dir, ".ready"))) return bin;
  fs.rmSync(dir, { recursive: true, force: true });
  const sh = (cmd: string, args: string[]) => {
    const r = spawnSync(cmd, args, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stdout}${r.stderr}`);
  };
  sh("python3", ["-m", "venv", dir]);
  sh(bin, ["-m", "pip", "install", "--quiet", "-r", path.join(CONSUMER, "requirements.txt")]);
  fs.writeFileSync(path.join(dir, ".ready"), "");
  return bin;
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const ours = () => [...seen.values()].filter((s) => s.envelope.orgId === orgId);
const hasKind = (kind: string, pred: (e: EventEnvelope) => boolean = () => true) => ours().some((s) => s.envelope.type === kind && pred(s.envelope));

beforeAll(async () => {
  const t0 = Date.now();
  python = pythonConsumerEnv();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-events-python-"));
  descriptorSet = path.join(work, "vulnscan-events.binpb");
  buildDescriptorSet(descriptorSet);
  console.log(`[events-python] python env and descriptor set ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const prefix = `${unique("e2eevpy")}_`;
  lab = await startLab({ realServers: false });
  const tls = selfSignedCertificates(work, "127.0.0.2");
  receiver = await startReceiver({ host: "127.0.0.2", key: tls.key, cert: tls.cert, secret: SECRET });
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    logDir: work,
    logLevel: "warn",
    env: labSystemEnv({ scanNetworks: lab.allowedNetworks, receiverCa: tls.ca }),
  });
  bus = new KafkaBus({ clientId: "e2e-events-python", brokers: [inject("kafkaBrokers")], logger: createLogger("e2e", "silent") });
  for (const topic of PUBLIC_TOPICS) {
    await bus.subscribe({
      groupId: unique(`e2e-evpy-${topic}`),
      topic,
      schema: EventEnvelopeSchema,
      handle: async (envelope, meta) => void seen.set(at(meta.topic, meta.partition, meta.offset), { envelope, meta, arrived: Date.now() }),
    });
  }
  // Python reads from here (offsets for a time, as a replay would); everything of our organization comes after.
  since = Date.now() - 1000;
  const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  orgId = admin(["create-org", "--name", `events ${unique("org")}`, "--plan", "enterprise"], env).id;
  const email = `${unique("events")}@example.test`.toLowerCase();
  admin(["create-user", "--org", orgId, "--email", email, "--password", PASSWORD], env);
  const anon = new Api(system.gatewayUrl);
  const res = await anon.token(email, PASSWORD);
  expect(res.status).toBe(200);
  api = anon.withToken(res.body.access_token);

  const hook = await api.post("/api/v1/webhooks", { name: "every kind", url: `${receiver.url}/all`, events: [...WEBHOOK_EVENT_KINDS], secret: SECRET });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  const hookAt = Date.now();
  expect((await anon.token(email, "not the password")).status).toBe(401); // user.login_failed

  // The smallest lab scan that finds something: a quick scan of the weak host's HTTP port.
  const http = lab.targets.http;
  const scan = await api.post("/api/v1/scans", { target: http.host, ports: String(http.port), scan_type: "quick", authorized: true });
  expect(scan.status, JSON.stringify(scan.body)).toBe(201);
  const scanId = scan.body.id as string;
  const done = await waitFor(
    "scan to finish",
    async () => {
      const s = (await api.get(`/api/v1/scans/${scanId}`)).body;
      return ["completed", "failed", "cancelled"].includes(s.status) ? s : undefined;
    },
    180_000,
  );
  expect(done.status, JSON.stringify(done)).toBe("completed");
  const finding = await waitFor("a finding of the scan", async () => (await api.get(`/api/v1/scans/${scanId}/findings`)).body.items?.[0]);

  // Triage: in_progress, then resolved (vulnerability.status_changed twice, vulnerability.resolved).
  expect((await api.patch(`/api/v1/findings/${finding.id}`, { status: "in_progress" })).status).toBe(200);
  expect((await api.patch(`/api/v1/findings/${finding.id}`, { status: "resolved" })).status).toBe(200);
  // A control change by a user, and an audit request.
  const control = (await api.get("/api/v1/controls?framework=soc2&per_page=5")).body.items.find((c: { status: string }) => c.status !== "implemented");
  expect((await api.patch(`/api/v1/controls/${control.id}`, { status: "implemented", notes: "events e2e" })).status).toBe(200);
  expect((await api.post("/api/v1/audit-requests", { framework: "soc2", title: "Events e2e", requested_by: "auditor@firm.test" })).status).toBe(201);

  // Evidence: a clean file (evidence.uploaded) and the EICAR test file clamd quarantines (quarantine.threat_detected).
  const upload = async (content: string, name: string) => {
    const form = new FormData();
    form.append("title", name);
    form.append("file", new Blob([content], { type: "text/plain" }), name);
    const r = await fetch(`${system.gatewayUrl}/api/v1/controls/${control.id}/evidence`, {
      method: "POST",
      headers: { authorization: `Bearer ${res.body.access_token}` },
      body: form,
    });
    return { status: r.status, body: await r.json() };
  };
  const clean = await upload("quarterly access review", "review.txt");
  expect(clean.status, JSON.stringify(clean.body)).toBe(201);
  const eicar = await upload(EICAR, "eicar.com");
  expect(eicar.body, JSON.stringify(eicar.body)).toMatchObject({ status: "quarantined" });
  // Logging out everywhere revokes the session (auth.session_revoked, internal).
  expect((await api.post("/api/v1/auth/logout-all", {})).status).toBeLessThan(300);

  await waitFor("every event of the run on the TypeScript side", () =>
    hasKind("scan.completed", (e) => (e.payload.value as { scanId: string }).scanId === scanId) &&
    hasKind("vulnerability.resolved") &&
    hasKind("control.status_changed", (e) => (e.payload.value as { controlId: string }).controlId === control.id) &&
    hasKind("audit.request_created") &&
    hasKind("user.login_failed") &&
    hasKind("evidence.uploaded") &&
    hasKind("quarantine.threat_detected") &&
    hasKind("auth.session_revoked")
      ? true
      : undefined,
  );
  // And at the receiver: every customer event kind of ours delivered.
  // And at the receiver: every customer event kind of ours since the webhook exists, delivered.
  const deliverable = () =>
    new Set(
      ours()
        .filter((s) => WEBHOOK_EVENT_KINDS.includes(s.envelope.type) && timestampMs(s.envelope.occurredAt!) > hookAt)
        .map((s) => s.envelope.type),
    );
  await waitFor("the webhook deliveries", () => {
    const delivered = new Set(receiver.requests.map((d) => d.event));
    return [...deliverable()].every((k) => delivered.has(k)) ? true : undefined;
  }).catch((err) => {
    const delivered = new Set(receiver.requests.map((d) => d.event));
    throw new Error(`${err.message}; never delivered: ${[...deliverable()].filter((k) => !delivered.has(k)).join(", ")}`);
  });
  // grc derives control changes from the findings a little later: let the run settle (nothing new of ours for 3 s).
  let count = -1;
  await waitFor("the run to settle", async () => {
    const now = ours().length + receiver.requests.length;
    if (now === count) return true;
    count = now;
    await new Promise((r) => setTimeout(r, 3000));
    return undefined;
  });
}, 420_000);

afterAll(async () => {
  await bus?.close();
  await system?.stop();
  await lab?.stop();
  await receiver?.close();
});

interface PythonRecord {
  topic: string;
  partition: number;
  offset: number;
  key: string | null;
  headers: Record<string, string>;
  kind: string;
  payload_field: string | null;
  envelope: Record<string, unknown> & { id: string; type: string; org_id: string };
}

describe("a Python consumer of the public topics", () => {
  let records: PythonRecord[];

  beforeAll(() => {
    const t0 = Date.now();
    pythonStarted = t0;
    const r = spawnSync(
      python,
      [
        path.join(CONSUMER, "consumer.py"),
        "--brokers",
        inject("kafkaBrokers"),
        "--descriptor-set",
        descriptorSet,
        "--since",
        String(since),
        "--until-end",
        "--json",
        ...PUBLIC_TOPICS,
      ],
      { encoding: "utf8", timeout: 120_000, maxBuffer: 256 * 1024 * 1024, env: PY_ENV },
    );
    expect(r.status, r.stderr).toBe(0);
    records = r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    console.log(`[events-python] consumer.py read ${records.length} records in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  });

  it("decodes every record of the run exactly as the TypeScript side did: envelope, payload, key and headers", async () => {
    const mine = records.filter((r) => r.envelope.org_id === orgId);
    // Python read up to the end offsets when it started; the TypeScript consumer may still be a step behind.
    await waitFor(
      "the TypeScript consumer at Python's records",
      () => (mine.every((r) => seen.has(at(r.topic, r.partition, r.offset))) ? true : undefined),
      15_000,
    );
    const heartbeats = records.filter((r) => r.kind === "auth.heartbeat" && seen.has(at(r.topic, r.partition, r.offset)));
    expect(heartbeats.length).toBeGreaterThan(0);
    for (const r of [...mine, ...heartbeats]) {
      const ts = seen.get(at(r.topic, r.partition, r.offset));
      expect(ts, `${r.kind} at ${at(r.topic, r.partition, r.offset)} not seen by the TypeScript consumer`).toBeDefined();
      expect(r.envelope, r.kind).toEqual(toJson(EventEnvelopeSchema, ts!.envelope, { useProtoFieldName: true, alwaysEmitImplicit: true }));
      expect(r.payload_field).toBe(r.kind.replace(".", "_"));
      expect(r.key).toBe(ts!.meta.key ?? null);
      expect(r.headers).toEqual(ts!.meta.headers);
    }
    // Nothing of ours the TypeScript side saw since the start is missing from Python's reading.
    const read = new Set(mine.map((r) => at(r.topic, r.partition, r.offset)));
    // What the TypeScript side had seen when Python started was below Python's end offsets.
    const before = ours().filter((s) => s.arrived < pythonStarted);
    expect(before.length).toBeGreaterThan(10);
    expect(before.filter((s) => !read.has(at(s.meta.topic, s.meta.partition, s.meta.offset))).map((s) => s.envelope.type)).toEqual([]);
    const kinds = new Set([...mine, ...heartbeats].map((r) => r.kind));
    for (const k of [
      "scan.created",
      "scan.started",
      "scan.progress",
      "scan.completed",
      "vulnerability.found",
      "vulnerability.status_changed",
      "vulnerability.resolved",
      "control.status_changed",
      "audit.request_created",
      "user.login_failed",
      "evidence.uploaded",
      "quarantine.threat_detected",
      "auth.session_revoked",
      "auth.heartbeat",
    ])
      expect(kinds, k).toContain(k);
    console.log(`[events-python] kinds compared: ${[...kinds].sort().join(", ")}`);
  });

  it("decodes each payload as the webhook delivered it (the delivery's data is the payload's proto JSON)", () => {
    // Those Python could have read: the record of a delivery received before it started was below its end offsets.
    const deliveries = receiver.requests.filter((d) => d.path === "/all" && d.receivedAt.getTime() < pythonStarted);
    expect(deliveries.length).toBeGreaterThan(0);
    for (const d of deliveries) {
      const body = JSON.parse(d.body) as { event: string; timestamp: string; data: unknown };
      const match = records.find((r) => r.envelope.org_id === orgId && r.kind === body.event && isDeepStrictEqual(r.envelope[r.payload_field!], body.data));
      expect(match, `${body.event} delivered as ${d.body}`).toBeDefined();
    }
  });

  it("as a consumer group, commits what it handled: run again, it resumes after it", () => {
    const group = unique("e2e-python-group");
    const run = () => {
      const r = spawnSync(
        python,
        [
          path.join(CONSUMER, "consumer.py"),
          "--brokers",
          inject("kafkaBrokers"),
          "--descriptor-set",
          descriptorSet,
          "--group",
          group,
          "--until-end",
          "--json",
          ...PUBLIC_TOPICS,
        ],
        { encoding: "utf8", timeout: 120_000, maxBuffer: 256 * 1024 * 1024, env: PY_ENV },
      );
      expect(r.status, r.stderr).toBe(0);
      return r.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as PythonRecord);
    };
    const first = run();
    // A new group starts at the earliest offset: everything of ours the replay from a time read is there.
    const firstAt = new Set(first.map((r) => at(r.topic, r.partition, r.offset)));
    const ofOurs = records.filter((r) => r.envelope.org_id === orgId);
    expect(ofOurs.length).toBeGreaterThan(0);
    expect(ofOurs.filter((r) => !firstAt.has(at(r.topic, r.partition, r.offset)))).toEqual([]);
    const second = run();
    expect(second.filter((r) => firstAt.has(at(r.topic, r.partition, r.offset))).map((r) => r.kind)).toEqual([]);
  });

  it("skips an envelope of a kind newer than its descriptor set, and says so", () => {
    // Field 99 of the envelope: a payload this consumer's descriptor set does not know.
    const unknownKind = Buffer.concat([
      Buffer.from([0x0a, 7]),
      Buffer.from("evt_new"),
      Buffer.from([0x12, 12]),
      Buffer.from("future.thing"),
      Buffer.from([0x9a, 0x06, 2, 0x08, 1]),
    ]);
    const r = spawnSync(
      python,
      [
        "-c",
        "import sys, consumer\nfrom types import SimpleNamespace as R\ncls = consumer.load_envelope(sys.argv[1])\nconsumer.handle(cls, R(topic='t', partition=0, offset=0, key=None, headers=[], value=sys.stdin.buffer.read()), set(), False, sys.stdout)",
        descriptorSet,
      ],
      { cwd: CONSUMER, input: unknownKind, encoding: "utf8", env: PY_ENV },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("skipped unknown event kind 'future.thing' (evt_new)");
  });
});

describe("the public topics' settings", () => {
  it("are the kit's, not the broker's defaults: retention and cleanup policy as documented, dead-letter topics a month", async () => {
    const kafka = new Kafka({ clientId: "e2e-topic-configs", brokers: [inject("kafkaBrokers")], logLevel: logLevel.NOTHING });
    const adminClient = kafka.admin();
    await adminClient.connect();
    try {
      const names = PUBLIC_TOPICS.flatMap((t) => [t, `${t}.dlq`]);
      const res = await adminClient.describeConfigs({
        includeSynonyms: false,
        resources: names.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: ["retention.ms", "cleanup.policy"] })),
      });
      const got = Object.fromEntries(
        res.resources.map((r) => [
          r.resourceName,
          Object.fromEntries(r.configEntries.map((e) => [e.configName, { value: e.configValue, isDefault: e.isDefault }])),
        ]),
      );
      for (const t of PUBLIC_TOPICS) {
        expect(got[t], t).toEqual({
          "retention.ms": { value: String(TOPIC_SPECS[t as keyof typeof TOPIC_SPECS].retentionMs), isDefault: false },
          "cleanup.policy": { value: "delete", isDefault: false },
        });
        expect(got[`${t}.dlq`]?.["retention.ms"], `${t}.dlq`).toEqual({ value: String(30 * 24 * 3_600_000), isDefault: false });
      }
    } finally {
      await adminClient.disconnect();
    }
  });
});
