import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createLogger, KafkaBus, Topics } from "@vulnscan/kit";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSystem, type RunningSystem } from "../../scripts/system.js";
import { detection, publish } from "../../services/findings/test/support.js";
import { admin, Api } from "../support/api.js";
import { unique } from "../support/names.js";
import {
  documentOperations,
  ENTRIES,
  type Ids,
  type OpenApi,
  type Operation,
  operationsOf,
  type Param,
  PERMISSIONS as ALL,
  type Permission,
  scanBody,
  targetBody,
  webhookBody,
} from "../security/operations.js";

/*
 * The authorization matrix (issue 14 item 2): every operation of the OpenAPI document × every
 * kind of caller, against the real system. What each case expects comes from the document
 * itself: `security` (public, bearer only, or bearer or API key), `x-permission` (the API-key
 * permission the guard enforces), `x-plans` (operations the Startup plan cannot use) and the
 * path parameters (an id route of another organization is 404, indistinguishable from an id
 * that never existed). The only hand-written part is ENTRIES: how to call each operation
 * successfully with organization 1's resources. An operation of the document without an entry
 * fails the run, so a new route cannot escape the matrix.
 */

const PASSWORD = "correct horse battery staple";

const PRINCIPALS = [
  "owner",
  "other_org",
  "key_with_permission",
  "key_without_permission",
  "expired_key",
  "revoked_key",
  "revoked_session",
  "startup_plan",
] as const;
type PrincipalName = (typeof PRINCIPALS)[number];

const { doc: builtDoc, ops: OPERATIONS } = await documentOperations();

interface Expectation {
  /** Accepted statuses (the first is the one named in the case). */
  status: number[];
  code?: string;
  /** Another organization's id: the answer must equal the one for an id that never existed. */
  likeUnknownId?: boolean;
}

function expectationFor(op: Operation, who: PrincipalName): Expectation | undefined {
  const entry = ENTRIES[op.key];
  if (!entry) return undefined;
  const ok = { status: [entry.ok].flat() };
  if (op.access === "public") return who === "startup_plan" ? undefined : ok;
  switch (who) {
    case "owner":
      return ok;
    case "other_org":
      return op.params.length > 0 ? { status: [404], code: "NOT_FOUND", likeUnknownId: true } : ok;
    case "key_with_permission":
      return op.access === "any" ? ok : { status: [403], code: "FORBIDDEN" };
    case "key_without_permission":
      return { status: [403], code: "FORBIDDEN" };
    case "expired_key":
    case "revoked_key":
    case "revoked_session":
      return { status: [401] };
    case "startup_plan":
      return op.gated ? { status: [403], code: "PLAN_UPGRADE_REQUIRED" } : undefined;
  }
}

// --- the system and organization 1's resources ------------------------------------------------

let system: RunningSystem;
let api: Api;
let prefix: string;
let bus: KafkaBus;
interface Account {
  orgId: string;
  email: string;
  token: string;
}
let one: Account;
let two: Account;
let startup: Account;
let ids: Ids;
/** Credentials per principal (and, for keys, per permission). */
const creds = {} as {
  keyWith: Record<Permission | "all", string>;
  keyWithout: Record<Permission | "bearer", string>;
  expiredKey: string;
  revokedKey: string;
  revokedSession: string;
};
let cases = 0;
const leaks: string[] = [];

function account(plan: string): { orgId: string; email: string } {
  const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  const org = admin(["create-org", "--name", unique(`authz-${plan}`), "--plan", plan], env);
  const email = `${unique(plan)}@example.test`.toLowerCase();
  admin(["create-user", "--org", org.id, "--email", email, "--password", PASSWORD], env);
  return { orgId: org.id, email };
}

async function login(email: string): Promise<string> {
  const res = await api.token(email, PASSWORD);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.access_token;
}

async function signedUp(plan: string): Promise<Account> {
  const a = account(plan);
  return { ...a, token: await login(a.email) };
}

const owner = () => api.withToken(one.token);

async function created(res: Promise<{ status: number; body: { id?: string } }>, what: string): Promise<string> {
  const r = await res;
  if (r.status !== 201 || !r.body.id) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

async function apiKey(permissions: readonly string[], expiresAt?: Date): Promise<{ id: string; key: string }> {
  const res = await owner().post("/api/v1/auth/api-keys", {
    name: unique("matrix"),
    permissions,
    ...(expiresAt ? { expires_at: expiresAt.toISOString() } : {}),
  });
  if (res.status !== 201) throw new Error(`api key: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, key: res.body.key };
}

async function uploadEvidence(client: { token?: string; apiKey?: string }, controlId: string) {
  const form = new FormData();
  form.append("title", "Matrix evidence");
  form.append("file", new Blob(["matrix evidence"], { type: "text/plain" }), "evidence.txt");
  return send("POST", `/api/v1/controls/${controlId}/evidence`, client, { multipart: form });
}

/** Makers of a new organization-1 resource, for cases that consume one. */
const makers: Record<Param, () => Promise<string>> = {
  scan_id: () => created(owner().post("/api/v1/scans", scanBody), "scan"),
  schedule_id: () =>
    created(
      owner().post("/api/v1/scans/schedules", { target: "127.0.0.1", scan_type: "quick", ports: "9", frequency: "daily", hour: 4, timezone: "UTC" }),
      "schedule",
    ),
  finding_id: async () => ids.finding_id,
  webhook_id: () => created(owner().post("/api/v1/webhooks", webhookBody()), "webhook"),
  delivery_id: async () => {
    const res = await owner().post(`/api/v1/webhooks/${ids.webhook_id}/test`);
    if (res.status !== 200) throw new Error(`webhook test: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.delivery_id;
  },
  control_id: async () => {
    const res = await owner().get("/api/v1/controls?per_page=1");
    if (res.status !== 200 || !res.body.items?.[0]) throw new Error(`controls: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.items[0].id;
  },
  evidence_id: async () => {
    const res = await uploadEvidence({ token: one.token }, ids.control_id);
    if (res.status !== 201) throw new Error(`evidence: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { id: string }).id;
  },
  audit_request_id: () => created(owner().post("/api/v1/audit-requests", { framework: "iso27001", title: "Matrix" }), "audit request"),
  session_id: async () => decodeJwt(await login(one.email)).sid as string,
  api_key_id: async () => (await apiKey(["read:scans"])).id,
  target_id: () => created(owner().post("/api/v1/targets", targetBody()), "target"),
};

async function send(method: string, p: string, auth: { token?: string; apiKey?: string }, opts: { json?: unknown; form?: string; multipart?: FormData } = {}) {
  const headers: Record<string, string> = {};
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  if (auth.apiKey) headers["x-api-key"] = auth.apiKey;
  let body: string | FormData | undefined;
  if (opts.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.json);
  } else if (opts.form !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = opts.form;
  } else if (opts.multipart) body = opts.multipart;
  const res = await fetch(`${system.gatewayUrl}${p}`, { method, headers, body });
  const text = await res.text();
  const json = (res.headers.get("content-type") ?? "").includes("application/json") && text ? JSON.parse(text) : undefined;
  return { status: res.status, body: json as unknown, text };
}

function credentialsOf(op: Operation, who: PrincipalName): { token?: string; apiKey?: string } {
  switch (who) {
    case "owner":
      return { token: one.token };
    case "other_org":
      return { token: two.token };
    case "key_with_permission":
      return { apiKey: creds.keyWith[op.permission ?? "all"] };
    case "key_without_permission":
      return { apiKey: creds.keyWithout[op.permission ?? "bearer"] };
    case "expired_key":
      return { apiKey: creds.expiredKey };
    case "revoked_key":
      return { apiKey: creds.revokedKey };
    case "revoked_session":
      return { token: creds.revokedSession };
    case "startup_plan":
      return { token: startup.token };
  }
}

function concretePath(op: Operation, values: Partial<Ids>): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: Param) => encodeURIComponent(values[name] ?? ids[name]));
}

/** An id of the same form as a real one that no organization has. */
const neverExisted = (id: string) => `${id.includes("_") ? id.slice(0, id.indexOf("_") + 1) : ""}0matrixnotthere${Date.now().toString(36)}`;

async function call(op: Operation, who: PrincipalName, values: Partial<Ids>) {
  const entry = ENTRIES[op.key]!;
  const auth = credentialsOf(op, who);
  const all = { ...ids, ...values };
  const url = `${concretePath(op, values)}${entry.query ? `?${entry.query}` : ""}`;
  if (entry.multipart) {
    const form = new FormData();
    form.append("file", new Blob(["matrix evidence"], { type: "text/plain" }), "evidence.txt");
    return send(op.method, url, auth, { multipart: form });
  }
  if (entry.form) return send(op.method, url, auth, { form: new URLSearchParams({ username: one.email, password: PASSWORD }).toString() });
  return send(op.method, url, auth, entry.body ? { json: entry.body(all) } : {});
}

function expectErrorShape(body: unknown, what: string) {
  expect(body, what).toMatchObject({ detail: expect.any(String), error_code: expect.any(String) });
  // The spec's shape, plus `errors` on a 422 (every field error at once, the first repeated above).
  const extra = Object.keys(body as object).filter((k) => !["detail", "error_code", "field", "errors"].includes(k));
  expect(extra, `${what}: error body has only detail, error_code, field (and errors)`).toEqual([]);
}

/** Polls until a credential answers 401 (revocation reaches the gateway within a second). */
async function until401(auth: { token?: string; apiKey?: string }, probe: string) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const res = await send("GET", probe, auth);
    if (res.status === 401) return;
    if (Date.now() > deadline) throw new Error(`credential still answers ${res.status} on ${probe}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  prefix = `${unique("e2eauthz")}_`;
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir: fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-e2e-authz-")),
    logLevel: "warn",
  });
  api = new Api(system.gatewayUrl);
  bus = new KafkaBus({ clientId: unique("e2e-authz"), brokers: [inject("kafkaBrokers")], topicPrefix: prefix, logger: createLogger("e2e", "silent") });
  [one, two, startup] = [await signedUp("enterprise"), await signedUp("enterprise"), await signedUp("startup")];

  // Organization 1's resources, one of each kind the document names by id.
  ids = {} as Ids;
  ids.scan_id = await makers.scan_id();
  ids.control_id = await makers.control_id();
  for (const p of ["schedule_id", "webhook_id", "evidence_id", "audit_request_id", "session_id", "api_key_id", "target_id"] as const)
    ids[p] = await makers[p]();
  ids.delivery_id = await makers.delivery_id();
  await publish(bus, Topics.findingsDetected, [detection(one.orgId, { scanId: ids.scan_id, target: "127.0.0.1", title: unique("Matrix finding") })]);
  const deadline = Date.now() + 60_000;
  while (!ids.finding_id) {
    const list = await owner().get(`/api/v1/findings?scan_id=${ids.scan_id}`);
    ids.finding_id = list.body.items?.[0]?.id;
    if (Date.now() > deadline) throw new Error("the detection never became a finding");
    if (!ids.finding_id) await new Promise((r) => setTimeout(r, 250));
  }

  // Keys: one per permission with only it, one per permission with all the others.
  creds.keyWith = { all: (await apiKey(ALL)).key } as typeof creds.keyWith;
  creds.keyWithout = { bearer: (await apiKey(["read:scans"])).key } as typeof creds.keyWithout;
  for (const p of ALL) {
    creds.keyWith[p] = (await apiKey([p])).key;
    creds.keyWithout[p] = (await apiKey(ALL.filter((x) => x !== p))).key;
  }
  const revoked = await apiKey(ALL);
  expect((await send("GET", "/api/v1/scans", { apiKey: revoked.key })).status).toBe(200);
  expect((await owner().delete(`/api/v1/auth/api-keys/${revoked.id}`)).status).toBe(200);
  creds.revokedKey = revoked.key;
  const expiring = await apiKey(ALL, new Date(Date.now() + 3000));
  creds.expiredKey = expiring.key;
  creds.revokedSession = await login(one.email);
  expect((await owner().delete(`/api/v1/auth/sessions/${decodeJwt(creds.revokedSession).sid}`)).status).toBe(200);
  await until401({ apiKey: creds.revokedKey }, "/api/v1/scans");
  await until401({ token: creds.revokedSession }, "/api/v1/auth/sessions");
  await until401({ apiKey: creds.expiredKey }, "/api/v1/scans");
}, 240_000);

afterAll(async () => {
  const ops = OPERATIONS.length;
  process.stdout.write(`[authz-matrix] ${ops} operations × ${PRINCIPALS.length} principals: ${cases} cases run, ${leaks.length} leaks\n`);
  for (const l of leaks) process.stdout.write(`[authz-matrix] leak: ${l}\n`);
  await bus?.close();
  await system?.stop();
});

describe("the document", () => {
  it("served /openapi.json states the same operations, security, x-permission and x-plans as the route schemas", async () => {
    const served = await api.withToken(one.token).get("/openapi.json");
    expect(served.status).toBe(200);
    const strip = (d: OpenApi) => operationsOf(d).map(({ key, access, permission, gated }) => ({ key, access, permission, gated }));
    expect(strip(served.body)).toEqual(strip(builtDoc));
  });

  it("has a matrix entry for every operation, and no entry for an operation it lacks", () => {
    expect(OPERATIONS.filter((op) => !ENTRIES[op.key]).map((op) => op.key)).toEqual([]);
    expect(Object.keys(ENTRIES).filter((k) => !OPERATIONS.some((op) => op.key === k))).toEqual([]);
  });

  it("states a permission exactly for the operations that take an API key, from the six of the spec", () => {
    for (const op of OPERATIONS) {
      if (op.access === "any") expect(ALL, op.key).toContain(op.permission);
      else expect(op.permission, op.key).toBeUndefined();
    }
  });
});

for (const op of OPERATIONS) {
  describe(op.key, () => {
    // The owner's case runs last where the operation ends the owner's sessions.
    const order = ENTRIES[op.key]?.endsSessions ? [...PRINCIPALS.filter((p) => p !== "owner"), "owner" as const] : PRINCIPALS;
    for (const who of order) {
      const want = expectationFor(op, who);
      if (!want && ENTRIES[op.key]) continue;
      it(`${who} → ${want ? `${want.status[0]}${want.code ? ` ${want.code}` : ""}` : "(no entry)"}`, async () => {
        expect(want, `${op.key} has no entry in ENTRIES`).toBeDefined();
        cases++;
        const entry = ENTRIES[op.key]!;
        const succeeds = want!.status[0]! < 300;
        const values: Partial<Ids> = {};
        if (succeeds) for (const p of entry.fresh ?? []) values[p] = await makers[p]();
        const res = await call(op, who, values);
        const what = `${op.key} as ${who}`;
        if (who === "other_org" && op.params.length > 0 && res.status < 300) leaks.push(`${what} answered ${res.status}`);
        if (who === "other_org" && op.params.length > 0 && res.status === 403) leaks.push(`${what} answered 403 (reveals existence)`);
        expect(want!.status, `${what}: ${res.text.slice(0, 300)}`).toContain(res.status);
        if (!succeeds) {
          expectErrorShape(res.body, what);
          if (want!.code) expect((res.body as { error_code: string }).error_code, what).toBe(want!.code);
        }
        if (want!.likeUnknownId) {
          const unknown = Object.fromEntries(op.params.map((p) => [p, neverExisted(ids[p])]));
          const ref = await call(op, "owner", unknown);
          expect(res.body, `${what}: another organization's id answers like an id that never existed`).toEqual(ref.body);
        }
        if (who === "other_org" && op.params.length === 0) {
          // A list or create of organization 2 must show nothing of organization 1 it was not given.
          const sent = JSON.stringify(entry.body?.(ids) ?? {});
          const seen = Object.values(ids).filter((id) => res.text.includes(id) && !sent.includes(id));
          if (seen.length) leaks.push(`${what} showed ${seen.join(", ")}`);
          expect(seen, `${what} shows organization 1's ids`).toEqual([]);
        }
        if (entry.endsSessions && who === "owner") await until401({ token: one.token }, "/api/v1/auth/sessions");
      });
    }
  });
}
