import { Code, ConnectError } from "@connectrpc/connect";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createMongo, errorInfoOf, type RpcServer } from "@vulnscan/kit";
import {
  ExportFormat,
  FindingSortField,
  FindingStatus,
  Priority,
  Severity,
  SortOrder,
  type Finding,
} from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { CSV_COLUMNS, parseCsv } from "../src/export/csv.js";
import { detection as facts } from "../src/domain/test-fixtures.js";
import { SEVERITIES, STATUSES, type DetectionFacts } from "../src/domain/types.js";
import { listQuery } from "../src/domain/list.js";
import { FindingReads } from "../src/storage/finding-reads.js";
import { listVersions } from "../src/storage/cached-lists.js";
import { indexSearch } from "../src/storage/search-index.js";
import { aiCredits, startFakeAuth, startFindings, testEnv, type TestService } from "./support.js";

let auth: RpcServer;
let svc: TestService;
const alice = { userId: "user_1", displayName: "alice@a.test" };
const bot = { apiKeyId: "apikey_1", displayName: "ci-bot" };

beforeAll(async () => {
  auth = await startFakeAuth();
  svc = await startFindings(testEnv(inject("kafkaBrokers"), inject("mongoUrl"), auth.port));
});
afterAll(async () => {
  await svc?.running.stop();
  await auth?.close();
});

async function rpcError(p: Promise<unknown>): Promise<{ code: Code; errorCode?: string; field?: string }> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, ...errorInfoOf(e) };
  }
  throw new Error("expected the call to fail");
}

const sevs = SEVERITIES;
/** Seeds n findings with varied facts through the ingestion use case (no Kafka needed here). */
async function seed(org: string, n: number, over: (i: number) => Partial<DetectionFacts> = () => ({})): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await svc.app.ingest(
      facts({
        detection_id: `${org}-${i}`,
        org_id: org,
        scan_id: `scan_${i % 3}`,
        target: i % 2 ? "a.example.test" : "b.example.test",
        template_id: `check-${i}`,
        title: `Finding ${i}`,
        severity: sevs[i % 5]!,
        cvss_score: ((i * 37) % 100) / 10,
        tool: ["nuclei", "nmap", "tls"][i % 3]!,
        cve_ids: i % 4 === 0 ? [`CVE-2024-${1000 + i}`] : [],
        detected_at: new Date(Date.now() - (n - i) * 1000),
        ...over(i),
      }),
    );
    ids.push(res.findingId);
  }
  return ids;
}

async function all(org: string): Promise<Finding[]> {
  const out: Finding[] = [];
  for (let page = 1; ; page++) {
    const r = await svc.client.listFindings({ orgId: org, pagination: { page, perPage: 100 } });
    out.push(...r.findings);
    if (page >= (r.pageInfo?.pages ?? 0)) return out;
  }
}

/** A move to accepted carries an expiry and a justification (issue 28). */
const acceptance = { expiresAt: timestampFromDate(new Date(Date.now() + 30 * 24 * 3600_000)), justification: "Risk owner signed off" };

describe("listing", () => {
  const org = unique("org");
  let ids: string[];
  beforeAll(async () => {
    ids = await seed(org, 25);
    await svc.client.updateFinding({ orgId: org, findingId: ids[3]!, status: FindingStatus.ACCEPTED, acceptance, actor: alice });
    await svc.client.updateFinding({ orgId: org, findingId: ids[4]!, status: FindingStatus.IN_PROGRESS, actor: alice });
  });

  it("pages newest first by default with the envelope facts", async () => {
    const r = await svc.client.listFindings({ orgId: org, pagination: { page: 2, perPage: 10 } });
    expect(r.pageInfo).toMatchObject({ total: 25, page: 2, perPage: 10, pages: 3 });
    expect(r.findings.map((f) => f.id)).toEqual([...ids].reverse().slice(10, 20));
    expect(r.findings[0]!.comments).toEqual([]);
    expect(r.findings[0]!.history).toEqual([]);
    const clamped = await svc.client.listFindings({ orgId: org, pagination: { page: 0, perPage: 500 } });
    expect(clamped.pageInfo).toMatchObject({ page: 1, perPage: 100, pages: 1 });
    expect((await svc.client.listFindings({ orgId: org, pagination: { page: 9, perPage: 10 } })).findings).toEqual([]);
  });

  it("filters by severity, status (accepted too), scan, target, tool and CVE", async () => {
    const every = await all(org);
    const check = async (filter: object, pick: (f: Finding) => boolean) => {
      const r = await svc.client.listFindings({ orgId: org, filter, pagination: { perPage: 100 } });
      expect(r.findings.map((f) => f.id).sort(), JSON.stringify(filter)).toEqual(
        every
          .filter(pick)
          .map((f) => f.id)
          .sort(),
      );
      expect(r.pageInfo?.total).toBe(every.filter(pick).length);
    };
    await check({ severity: Severity.CRITICAL }, (f) => f.severity === Severity.CRITICAL);
    await check({ status: FindingStatus.ACCEPTED }, (f) => f.status === FindingStatus.ACCEPTED);
    await check({ status: FindingStatus.OPEN, severity: Severity.HIGH }, (f) => f.status === FindingStatus.OPEN && f.severity === Severity.HIGH);
    await check({ scanId: "scan_1" }, (f) => f.scanId === "scan_1");
    await check({ target: "a.example.test" }, (f) => f.target === "a.example.test");
    await check({ tool: "nmap" }, (f) => f.tool === "nmap");
    await check({ cve: "cve-2024-1008" }, (f) => f.cveIds.includes("CVE-2024-1008"));
    expect((await svc.client.listFindings({ orgId: org, filter: { cve: "CVE-1999-0001" } })).pageInfo?.total).toBe(0);
  });

  it("sorts by severity, created_at and cvss_score in both orders", async () => {
    const every = await all(org);
    const created = (f: Finding) => f.id;
    const cases: [FindingSortField, SortOrder, (a: Finding, b: Finding) => number][] = [
      [FindingSortField.SEVERITY, SortOrder.DESC, (a, b) => a.severity - b.severity || created(b).localeCompare(created(a))],
      [FindingSortField.SEVERITY, SortOrder.ASC, (a, b) => b.severity - a.severity || created(a).localeCompare(created(b))],
      [FindingSortField.CVSS_SCORE, SortOrder.DESC, (a, b) => b.cvssScore - a.cvssScore || created(b).localeCompare(created(a))],
      [FindingSortField.CVSS_SCORE, SortOrder.ASC, (a, b) => a.cvssScore - b.cvssScore || created(a).localeCompare(created(b))],
      [FindingSortField.CREATED_AT, SortOrder.ASC, (a, b) => created(a).localeCompare(created(b))],
      [FindingSortField.CREATED_AT, SortOrder.DESC, (a, b) => created(b).localeCompare(created(a))],
    ];
    for (const [sort, order, cmp] of cases) {
      const got: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const r = await svc.client.listFindings({ orgId: org, sort, order, pagination: { page, perPage: 10 } });
        got.push(...r.findings.map((f) => f.id));
      }
      expect(got, `${sort}/${order}`).toEqual([...every].sort(cmp).map((f) => f.id));
    }
  });

  it("reaches deep pages by hops on the index with the same result as a plain skip", async () => {
    const reads = new FindingReads(svc.store.findings, { maxSkip: 3, hop: 4 });
    for (const [field, order] of [
      ["created_at", "desc"],
      ["severity", "desc"],
      ["cvss_score", "asc"],
    ] as const) {
      const q = listQuery({}, field, order);
      const full = (await reads.page(org, q, 0, 100)).map((f) => f._id);
      expect(full).toHaveLength(25);
      for (let offset = 0; offset < 26; offset += 1) {
        const page = (await reads.page(org, q, offset, 3)).map((f) => f._id);
        expect(page, `${field} ${order} @${offset}`).toEqual(full.slice(offset, offset + 3));
      }
    }
  });

  it("refuses UNSPECIFIED enum filters and sort values with the field named", async () => {
    expect(await rpcError(svc.client.listFindings({ orgId: org, filter: { severity: Severity.UNSPECIFIED } }))).toEqual({
      code: Code.InvalidArgument,
      errorCode: "VALIDATION_ERROR",
      field: "severity",
    });
    expect((await rpcError(svc.client.listFindings({ orgId: org, filter: { status: 42 as FindingStatus } }))).field).toBe("status");
    expect((await rpcError(svc.client.listFindings({ orgId: org, sort: FindingSortField.UNSPECIFIED }))).field).toBe("sort");
    expect((await rpcError(svc.client.listFindings({ orgId: "" }))).field).toBe("org_id");
  });

  it("lists one scan's findings in detection order with severity and status filters", async () => {
    const r = await svc.client.listScanFindings({ orgId: org, scanId: "scan_1" });
    expect(r.total).toBe(8);
    expect(r.findings.map((f) => f.id)).toEqual(ids.filter((_, i) => i % 3 === 1));
    expect(
      (await svc.client.listScanFindings({ orgId: org, scanId: "scan_1", severity: Severity.HIGH })).findings.every((f) => f.severity === Severity.HIGH),
    ).toBe(true);
    expect((await svc.client.listScanFindings({ orgId: org, scanId: "scan_1", status: FindingStatus.IN_PROGRESS })).findings.map((f) => f.id)).toEqual([
      ids[4],
    ]);
    expect((await svc.client.listScanFindings({ orgId: unique("org"), scanId: "scan_1" })).total).toBe(0);
  });
});

describe("search", () => {
  const org = unique("org");
  const other = unique("org");
  beforeAll(async () => {
    const facts = [
      {
        title: "Redis reachable without authentication",
        affected_component: "redis://10.231.0.5:6379",
        template_id: "redis-unauth",
        cve_ids: ["CVE-2022-0543"],
        severity: "critical" as const,
      },
      { title: "TLS 1.0 enabled", affected_component: "https://app.example.test:443", template_id: "tls-legacy", cve_ids: [], severity: "medium" as const },
      {
        title: "Outdated OpenSSH",
        affected_component: "ssh://10.231.0.7:22",
        template_id: "openssh-version",
        cve_ids: ["CVE-2023-38408"],
        severity: "high" as const,
      },
      { title: "Directory listing", affected_component: "https://app.example.test/files/", template_id: "dir-listing", cve_ids: [], severity: "low" as const },
    ];
    await seed(org, facts.length, (i) => facts[i]!);
    await seed(other, 1, () => facts[0]!);
  });

  const found = async (search: string, extra: object = {}) => {
    const r = await svc.client.listFindings({ orgId: org, filter: { search, ...extra }, pagination: { perPage: 100 } });
    expect(r.pageInfo?.total, search).toBe(r.findings.length);
    return r.findings.map((f) => f.title);
  };

  it("finds findings whose title, component, CVE ids or template contain every word, case-insensitively, in this organization only", async () => {
    expect(await found("REDIS")).toEqual(["Redis reachable without authentication"]);
    expect(await found("10.231")).toEqual(["Outdated OpenSSH", "Redis reachable without authentication"]);
    expect(await found("cve-2023-384")).toEqual(["Outdated OpenSSH"]);
    expect(await found("legacy")).toEqual(["TLS 1.0 enabled"]);
    expect(await found("app.example files")).toEqual(["Directory listing"]);
    expect(await found("redis ssh")).toEqual([]);
    // With another filter and the severity sort (the console's default): the org_search_severity index.
    const bySeverity = await svc.client.listFindings({
      orgId: org,
      filter: { search: "10.231" },
      sort: FindingSortField.SEVERITY,
      order: SortOrder.DESC,
    });
    expect(bySeverity.findings.map((f) => f.severity)).toEqual([Severity.CRITICAL, Severity.HIGH]);
    expect(await found("10.231", { severity: Severity.HIGH })).toEqual(["Outdated OpenSSH"]);
  });

  it("indexes findings stored before search existed with the operator's index-search", async () => {
    const coll = svc.store.findings;
    // The admin command's operation (npm run admin -- index-search --org …), on its own connection as the CLI has.
    const mongo = createMongo(inject("mongoUrl"), coll.dbName, "findings");
    try {
      await coll.updateMany({ org_id: org }, { $unset: { search_text: "", search_keys: "" } });
      // Written behind the service's back: moved as the service's own writes move it, so lists kept in memory are read again.
      await listVersions(mongo.db).bump([org]);
      expect(await found("redis")).toEqual([]);
      expect(await indexSearch(mongo.db, org)).toEqual({ findings: 4, updated: 4 });
      expect(await found("redis")).toEqual(["Redis reachable without authentication"]);
      expect(await indexSearch(mongo.db, org)).toEqual({ findings: 4, updated: 0 });
    } finally {
      await mongo.close();
    }
  });

  it("refuses a search without a word of 3 characters, naming the field", async () => {
    expect(await rpcError(svc.client.listFindings({ orgId: org, filter: { search: "ab c" } }))).toMatchObject({
      code: Code.InvalidArgument,
      errorCode: "VALIDATION_ERROR",
      field: "search",
    });
  });
});

describe("detail, triage, comments and bulk", () => {
  const org = unique("org");
  const other = unique("org");
  let ids: string[];
  let foreign: string[];
  beforeAll(async () => {
    ids = await seed(org, 6);
    foreign = await seed(other, 2);
  });

  it("shows the full detail and answers NOT_FOUND for unknown ids and other organizations' findings", async () => {
    const f = (await svc.client.getFinding({ orgId: org, findingId: ids[0]! })).finding!;
    expect(f).toMatchObject({
      cvssVector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N",
      impact: "Traffic can be decrypted.",
      remediation: { summary: "Disable 3DES", steps: ["Edit ssl_ciphers"], codeExample: "ssl_ciphers HIGH:!3DES;", references: ["https://sweet32.info"] },
      evidence: { request: "ClientHello", response: "ServerHello 3DES" },
      frameworks: [{ name: "pci_dss", controls: ["4.2.1"] }],
      epssScore: 0.02,
    });
    expect(f.evidence!.screenshotUrl).toBeUndefined();
    expect(await rpcError(svc.client.getFinding({ orgId: org, findingId: "finding_nope" }))).toEqual({ code: Code.NotFound, errorCode: "NOT_FOUND" });
    expect((await rpcError(svc.client.getFinding({ orgId: org, findingId: foreign[0]! }))).code).toBe(Code.NotFound);
  });

  it("updates status, assignee, priority, due date and notes, recording each change with the actor", async () => {
    const due = new Date("2026-03-01T00:00:00Z");
    // The SLA policy gave it a due date at creation (high: 30 days from detection); a person's date replaces it.
    const policyDue = (await svc.client.getFinding({ orgId: org, findingId: ids[1]! })).finding!.dueDate!;
    const r = await svc.client.updateFinding({
      orgId: org,
      findingId: ids[1]!,
      status: FindingStatus.IN_PROGRESS,
      assignee: "bob@a.test",
      priority: Priority.HIGH,
      dueDate: timestampFromDate(due),
      notes: "on it",
      actor: alice,
    });
    expect(r.finding).toMatchObject({ id: ids[1], status: FindingStatus.IN_PROGRESS, assignee: "bob@a.test", priority: Priority.HIGH, notes: "on it" });
    expect(timestampDate(r.finding!.dueDate!)).toEqual(due);
    const f = (await svc.client.getFinding({ orgId: org, findingId: ids[1]! })).finding!;
    expect(f.history.slice(1).map((h) => [h.action, h.from ?? null, h.to, h.user])).toEqual([
      ["status_changed", "open", "in_progress", "alice@a.test"],
      ["assignee_changed", null, "bob@a.test", "alice@a.test"],
      ["priority_changed", null, "high", "alice@a.test"],
      ["due_date_changed", timestampDate(policyDue).toISOString(), "2026-03-01T00:00:00.000Z", "alice@a.test"],
      ["notes_changed", null, "on it", "alice@a.test"],
    ]);
    // Clearing, by an API key.
    const cleared = await svc.client.updateFinding({
      orgId: org,
      findingId: ids[1]!,
      clearDueDate: true,
      priority: Priority.UNSPECIFIED,
      assignee: "",
      actor: bot,
    });
    expect(cleared.finding).toMatchObject({ assignee: "", priority: Priority.UNSPECIFIED });
    // Cleared, the due date is the SLA policy's again (issue 28), no longer the person's.
    expect(cleared.finding!.dueDateSource).not.toBe("user");
    expect(cleared.finding!.dueDate && timestampDate(cleared.finding!.dueDate).toISOString()).not.toBe("2026-03-01T00:00:00.000Z");
    const after = (await svc.client.getFinding({ orgId: org, findingId: ids[1]! })).finding!;
    expect(after.history.slice(-3).every((h) => h.user === "ci-bot")).toBe(true);
  });

  it("refuses invalid updates with the field named, and never touches another organization's finding", async () => {
    expect(await rpcError(svc.client.updateFinding({ orgId: org, findingId: ids[2]!, status: FindingStatus.UNSPECIFIED }))).toMatchObject({
      code: Code.InvalidArgument,
      field: "status",
    });
    expect((await rpcError(svc.client.updateFinding({ orgId: org, findingId: ids[2]!, priority: 9 as Priority }))).field).toBe("priority");
    expect(
      (await rpcError(svc.client.updateFinding({ orgId: org, findingId: ids[2]!, clearDueDate: true, dueDate: timestampFromDate(new Date()) }))).field,
    ).toBe("due_date");
    const before = (await svc.client.getFinding({ orgId: other, findingId: foreign[0]! })).finding!;
    expect((await rpcError(svc.client.updateFinding({ orgId: org, findingId: foreign[0]!, status: FindingStatus.RESOLVED, actor: alice }))).code).toBe(
      Code.NotFound,
    );
    expect((await svc.client.getFinding({ orgId: other, findingId: foreign[0]! })).finding).toEqual(before);
  });

  it("adds comments (comment resource, history) and refuses empty ones and other organizations'", async () => {
    const r = await svc.client.addComment({ orgId: org, findingId: ids[2]!, text: "  looks real  ", actor: alice });
    expect(r.comment).toMatchObject({ findingId: ids[2], user: "alice@a.test", userId: "user_1", text: "looks real" });
    expect(r.comment!.id).toMatch(/^comment_[0-9a-f]{28}$/);
    const f = (await svc.client.getFinding({ orgId: org, findingId: ids[2]! })).finding!;
    expect(f.comments.map((c) => c.id)).toEqual([r.comment!.id]);
    expect(f.history.at(-1)).toMatchObject({ action: "commented", to: r.comment!.id, user: "alice@a.test" });
    expect(await rpcError(svc.client.addComment({ orgId: org, findingId: ids[2]!, text: "   " }))).toMatchObject({ code: Code.InvalidArgument, field: "text" });
    expect((await rpcError(svc.client.addComment({ orgId: org, findingId: ids[2]!, text: "x".repeat(10_001) }))).field).toBe("text");
    expect((await rpcError(svc.client.addComment({ orgId: org, findingId: foreign[1]!, text: "hi" }))).code).toBe(Code.NotFound);
    expect((await svc.client.getFinding({ orgId: other, findingId: foreign[1]! })).finding!.comments).toEqual([]);
  });

  it("bulk-updates up to 1000 ids, reporting unknown and foreign ids as NOT_FOUND and leaving them untouched", async () => {
    const before = (await svc.client.getFinding({ orgId: other, findingId: foreign[1]! })).finding!;
    const r = await svc.client.bulkUpdate({
      orgId: org,
      findingIds: [ids[3]!, ids[4]!, foreign[1]!, "finding_missing", ids[3]!],
      status: FindingStatus.RESOLVED,
      notes: "patched in 2.4",
      actor: alice,
    });
    expect(r.updated).toBe(2);
    expect(r.failed.map((f) => [f.findingId, f.errorCode])).toEqual([
      [foreign[1], "NOT_FOUND"],
      ["finding_missing", "NOT_FOUND"],
    ]);
    expect(r.failed[0]!.detail).toBe("Finding not found");
    for (const id of [ids[3]!, ids[4]!]) {
      const f = (await svc.client.getFinding({ orgId: org, findingId: id })).finding!;
      expect(f).toMatchObject({ status: FindingStatus.RESOLVED, notes: "patched in 2.4" });
      expect(f.history.map((h) => h.action)).toEqual(["created", "status_changed", "notes_changed"]);
    }
    expect((await svc.client.getFinding({ orgId: other, findingId: foreign[1]! })).finding).toEqual(before);

    expect(
      await rpcError(svc.client.bulkUpdate({ orgId: org, findingIds: Array.from({ length: 1001 }, (_, i) => `finding_${i}`), status: FindingStatus.OPEN })),
    ).toMatchObject({
      code: Code.InvalidArgument,
      field: "finding_ids",
    });
    expect((await rpcError(svc.client.bulkUpdate({ orgId: org, findingIds: [], status: FindingStatus.OPEN }))).field).toBe("finding_ids");
    expect((await rpcError(svc.client.bulkUpdate({ orgId: org, findingIds: [ids[0]!] }))).field).toBe("update");
    expect((await rpcError(svc.client.bulkUpdate({ orgId: org, findingIds: [ids[0]!], status: FindingStatus.UNSPECIFIED }))).field).toBe("update.status");
  });

  it("handles a full 1000-id bulk update", { timeout: 120_000 }, async () => {
    const big = unique("org");
    const bigIds = await seed(big, 40);
    const idsList = [...bigIds, ...Array.from({ length: 960 }, (_, i) => `finding_unknown_${i}`)];
    const r = await svc.client.bulkUpdate(
      { orgId: big, findingIds: idsList, status: FindingStatus.ACCEPTED, acceptance, actor: alice },
      { timeoutMs: 100_000 },
    );
    expect(r.updated).toBe(40);
    expect(r.failed).toHaveLength(960);
    expect((await svc.client.listFindings({ orgId: big, filter: { status: FindingStatus.ACCEPTED } })).pageInfo?.total).toBe(40);
  });
});

describe("stats", () => {
  it("counts by severity (with info), every status and tool, and computes trends as the test does independently", async () => {
    const org = unique("org");
    const ids = await seed(org, 20, (i) => ({
      target: i < 12 ? "a.example.test" : "b.example.test",
      detected_at: new Date(Date.now() - (i < 5 ? 10 : 1) * 24 * 3600_000),
    }));
    const statuses = [
      FindingStatus.RESOLVED,
      FindingStatus.RESOLVED,
      FindingStatus.FALSE_POSITIVE,
      FindingStatus.ACCEPTED,
      FindingStatus.IN_PROGRESS,
      FindingStatus.RESOLVED,
    ];
    for (const [i, s] of statuses.entries())
      await svc.client.updateFinding({ orgId: org, findingId: ids[i * 3]!, status: s, ...(s === FindingStatus.ACCEPTED ? { acceptance } : {}), actor: alice });

    const details = await Promise.all(ids.map(async (id) => (await svc.client.getFinding({ orgId: org, findingId: id })).finding!));
    const expectFor = (fs: Finding[]) => {
      const weekAgo = Date.now() - 7 * 24 * 3600_000;
      const name = (n: number, list: readonly string[]) => list[n - 1]!;
      const resolved = fs.filter((f) => f.status === FindingStatus.RESOLVED);
      const minutes = resolved.map((f) => {
        const at = timestampDate(f.history.filter((h) => h.to === "resolved").at(-1)!.timestamp!).getTime();
        return Math.round((at - timestampDate(f.detectedAt!).getTime()) / 60_000);
      });
      const avg = minutes.length ? Math.round((minutes.reduce((a, b) => a + b, 0) / minutes.length / 1440) * 100) / 100 : 0;
      const tally = (keys: readonly string[], of: (f: Finding) => string) => Object.fromEntries(keys.map((k) => [k, fs.filter((f) => of(f) === k).length]));
      const tools = [...new Set(fs.map((f) => f.tool))];
      return {
        total: fs.length,
        bySeverity: tally(SEVERITIES, (f) => name(f.severity, SEVERITIES)),
        byStatus: tally(STATUSES, (f) => name(f.status, STATUSES)),
        byTool: Object.fromEntries(tools.map((t) => [t, fs.filter((f) => f.tool === t).length])),
        trends: {
          newThisWeek: fs.filter((f) => timestampDate(f.detectedAt!).getTime() >= weekAgo).length,
          resolvedThisWeek: resolved.length,
          averageResolutionDays: avg,
        },
      };
    };
    const shape = (s: Awaited<ReturnType<typeof svc.client.getStats>>) => ({
      total: s.total,
      bySeverity: {
        critical: s.bySeverity!.critical,
        high: s.bySeverity!.high,
        medium: s.bySeverity!.medium,
        low: s.bySeverity!.low,
        info: s.bySeverity!.info,
      },
      byStatus: {
        open: s.byStatus!.open,
        in_progress: s.byStatus!.inProgress,
        resolved: s.byStatus!.resolved,
        false_positive: s.byStatus!.falsePositive,
        accepted: s.byStatus!.accepted,
      },
      byTool: s.byTool,
      trends: { newThisWeek: s.trends!.newThisWeek, resolvedThisWeek: s.trends!.resolvedThisWeek, averageResolutionDays: s.trends!.averageResolutionDays },
    });

    expect(shape(await svc.client.getStats({ orgId: org }))).toEqual(expectFor(details));
    expect(shape(await svc.client.getStats({ orgId: org, target: "b.example.test" }))).toEqual(expectFor(details.filter((f) => f.target === "b.example.test")));
    const from = new Date(Date.now() - 5 * 24 * 3600_000);
    expect(shape(await svc.client.getStats({ orgId: org, fromDate: timestampFromDate(from) }))).toEqual(
      expectFor(details.filter((f) => timestampDate(f.detectedAt!) >= from)),
    );
    expect((await svc.client.getStats({ orgId: org, toDate: timestampFromDate(from) })).total).toBe(5);
    expect((await svc.client.getStats({ orgId: unique("org") })).total).toBe(0);
    expect((await rpcError(svc.client.getStats({ orgId: org, fromDate: timestampFromDate(new Date()), toDate: timestampFromDate(from) }))).field).toBe(
      "from_date",
    );
  });
});

describe("export", () => {
  const org = unique("org");
  beforeAll(async () => {
    await seed(org, 12, (i) => (i === 0 ? { title: '=HYPERLINK("http://evil")', affected_component: 'a,b "q"' } : {}));
  });

  async function exportAll(format: ExportFormat, filter = {}, o = org) {
    let head: { contentType: string; filename: string } | undefined;
    const parts: Uint8Array[] = [];
    for await (const m of svc.client.exportFindings({ orgId: o, format, filter })) {
      if (!head) head = { contentType: m.contentType, filename: m.filename };
      if (m.chunk.length) parts.push(m.chunk);
      expect(m.chunk.length).toBeLessThanOrEqual(64 * 1024);
    }
    return { head: head!, body: Buffer.concat(parts) };
  }

  it("exports CSV equal to the list (formula cells neutralised), in the list's order and filters", async () => {
    const { head, body } = await exportAll(ExportFormat.CSV, { severity: Severity.CRITICAL });
    expect(head).toEqual({ contentType: "text/csv", filename: `findings-${new Date().toISOString().slice(0, 10)}.csv` });
    const rows = parseCsv(body.toString());
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const list = (await svc.client.listFindings({ orgId: org, filter: { severity: Severity.CRITICAL }, pagination: { perPage: 100 } })).findings;
    expect(rows.slice(1).map((r) => r[0])).toEqual(list.map((f) => f.id));
    const first = rows.find((r) => r[0] === list.at(-1)!.id)!;
    expect(first[1]).toBe('\'=HYPERLINK("http://evil")');
    expect(first[7]).toBe('a,b "q"');
    expect(first[4]).toBe(String(list.at(-1)!.cvssScore));
  });

  it("exports JSON as the list's findings in full detail", async () => {
    const { head, body } = await exportAll(ExportFormat.JSON);
    expect(head.contentType).toBe("application/json");
    const items = JSON.parse(body.toString()) as { id: string; history: unknown[]; severity: string }[];
    const list = (await svc.client.listFindings({ orgId: org, pagination: { perPage: 100 } })).findings;
    expect(items.map((i) => i.id)).toEqual(list.map((f) => f.id));
    expect(items[0]!.history).toHaveLength(1);
    expect(items.map((i) => i.severity)).toEqual(list.map((f) => SEVERITIES[f.severity - 1]));
  });

  it("exports a PDF whose page count grows with the findings, and refuses an unknown format", async () => {
    const small = await exportAll(ExportFormat.PDF);
    expect(small.head.contentType).toBe("application/pdf");
    expect(small.body.subarray(0, 5).toString()).toBe("%PDF-");
    const bigOrg = unique("org");
    await seed(bigOrg, 90);
    const big = await exportAll(ExportFormat.PDF, {}, bigOrg);
    const pages = (b: Buffer) => (b.toString("latin1").match(/\/Type \/Page\b/g) ?? []).length;
    expect(pages(small.body)).toBe(1);
    expect(pages(big.body)).toBeGreaterThanOrEqual(3);
    expect(await rpcError(exportAll(ExportFormat.UNSPECIFIED))).toMatchObject({ code: Code.InvalidArgument, field: "format" });
    expect((await rpcError(exportAll(7 as ExportFormat))).field).toBe("format");
  });
});

describe("AI guidance", () => {
  it("answers with the analysis, charges one credit per new analysis, caches unchanged findings, and stops at the plan's credits", async () => {
    const org = unique("org");
    aiCredits.set(org, { unlimited: false, max: 2 });
    // A TLS check's findings (no CVE): the built-in analyst answers with the TLS playbook.
    const ids = await seed(org, 3, (i) => ({ kev: i === 0, cvss_score: 9.1, tool: "tls", cve_ids: [] }));
    const a = await svc.client.getAiAnalysis({ orgId: org, findingId: ids[0]! });
    expect(a).toMatchObject({ findingId: ids[0], aiCreditsUsed: 1, aiCreditsRemaining: 1 });
    expect(a.aiAnalysis).toMatchObject({
      remediationPriority: "immediate",
      automationAvailable: true,
      ansiblePlaybookId: "tls-hardening",
      category: "weak-transport",
      source: "builtin",
      sourceDetail: "builtin-analyst-v2",
    });
    expect(a.aiAnalysis!.attackScenarios.length).toBeGreaterThan(0);
    expect(a.aiAnalysis!.recommendedActions.length).toBeGreaterThan(0);
    const again = await svc.client.getAiAnalysis({ orgId: org, findingId: ids[0]! });
    expect(again).toMatchObject({ aiCreditsUsed: 0, aiCreditsRemaining: 1 });
    expect(again.aiAnalysis).toEqual(a.aiAnalysis);
    expect((await svc.client.getAiAnalysis({ orgId: org, findingId: ids[1]! })).aiCreditsRemaining).toBe(0);
    expect(await rpcError(svc.client.getAiAnalysis({ orgId: org, findingId: ids[2]! }))).toMatchObject({
      code: Code.ResourceExhausted,
      errorCode: "AI_QUOTA_EXCEEDED",
    });
    // Still free from the cache when the quota is gone.
    expect((await svc.client.getAiAnalysis({ orgId: org, findingId: ids[0]! })).aiCreditsUsed).toBe(0);
    expect((await rpcError(svc.client.getAiAnalysis({ orgId: unique("org"), findingId: ids[0]! }))).code).toBe(Code.NotFound);
  });

  it("admits exactly the plan's credits under concurrency", async () => {
    const org = unique("org");
    aiCredits.set(org, { unlimited: false, max: 5 });
    const ids = await seed(org, 9);
    const results = await Promise.allSettled(ids.map((id) => svc.client.getAiAnalysis({ orgId: org, findingId: id })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => errorInfoOf(ConnectError.from(r.reason)).errorCode);
    expect(refused).toEqual(["AI_QUOTA_EXCEEDED", "AI_QUOTA_EXCEEDED", "AI_QUOTA_EXCEEDED", "AI_QUOTA_EXCEEDED"]);
  });

  it("does not count unlimited plans", async () => {
    const org = unique("org");
    aiCredits.set(org, { unlimited: true, max: 0 });
    const [id] = await seed(org, 1);
    expect(await svc.client.getAiAnalysis({ orgId: org, findingId: id! })).toMatchObject({ aiCreditsUsed: 1, aiCreditsRemaining: 0 });
  });
});
