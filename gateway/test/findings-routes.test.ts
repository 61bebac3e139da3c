import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { createLogger, createMetrics, type RpcServer } from "@vulnscan/kit";
import { AuthService, PlanSchema } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { ScanService } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { aiCredits, startFakeAuth, startFindings, testEnv, type TestService } from "../../services/findings/test/support.js";
import { detection as facts } from "../../services/findings/src/domain/test-fixtures.js";
import { parseCsv } from "../../services/findings/src/export/csv.js";
import { unique } from "../../test/support/names.js";
import { buildApp } from "../src/app.js";
import { TokenVerifier } from "../src/auth/token-verifier.js";
import { gatewayEnvSchema } from "../src/config.js";
import { PlanCache } from "../src/plans.js";
import { testAuthenticator } from "../src/auth/testing.js";

const guardOf = (verifier: TokenVerifier, auth: ConstructorParameters<typeof PlanCache>[0] & Parameters<typeof testAuthenticator>[0]["auth"]) => {
  const plans = new PlanCache(auth);
  return { authenticator: testAuthenticator({ verifier, auth, plans }).authenticator, plans };
};
import type { Upstreams } from "../src/upstreams.js";

/*
 * The gateway's findings routes against the real findings service (in-process, real Kafka and
 * MongoDB-protocol server). Authentication is by API keys of a fake auth upstream: org A has a
 * read-write and a read-only key, org B a read-write key.
 */
const orgA = unique("org_a");
const orgB = unique("org_b");
const KEYS: Record<string, { orgId: string; permissions: string[]; name: string }> = {
  rw_a: { orgId: orgA, permissions: ["read:findings", "write:findings"], name: "triage-bot" },
  ro_a: { orgId: orgA, permissions: ["read:findings"], name: "dashboard" },
  rw_b: { orgId: orgB, permissions: ["read:findings", "write:findings"], name: "other-org" },
};
const SCANS = new Map<string, string>(); // scan id → org id

let authServer: RpcServer;
let svc: TestService;
let app: FastifyInstance;
let idsA: string[];
let idsB: string[];

beforeAll(async () => {
  authServer = await startFakeAuth();
  svc = await startFindings(testEnv(inject("kafkaBrokers"), inject("mongoUrl"), authServer.port));
  const auth = createClient(
    AuthService,
    createRouterTransport(({ service }) =>
      service(AuthService, {
        getJwks: () => ({ keys: [], issuer: "vulnscan-auth", audience: "vulnscan-api", cacheSeconds: 300 }),
        verifyApiKey: (req) => {
          const k = KEYS[req.key];
          if (!k) throw new ConnectError("Could not validate credentials", Code.Unauthenticated);
          return { orgId: k.orgId, apiKeyId: `apikey_${req.key}`, permissions: k.permissions, name: k.name };
        },
        getPlan: () => ({
          plan: create(PlanSchema, { apiKeysEnabled: true, limits: { requestsPerHour: { unlimited: true }, requestsPerDay: { unlimited: true } } }),
        }),
      }),
    ),
  );
  const scans = createClient(
    ScanService,
    createRouterTransport(({ service }) =>
      service(ScanService, {
        getScan: (req) => {
          if (SCANS.get(req.scanId) !== req.orgId) throw new ConnectError("Scan not found", Code.NotFound);
          return { scan: { id: req.scanId } };
        },
      }),
    ),
  );
  const upstreams = { urls: {}, health: {}, auth, scans, findings: svc.client } as unknown as Upstreams;
  const verifier = new TokenVerifier(async () => ({ keys: [], issuer: "vulnscan-auth", audience: "vulnscan-api", cacheSeconds: 300 }));
  const deps = {
    config: gatewayEnvSchema.parse({}),
    logger: createLogger("findings-routes-test", "silent"),
    registry: createMetrics("findings-routes-test").registry,
    upstreams,
    guard: { ...guardOf(verifier, auth), limiter: { hit: async () => undefined } },
  };
  app = await buildApp(deps);
  await app.ready();

  for (const s of ["scan_1", "scan_2", "scan_0"]) SCANS.set(`${orgA}_${s}`, orgA);
  const seed = async (org: string, n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = await svc.app.ingest(
        facts({
          detection_id: `${org}-${i}`,
          org_id: org,
          scan_id: `${org}_scan_${i % 3}`,
          template_id: `check-${i}`,
          title: i === 1 ? "=2+5" : `Finding ${i}`,
          severity: (["critical", "high", "medium", "low", "info"] as const)[i % 5],
          cvss_score: ((i * 13) % 100) / 10,
          tool: i % 2 ? "nuclei" : "tls",
          cve_ids: i === 2 ? ["CVE-2021-44228"] : [],
          epss_score: i === 3 ? null : 0.1,
          // One finding from a version match whose distribution revision was not resolved; one from an older scanner.
          confidence: i === 4 ? "version_match_unverified_backport" : i === 5 ? "" : "confirmed",
        }),
      );
      ids.push(r.findingId);
    }
    return ids;
  };
  idsA = await seed(orgA, 12);
  idsB = await seed(orgB, 2);
});
afterAll(async () => {
  await app?.close();
  await svc?.running.stop();
  await authServer?.close();
});

type Method = "GET" | "POST" | "PATCH";
const call = (key: string, method: Method, url: string, payload?: unknown) =>
  app.inject({ method, url, headers: { "x-api-key": key }, ...(payload !== undefined ? { payload: payload as object } : {}) });

describe("GET /api/v1/findings", () => {
  it("returns the pagination envelope with the spec's list items", async () => {
    const res = await call("ro_a", "GET", "/api/v1/findings?per_page=5&page=2");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 12, page: 2, per_page: 5, pages: 3 });
    expect(body.items).toHaveLength(5);
    expect(Object.keys(body.items[0]).sort()).toEqual(
      [
        "id",
        "title",
        "severity",
        "status",
        "cvss_score",
        "epss_score",
        "target",
        "affected_component",
        "tool",
        "template_id",
        "cve_ids",
        "cwe_ids",
        "scan_id",
        "detected_at",
        "frameworks",
        "confidence",
        // Added to the spec's fields (issue 28): the deadline and where its SLA stands.
        "due_date",
        "sla_state",
      ].sort(),
    );
    expect(body.items[0].frameworks).toEqual(["pci_dss"]);
  });

  it("applies filters and sorts", async () => {
    const crit = (await call("ro_a", "GET", "/api/v1/findings?severity=critical")).json();
    expect(crit.items.every((f: { severity: string }) => f.severity === "critical")).toBe(true);
    expect(crit.total).toBe(3);
    const cve = (await call("ro_a", "GET", "/api/v1/findings?cve=cve-2021-44228")).json();
    expect(cve.items.map((f: { id: string }) => f.id)).toEqual([idsA[2]]);
    const sorted = (await call("ro_a", "GET", "/api/v1/findings?sort=cvss_score&order=asc&per_page=100")).json();
    const scores = sorted.items.map((f: { cvss_score: number }) => f.cvss_score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => a - b));
    expect((await call("ro_a", "GET", "/api/v1/findings?status=accepted")).json().total).toBe(0);
    const unverified = (await call("ro_a", "GET", "/api/v1/findings?confidence=version_match_unverified_backport")).json();
    expect(unverified.items.map((f: { id: string; confidence: string }) => [f.id, f.confidence])).toEqual([[idsA[4], "version_match_unverified_backport"]]);
    expect(unverified.total).toBe(1);
    expect((await call("ro_a", "GET", "/api/v1/findings?confidence=confirmed")).json().total).toBe(10);
    const older = (await call("ro_a", "GET", `/api/v1/findings/${idsA[5]}`)).json();
    expect(older.confidence).toBeNull();
    expect((await call("ro_a", "GET", "/api/v1/findings?confidence=probably")).statusCode).toBe(422);
  });

  it("walks deep pages with the keyset cursor: the same rows as page numbers, page counted on, no cursor after the last", async () => {
    for (const qs of ["", "&sort=severity&order=desc", "&sort=cvss_score&order=asc&tool=nuclei"]) {
      const byNumber: string[] = [];
      for (let page = 1; page <= 4; page++)
        byNumber.push(...(await call("ro_a", "GET", `/api/v1/findings?per_page=5&page=${page}${qs}`)).json().items.map((f: { id: string }) => f.id));
      const walked: string[] = [];
      let body = (await call("ro_a", "GET", `/api/v1/findings?per_page=5${qs}`)).json();
      const pages: number[] = [body.page];
      walked.push(...body.items.map((f: { id: string }) => f.id));
      while (body.next_cursor) {
        body = (await call("ro_a", "GET", `/api/v1/findings?per_page=5${qs}&cursor=${encodeURIComponent(body.next_cursor)}`)).json();
        pages.push(body.page);
        walked.push(...body.items.map((f: { id: string }) => f.id));
      }
      expect(walked, qs).toEqual(byNumber);
      expect(pages).toEqual(pages.map((_, i) => i + 1));
      expect(body).toMatchObject({ total: byNumber.length, next_cursor: null });
    }
    const first = (await call("ro_a", "GET", "/api/v1/findings?per_page=5")).json();
    const other = await call("ro_a", "GET", `/api/v1/findings?per_page=5&severity=high&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ error_code: "VALIDATION_ERROR", field: "cursor" });
    const bad = await call("ro_a", "GET", "/api/v1/findings?cursor=not-a-cursor");
    expect(bad.statusCode).toBe(422);
    expect(bad.json().field).toBe("cursor");
    // Another organization's cursor lists nothing of ours: it is bound to that organization's query.
    expect((await call("rw_b", "GET", `/api/v1/findings?per_page=5&cursor=${encodeURIComponent(first.next_cursor)}`)).statusCode).toBe(422);
  });

  it("refuses bad query values with 422 naming the field", async () => {
    for (const [qs, field] of [
      ["per_page=101", "per_page"],
      ["per_page=0", "per_page"],
      ["page=0", "page"],
      ["page=99999999999999999999", "page"],
      ["page=100001", "page"],
      ["severity=severe", "severity"],
      ["status=closed", "status"],
      ["sort=title", "sort"],
      ["order=up", "order"],
      ["colour=red", "colour"],
    ]) {
      const res = await call("ro_a", "GET", `/api/v1/findings?${qs}`);
      expect(res.statusCode, qs).toBe(422);
      expect(res.json(), qs).toMatchObject({ error_code: "VALIDATION_ERROR", field });
    }
  });
});

describe("finding detail, update and comments", () => {
  it("shows the detail shape", async () => {
    const res = await call("ro_a", "GET", `/api/v1/findings/${idsA[0]}`);
    expect(res.statusCode).toBe(200);
    const f = res.json();
    expect(f).toMatchObject({
      id: idsA[0],
      cvss_vector: expect.any(String),
      impact: "Traffic can be decrypted.",
      remediation: { summary: "Disable 3DES", steps: ["Edit ssl_ciphers"], code_example: "ssl_ciphers HIGH:!3DES;", references: ["https://sweet32.info"] },
      evidence: { request: "ClientHello", response: "ServerHello 3DES", screenshot_url: null },
      frameworks: [{ name: "pci_dss", controls: ["4.2.1"] }],
      comments: [],
      history: [{ action: "created", from: null, to: "open", user: "system", timestamp: expect.any(String) }],
    });
    expect((await call("ro_a", "GET", `/api/v1/findings/${idsA[3]}`)).json().epss_score).toBeNull();
  });

  it("PATCH answers id, status, assignee, updated_at and records the API key's name", async () => {
    const res = await call("rw_a", "PATCH", `/api/v1/findings/${idsA[0]}`, {
      status: "in_progress",
      assignee: "bob@a.test",
      priority: "high",
      due_date: "2026-03-01T00:00:00Z",
      notes: "n",
    });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(["assignee", "id", "status", "updated_at"]);
    expect(res.json()).toMatchObject({ id: idsA[0], status: "in_progress", assignee: "bob@a.test" });
    const f = (await call("ro_a", "GET", `/api/v1/findings/${idsA[0]}`)).json();
    expect(f).toMatchObject({ priority: "high", due_date: "2026-03-01T00:00:00.000Z", notes: "n" });
    expect(f.history.slice(1).map((h: { action: string; user: string }) => `${h.action}:${h.user}`)).toEqual([
      "status_changed:triage-bot",
      "assignee_changed:triage-bot",
      "priority_changed:triage-bot",
      "due_date_changed:triage-bot",
      "notes_changed:triage-bot",
    ]);
    const cleared = await call("rw_a", "PATCH", `/api/v1/findings/${idsA[0]}`, { assignee: null, priority: null, due_date: null });
    expect(cleared.json().assignee).toBeNull();
    // A cleared due date goes back to the organization's SLA policy (issue 28): no longer the person's.
    const after = (await call("ro_a", "GET", `/api/v1/findings/${idsA[0]}`)).json();
    expect(after).toMatchObject({ priority: null, assignee: "" });
    expect(after.due_date_source).not.toBe("user");
  });

  it("PATCH refuses invalid values (422 with field), unknown fields and read-only keys", async () => {
    for (const [body, field] of [
      [{ status: "closed" }, "status"],
      [{ priority: "urgent" }, "priority"],
      [{ due_date: "next week" }, "due_date"],
      [{ owner: "x" }, "owner"],
      [{ notes: "x".repeat(10_001) }, "notes"],
      [{ assignee: ["a", "b"] }, "assignee"],
    ] as const) {
      const res = await call("rw_a", "PATCH", `/api/v1/findings/${idsA[1]}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().field, JSON.stringify(body)).toBe(field);
    }
    const ro = await call("ro_a", "PATCH", `/api/v1/findings/${idsA[1]}`, { status: "resolved" });
    expect(ro.statusCode).toBe(403);
    expect(ro.json()).toEqual({ detail: "This API key lacks the write:findings permission", error_code: "FORBIDDEN" });
  });

  it("POST comments answers 201 with the comment resource", async () => {
    const res = await call("rw_a", "POST", `/api/v1/findings/${idsA[1]}/comments`, { text: "Confirmed on staging" });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.stringMatching(/^comment_/),
      finding_id: idsA[1],
      user: "triage-bot",
      text: "Confirmed on staging",
      created_at: expect.any(String),
    });
    const bad = await call("rw_a", "POST", `/api/v1/findings/${idsA[1]}/comments`, { text: "" });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().field).toBe("text");
    expect((await call("rw_a", "POST", `/api/v1/findings/${idsA[1]}/comments`, { text: "   " })).json().field).toBe("text");
  });
});

describe("bulk, stats and scan findings", () => {
  it("bulk-updates and reports other organizations' ids as NOT_FOUND", async () => {
    const res = await call("rw_a", "POST", "/api/v1/findings/bulk", {
      finding_ids: [idsA[5], idsA[6], idsB[0]],
      update: {
        status: "accepted",
        notes: "risk accepted by CISO",
        acceptance: { expires_at: new Date(Date.now() + 90 * 24 * 3600_000).toISOString(), justification: "Signed off by the CISO" },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ updated: 2, failed: [{ finding_id: idsB[0], error_code: "NOT_FOUND", detail: "Finding not found" }] });
    expect((await call("rw_b", "GET", `/api/v1/findings/${idsB[0]}`)).json().status).toBe("open");
    const tooMany = await call("rw_a", "POST", "/api/v1/findings/bulk", {
      finding_ids: Array.from({ length: 1001 }, (_, i) => `finding_${i}`),
      update: { status: "open" },
    });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().field).toBe("finding_ids");
    const empty = await call("rw_a", "POST", "/api/v1/findings/bulk", { finding_ids: [idsA[5]], update: {} });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().field).toBe("update");
    expect((await call("rw_a", "POST", "/api/v1/findings/bulk", { finding_ids: [idsA[5]], update: { status: "done" } })).json().field).toBe("update.status");
  });

  it("answers stats in the spec's shape and refuses bad dates", async () => {
    const res = await call("ro_a", "GET", "/api/v1/findings/stats");
    expect(res.statusCode).toBe(200);
    const s = res.json();
    expect(Object.keys(s.by_severity)).toEqual(["critical", "high", "medium", "low", "info"]);
    expect(Object.keys(s.by_status)).toEqual(["open", "in_progress", "resolved", "false_positive", "accepted"]);
    expect(s.total).toBe(12);
    expect(s.by_severity.info).toBe(2);
    expect(s.by_tool).toEqual({ nuclei: 6, tls: 6 });
    expect(Object.keys(s.trends).sort()).toEqual(["average_resolution_days", "new_this_week", "resolved_this_week"]);
    expect(s.sla).toEqual({ breached: expect.any(Number), at_risk: expect.any(Number) });
    expect((await call("ro_a", "GET", "/api/v1/findings/stats?from_date=2999-01-01")).json().total).toBe(0);
    const bad = await call("ro_a", "GET", "/api/v1/findings/stats?from_date=yesterday");
    expect(bad.statusCode).toBe(422);
    expect(bad.json().field).toBe("from_date");
    // Whatever the schema (and so the OpenAPI document) accepts is served: a date-time with a
    // leap second and an offset too.
    for (const from of ["2026-01-31", "2026-06-30T23:59:60Z", "2026-01-01T10:00:00.5+02:00"]) {
      expect((await call("ro_a", "GET", `/api/v1/findings/stats?from_date=${encodeURIComponent(from)}`)).statusCode, from).toBe(200);
    }
    expect((await call("ro_a", "GET", "/api/v1/findings/stats?to_date=2026-02-30")).json()).toMatchObject({ field: "to_date" });
  });

  it("lists a scan's findings as items and total; unknown or foreign scans are 404", async () => {
    const res = await call("ro_a", "GET", `/api/v1/scans/${orgA}_scan_1/findings`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(["items", "total"]);
    expect(body.total).toBe(4);
    expect(Object.keys(body.items[0]).sort()).toEqual(
      [
        "id",
        "title",
        "severity",
        "cvss_score",
        "status",
        "tool",
        "affected_component",
        "description",
        "remediation",
        "cve_ids",
        "detected_at",
        "confidence",
      ].sort(),
    );
    expect(body.items[0].remediation).toBe("Disable 3DES");
    // Confidence as the findings list gives it: the unresolved backport on scan 1, null for the older scanner's finding on scan 2.
    const confidences = (items: { id: string; confidence: string | null }[]) => Object.fromEntries(items.map((f) => [f.id, f.confidence]));
    expect(confidences(body.items)).toEqual({
      [idsA[1]!]: "confirmed",
      [idsA[4]!]: "version_match_unverified_backport",
      [idsA[7]!]: "confirmed",
      [idsA[10]!]: "confirmed",
    });
    expect(confidences((await call("ro_a", "GET", `/api/v1/scans/${orgA}_scan_2/findings`)).json().items)[idsA[5]!]).toBeNull();
    expect(
      (await call("ro_a", "GET", `/api/v1/scans/${orgA}_scan_1/findings?severity=high`)).json().items.every((f: { severity: string }) => f.severity === "high"),
    ).toBe(true);
    expect((await call("ro_a", "GET", `/api/v1/scans/${orgA}_scan_1/findings?status=accepted`)).statusCode).toBe(422);
    expect((await call("ro_a", "GET", "/api/v1/scans/scan_nope/findings")).statusCode).toBe(404);
    expect((await call("rw_b", "GET", `/api/v1/scans/${orgA}_scan_1/findings`)).statusCode).toBe(404);
  });
});

describe("export", () => {
  it("streams CSV as an attachment, equal to the list", async () => {
    const res = await call("ro_a", "GET", "/api/v1/findings/export?format=csv&sort=severity");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="findings-${new Date().toISOString().slice(0, 10)}.csv"`);
    const rows = parseCsv(res.body);
    const list = (await call("ro_a", "GET", "/api/v1/findings?sort=severity&per_page=100")).json().items as Record<string, unknown>[];
    const header = rows[0]!;
    const asCsv = (v: unknown) => (v === null ? "" : Array.isArray(v) ? v.join("; ") : String(v));
    const expected = list.map((item) => header.map((c) => asCsv(item[c])).map((v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v)));
    expect(rows.slice(1)).toEqual(expected);
    expect(rows.slice(1).some((r) => r[1] === "'=2+5")).toBe(true);
  });

  it("streams JSON equal to the findings' details", async () => {
    const res = await call("ro_a", "GET", "/api/v1/findings/export?format=json&severity=high");
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    const items = res.json() as { id: string }[];
    const list = (await call("ro_a", "GET", "/api/v1/findings?severity=high")).json().items as { id: string }[];
    expect(items.map((i) => i.id)).toEqual(list.map((i) => i.id));
    for (const item of items) expect(item).toEqual((await call("ro_a", "GET", `/api/v1/findings/${item.id}`)).json());
  });

  it("streams a PDF that opens, and refuses an unknown format with 422 on `format`", async () => {
    const res = await call("ro_a", "GET", "/api/v1/findings/export?format=pdf");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="findings-\d{4}-\d{2}-\d{2}\.pdf"$/);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    try {
      const dir = mkdtempSync(join(tmpdir(), "findings-pdf-"));
      writeFileSync(join(dir, "r.pdf"), res.rawPayload);
      expect(execFileSync("pdfinfo", [join(dir, "r.pdf")]).toString()).toMatch(/Pages:\s+1/);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err; // poppler-utils not installed: the header check stands
    }
    const bad = await call("ro_a", "GET", "/api/v1/findings/export?format=xml");
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ error_code: "VALIDATION_ERROR", field: "format" });
  });
});

describe("AI guidance", () => {
  it("answers the spec's shape and 429 AI_QUOTA_EXCEEDED once the credits are used", async () => {
    aiCredits.set(orgA, { unlimited: false, max: 1 });
    const res = await call("ro_a", "GET", `/api/v1/findings/${idsA[0]}/ai-analysis`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ finding_id: idsA[0], ai_credits_used: 1, ai_credits_remaining: 0 });
    expect(Object.keys(body.ai_analysis).sort()).toEqual(
      [
        "ansible_playbook_id",
        "attack_scenarios",
        "automation_available",
        "recommended_actions",
        "remediation_priority",
        "risk_assessment",
        "category",
        "source",
        "source_detail",
      ].sort(),
    );
    expect(body.ai_analysis).toMatchObject({ ansible_playbook_id: "tls-hardening", category: "weak-transport", source: "builtin" });
    const over = await call("ro_a", "GET", `/api/v1/findings/${idsA[1]}/ai-analysis`);
    expect(over.statusCode).toBe(429);
    expect(over.json().error_code).toBe("AI_QUOTA_EXCEEDED");
  });
});

describe("isolation between organizations", () => {
  it("answers 404 for another organization's finding on every endpoint, and changes nothing", async () => {
    const foreign = idsA[7]!;
    const before = (await call("ro_a", "GET", `/api/v1/findings/${foreign}`)).json();
    const attempts: [Method, string, unknown?][] = [
      ["GET", `/api/v1/findings/${foreign}`],
      ["PATCH", `/api/v1/findings/${foreign}`, { status: "resolved" }],
      ["POST", `/api/v1/findings/${foreign}/comments`, { text: "mine now" }],
      ["GET", `/api/v1/findings/${foreign}/ai-analysis`],
    ];
    for (const [method, url, body] of attempts) {
      const res = await call("rw_b", method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json(), `${method} ${url}`).toEqual({ detail: "Finding not found", error_code: "NOT_FOUND" });
    }
    const bulk = await call("rw_b", "POST", "/api/v1/findings/bulk", { finding_ids: [foreign], update: { status: "resolved" } });
    expect(bulk.json()).toEqual({ updated: 0, failed: [{ finding_id: foreign, error_code: "NOT_FOUND", detail: "Finding not found" }] });
    const listB = (await call("rw_b", "GET", "/api/v1/findings?per_page=100")).json();
    expect(listB.items.map((f: { id: string }) => f.id).sort()).toEqual([...idsB].sort());
    expect((await call("rw_b", "GET", "/api/v1/findings/stats")).json().total).toBe(2);
    const exportB = parseCsv((await call("rw_b", "GET", "/api/v1/findings/export?format=csv")).body);
    expect(
      exportB
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual([...idsB].sort());
    expect((await call("ro_a", "GET", `/api/v1/findings/${foreign}`)).json()).toEqual(before);
  });

  it("documents every findings route in the OpenAPI description", async () => {
    const doc = (await call("ro_a", "GET", "/openapi.json")).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/findings",
        "/api/v1/findings/stats",
        "/api/v1/findings/export",
        "/api/v1/findings/bulk",
        "/api/v1/findings/{finding_id}",
        "/api/v1/findings/{finding_id}/comments",
        "/api/v1/findings/{finding_id}/ai-analysis",
        "/api/v1/scans/{scan_id}/findings",
      ]),
    );
  });
});
