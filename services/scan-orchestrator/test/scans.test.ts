import { toJson } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ScanCompletedSchema, type ScanCompleted } from "@vulnscan/proto/vulnscan/events/v1/scan_events_pb.js";
import { ScanStatus, ScanType } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { createMongo } from "@vulnscan/kit";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { FULL_PHASES, QUICK_PHASES } from "@vulnscan/scan-contract";
import {
  Collector,
  eventually,
  orchestratorEnv,
  plans,
  rpcError,
  startAuthStub,
  startOrchestrator,
  warmUp,
  type AuthStub,
  type Orchestrator,
} from "./harness.js";

let auth: AuthStub;
let orch: Orchestrator;
let orchEnv: Record<string, string>;
let strict: Orchestrator;
let kafka: Collector;

beforeAll(async () => {
  auth = await startAuthStub();
  kafka = new Collector();
  await kafka.start();
  orchEnv = orchestratorEnv(auth);
  [orch, strict] = await Promise.all([
    startOrchestrator(orchEnv),
    // Production policy: no special-purpose targets, no allowlist.
    startOrchestrator(orchestratorEnv(auth, { SCAN_ALLOW_PRIVATE_TARGETS: "false", SCAN_ALLOWED_NETWORKS: "" })),
  ]);
  await warmUp(orch, kafka, auth);
});
afterAll(async () => {
  await Promise.all([orch?.stop(), strict?.stop()]);
  await kafka?.stop();
  await auth?.close();
});

const org = (plan: keyof typeof plans) => {
  const id = unique(`org_${plan}`);
  auth.set(id, plans[plan]);
  return id;
};

const create = (orgId: string, target = "192.0.2.10", extra: Record<string, unknown> = {}) =>
  orch.client.createScan({ orgId, target, authorized: true, ...extra });

describe("CreateScan validation (INVALID_ARGUMENT, VALIDATION_ERROR, field)", () => {
  it.each([
    [{ authorized: false }, "authorized"],
    [{ target: "" }, "target"],
    [{ target: "not a host" }, "target"],
    [{ target: "http://192.0.2.10/" }, "target"],
    [{ target: "8.8.8.8" }, "target"], // outside SCAN_ALLOWED_NETWORKS
    [{ target: "nothing.invalid" }, "target"], // does not resolve
    [{ ports: "80,0" }, "ports"],
    [{ ports: "90-80" }, "ports"],
    [{ frameworks: ["soc2", "sox"] }, "frameworks"],
    [{ scanType: 9 }, "scan_type"],
  ])("%j → field %s", async (patch, field) => {
    const o = org("professional");
    const e = await rpcError(orch.client.createScan({ orgId: o, target: "192.0.2.10", authorized: true, ...patch }));
    expect(e).toMatchObject({ code: "InvalidArgument", errorCode: "VALIDATION_ERROR", field });
  });

  it("caps CIDR ranges per plan and says the cap", async () => {
    const e = await rpcError(create(org("startup"), "203.0.113.0/24"));
    expect(e).toMatchObject({ code: "InvalidArgument", errorCode: "VALIDATION_ERROR", field: "target" });
    expect(e.message).toContain("/28");
    expect((await create(org("startup"), "203.0.113.16/28")).scan?.status).toBe(ScanStatus.PENDING);
    expect((await create(org("professional"), "203.0.113.0/24")).scan?.status).toBe(ScanStatus.PENDING);
  });

  it.each(["127.0.0.1", "10.1.2.3", "192.168.0.0/28", "169.254.169.254", "100.64.1.1", "::1", "fd00:ec2::254", "224.0.0.1"])(
    "refuses special-purpose target %s under the production policy",
    async (target) => {
      const e = await rpcError(strict.client.createScan({ orgId: org("enterprise"), target, authorized: true }));
      expect(e).toMatchObject({ code: "InvalidArgument", errorCode: "VALIDATION_ERROR", field: "target" });
    },
  );
});

describe("CreateScan", () => {
  it("answers pending with an estimate, stores scan.created and dispatches the job with every phase", async () => {
    const o = org("professional");
    const res = await create(o, "192.0.2.10", { frameworks: ["soc2", "pci_dss"], ports: "22, 80-81" });
    const scan = res.scan!;
    expect(scan).toMatchObject({
      orgId: o,
      target: "192.0.2.10",
      scanType: ScanType.FULL,
      status: ScanStatus.PENDING,
      progress: 0,
      phase: "",
      phasesRemaining: [...FULL_PHASES],
      frameworks: ["soc2", "pci_dss"],
      ports: "22,80-81",
      estimatedDurationSeconds: 1350,
    });
    expect(scan.id).toMatch(/^scan_[0-9a-f]{28}$/);
    const job = await eventually("job", () => kafka.jobs.find((j) => j.scanId === scan.id));
    expect(job).toMatchObject({ orgId: o, target: "192.0.2.10", scanType: ScanType.FULL, attempt: 1, phases: [...FULL_PHASES], ports: "22,80-81" });
    expect(timestampDate(job.deadline!).getTime() - timestampDate(scan.createdAt!).getTime()).toBe(7200_000);
    const [created] = await eventually("scan.created", () => kafka.eventsOf(scan.id).length > 0 && kafka.eventsOf(scan.id));
    expect(created).toMatchObject({ type: "scan.created", orgId: o });
    expect(created!.payload.value).toMatchObject({
      scanId: scan.id,
      target: "192.0.2.10",
      scanType: "full",
      status: "pending",
      frameworks: ["soc2", "pci_dss"],
      ports: "22,80-81",
      estimatedDurationSeconds: 1350,
    });
  });

  it("admits exactly the concurrency limit out of 20 parallel creations (CONCURRENT_SCAN_LIMIT for the rest)", async () => {
    const o = org("professional");
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => create(o)));
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok).toHaveLength(3);
    for (const r of results.filter((x) => x.status === "rejected")) {
      expect(await rpcError(Promise.reject((r as PromiseRejectedResult).reason))).toMatchObject({
        code: "ResourceExhausted",
        errorCode: "CONCURRENT_SCAN_LIMIT",
      });
    }
    // Refused creations did not count against the month.
    expect((await orch.client.getQuota({ orgId: o })).quota).toMatchObject({ usedThisMonth: 3, monthlyLimit: 150, remaining: 147 });
    // Cancelling one frees exactly one place.
    const list = await orch.client.listScans({ orgId: o });
    await orch.client.cancelScan({ orgId: o, scanId: list.scans[0]!.id });
    const again = await Promise.allSettled(Array.from({ length: 5 }, () => create(o)));
    expect(again.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("counts the monthly quota exactly under concurrency (SCAN_QUOTA_EXCEEDED) and reports it in GetQuota", async () => {
    const o = unique("org_quota");
    auth.set(o, { ...plans.professional, limits: { ...plans.professional.limits, concurrentScans: { unlimited: true }, scansPerMonth: { max: 7 } } });
    const results = await Promise.allSettled(Array.from({ length: 16 }, () => create(o)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(7);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(await rpcError(Promise.reject(refused.reason))).toMatchObject({ code: "ResourceExhausted", errorCode: "SCAN_QUOTA_EXCEEDED" });
    const now = new Date();
    const quota = (await orch.client.getQuota({ orgId: o })).quota!;
    expect(quota).toMatchObject({ plan: "professional", monthlyLimit: 7, usedThisMonth: 7, remaining: 0, unlimited: false });
    expect(timestampDate(quota.resetsAt!).toISOString()).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
    expect((await orch.client.listScans({ orgId: o })).pageInfo?.total).toBe(7);
  });

  it("releases the concurrency slot when the monthly quota refuses", async () => {
    const o = unique("org_q1");
    auth.set(o, { ...plans.startup, limits: { ...plans.startup.limits, scansPerMonth: { max: 1 } } });
    const first = (await create(o)).scan!;
    await orch.client.cancelScan({ orgId: o, scanId: first.id });
    expect(await rpcError(create(o))).toMatchObject({ errorCode: "SCAN_QUOTA_EXCEEDED" });
    auth.set(o, { ...plans.startup, limits: { ...plans.startup.limits, scansPerMonth: { max: 2 } } });
    expect((await create(o)).scan?.status).toBe(ScanStatus.PENDING); // the slot was given back
  });

  it("reports an unlimited plan as unlimited, still counting", async () => {
    const o = org("enterprise");
    await create(o);
    expect((await orch.client.getQuota({ orgId: o })).quota).toMatchObject({ plan: "enterprise", unlimited: true, usedThisMonth: 1 });
  });
});

describe("GetScan, ListScans, CancelScan", () => {
  it("is NOT_FOUND for another organization's scan", async () => {
    const mine = org("professional");
    const other = org("professional");
    const scan = (await create(mine)).scan!;
    expect(await rpcError(orch.client.getScan({ orgId: other, scanId: scan.id }))).toMatchObject({ code: "NotFound", errorCode: "NOT_FOUND" });
    expect(await rpcError(orch.client.cancelScan({ orgId: other, scanId: scan.id }))).toMatchObject({ code: "NotFound" });
    expect(await rpcError(orch.client.getScan({ orgId: mine, scanId: "scan_nope" }))).toMatchObject({ code: "NotFound" });
    expect((await orch.client.listScans({ orgId: other })).scans).toHaveLength(0);
    expect((await orch.client.getScan({ orgId: mine, scanId: scan.id })).scan?.id).toBe(scan.id);
  });

  it("lists newest first with status (cancelled too), target and date filters and pages", async () => {
    const o = org("enterprise");
    const a = (await create(o, "192.0.2.1")).scan!;
    const b = (await create(o, "192.0.2.2")).scan!;
    const c = (await create(o, "192.0.2.1")).scan!;
    await orch.client.cancelScan({ orgId: o, scanId: b.id });
    const page1 = await orch.client.listScans({ orgId: o, pagination: { page: 1, perPage: 2 } });
    expect(page1.scans.map((s) => s.id)).toEqual([c.id, b.id]);
    expect(page1.pageInfo).toMatchObject({ total: 3, page: 1, perPage: 2, pages: 2 });
    const page2 = await orch.client.listScans({ orgId: o, pagination: { page: 2, perPage: 2 } });
    expect(page2.scans.map((s) => s.id)).toEqual([a.id]);
    expect((await orch.client.listScans({ orgId: o, pagination: { perPage: 500 } })).pageInfo?.perPage).toBe(100);
    expect((await orch.client.listScans({ orgId: o, status: ScanStatus.CANCELLED })).scans.map((s) => s.id)).toEqual([b.id]);
    expect((await orch.client.listScans({ orgId: o, status: ScanStatus.PENDING })).scans.map((s) => s.id)).toEqual([c.id, a.id]);
    expect((await orch.client.listScans({ orgId: o, target: "192.0.2.1" })).scans.map((s) => s.id)).toEqual([c.id, a.id]);
    const bAt = timestampDate(b.createdAt!);
    expect((await orch.client.listScans({ orgId: o, fromDate: timestampFromDate(bAt) })).scans.map((s) => s.id)).toEqual([c.id, b.id]);
    expect((await orch.client.listScans({ orgId: o, toDate: timestampFromDate(bAt) })).scans.map((s) => s.id)).toEqual([a.id]);
    expect(await rpcError(orch.client.listScans({ orgId: o, status: ScanStatus.UNSPECIFIED }))).toMatchObject({ field: "status" });
  });

  it("walks the list with the keyset cursor: the scans of page numbers, ties in one millisecond neither skipped nor repeated", async () => {
    const o = org("enterprise");
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) ids.push((await create(o, i % 3 === 2 ? "192.0.2.2" : "192.0.2.1")).scan!.id);
    // Three scans in each of three milliseconds (the clock seldom repeats one on its own): the
    // cursor's date must come back exact, or a page boundary inside a millisecond loses or repeats scans.
    const mongo = createMongo(inject("mongoUrl"), orchEnv.MONGO_DB!, "orchestrator-test");
    const base = Date.parse("2026-01-05T10:00:00.000Z");
    try {
      for (const [i, id] of ids.entries())
        await mongo.db.collection<{ _id: string }>("scans").updateOne({ _id: id }, { $set: { created_at: new Date(base + Math.floor(i / 3)) } });
    } finally {
      await mongo.close();
    }
    const filters = {
      all: {},
      target: { target: "192.0.2.1" },
      from: { fromDate: timestampFromDate(new Date(base + 1)) },
      "to and target": { toDate: timestampFromDate(new Date(base + 2)), target: "192.0.2.1" },
    };
    for (const [name, filter] of Object.entries(filters)) {
      for (const perPage of [1, 2, 3, 4]) {
        const byNumber: string[] = [];
        for (let page = 1, n = perPage; n === perPage && page <= 10; page++) {
          const got = (await orch.client.listScans({ orgId: o, ...filter, pagination: { page, perPage } })).scans.map((x) => x.id);
          byNumber.push(...got);
          n = got.length;
        }
        let res = await orch.client.listScans({ orgId: o, ...filter, pagination: { perPage } });
        const walked = res.scans.map((x) => x.id);
        const pages = [res.pageInfo?.page];
        while (res.nextCursor && pages.length <= 10) {
          // page 1 beside a cursor is ignored: the cursor carries the page it leads to.
          res = await orch.client.listScans({ orgId: o, ...filter, pagination: { page: 1, perPage }, cursor: res.nextCursor });
          walked.push(...res.scans.map((x) => x.id));
          pages.push(res.pageInfo?.page);
        }
        const what = `${name}, per page ${perPage}`;
        expect(walked, what).toEqual(byNumber);
        expect(new Set(walked).size, what).toBe(res.pageInfo?.total);
        expect(pages, what).toEqual(pages.map((_, i) => i + 1));
        expect(res.nextCursor, what).toBe("");
      }
    }
    const first = await orch.client.listScans({ orgId: o, pagination: { perPage: 2 } });
    expect(await rpcError(orch.client.listScans({ orgId: o, target: "192.0.2.2", cursor: first.nextCursor }))).toMatchObject({
      code: "InvalidArgument",
      errorCode: "VALIDATION_ERROR",
      field: "cursor",
    });
    expect(await rpcError(orch.client.listScans({ orgId: org("enterprise"), cursor: first.nextCursor }))).toMatchObject({
      errorCode: "VALIDATION_ERROR",
      field: "cursor",
    });
  });

  it("cancels a pending scan: cancelled, completed_at, message, ScanCancellation on Kafka; again → FAILED_PRECONDITION", async () => {
    const o = org("startup");
    const scan = (await create(o)).scan!;
    const res = await orch.client.cancelScan({ orgId: o, scanId: scan.id });
    expect(res.message).toBe("Scan cancelled");
    expect(res.scan).toMatchObject({ id: scan.id, status: ScanStatus.CANCELLED, error: "cancelled by user" });
    expect(res.scan?.completedAt).toBeDefined();
    await eventually("cancellation", () => kafka.cancellations.find((c) => c.scanId === scan.id && c.orgId === o));
    expect(await rpcError(orch.client.cancelScan({ orgId: o, scanId: scan.id }))).toMatchObject({
      code: "FailedPrecondition",
      errorCode: "INVALID_STATE",
      message: "Scan is already cancelled",
    });
    // Startup allows one at a time: the cancelled one no longer counts.
    expect((await create(o)).scan?.status).toBe(ScanStatus.PENDING);
  });
});

describe("progress from scanner reports (vulnscan.scan.reports) and scan.* events", () => {
  it("runs a quick scan through started, progress per phase and completed, with exact payloads", async () => {
    const o = org("startup");
    const scan = (await create(o, "198.51.100.7", { scanType: ScanType.QUICK })).scan!;
    const base = { scanId: scan.id, orgId: o, attempt: 1 };

    await kafka.report({ ...base, report: { case: "phaseStarted", value: { phase: "discovery", tool: "portscan" } } });
    const running = await eventually("running", async () => {
      const s = (await orch.client.getScan({ orgId: o, scanId: scan.id })).scan!;
      return s.status === ScanStatus.RUNNING && s;
    });
    expect(running).toMatchObject({ phase: "discovery", currentTool: "portscan", progress: 0 });
    expect(running.startedAt).toBeDefined();

    const phaseDone = (phase: string, progress: number, findings: Record<string, number>) => ({
      ...base,
      report: {
        case: "phaseCompleted" as const,
        value: { phase, progress, findings: { total: 0, critical: 0, high: 0, medium: 0, low: 0, info: 0, ...findings } },
      },
    });
    const discovery = phaseDone("discovery", 16, { total: 1, info: 1 });
    await kafka.report(discovery);
    await kafka.report(discovery); // a repeat (new report id): stored per phase, so harmless
    await kafka.report({ ...base, report: { case: "heartbeat", value: { phase: "enumeration", currentTool: "banners", progress: 5 } } });
    await kafka.report(phaseDone("enumeration", 33, { total: 3, critical: 1, high: 1, medium: 1 }));
    await kafka.report(phaseDone("vulnerability_scanning", 50, { total: 2, low: 2 }));

    const mid = await eventually("three phases", async () => {
      const s = (await orch.client.getScan({ orgId: o, scanId: scan.id })).scan!;
      return s.phasesCompleted.length === 3 && s;
    });
    expect(mid).toMatchObject({
      status: ScanStatus.RUNNING,
      progress: 50,
      phasesCompleted: ["discovery", "enumeration", "vulnerability_scanning"],
      phasesRemaining: ["web_analysis", "threat_intelligence", "reporting"],
      vulnerabilitiesFound: 6,
      criticalCount: 1,
      highCount: 1,
      mediumCount: 1,
      lowCount: 2,
      infoCount: 1,
    });

    await kafka.report({ ...base, report: { case: "completed", value: { findings: { total: 6 } } } });
    const done = await eventually("completed", async () => {
      const s = (await orch.client.getScan({ orgId: o, scanId: scan.id })).scan!;
      return s.status === ScanStatus.COMPLETED && s;
    });
    expect(done).toMatchObject({ phase: "complete", progress: 100, phasesRemaining: [], phasesCompleted: [...QUICK_PHASES], currentTool: "" });

    const completed = await eventually("scan.completed", () => kafka.payloads(scan.id, "scan.completed")[0]);
    const duration = Math.round((timestampDate(done.completedAt!).getTime() - timestampDate(done.startedAt!).getTime()) / 1000);
    // The webhook `data` is the payload's proto JSON (envelope.proto): exactly the spec's fields.
    expect(toJson(ScanCompletedSchema, completed as ScanCompleted, { useProtoFieldName: true, alwaysEmitImplicit: true })).toEqual({
      scan_id: scan.id,
      target: "198.51.100.7",
      status: "completed",
      duration_seconds: duration,
      findings: { total: 6, critical: 1, high: 1, medium: 1, low: 2 },
    });
    const types = kafka.eventsOf(scan.id).map((e) => e.type);
    expect(types.filter((t) => t === "scan.started")).toHaveLength(1);
    expect(kafka.payloads(scan.id, "scan.progress")).toEqual([
      expect.objectContaining({ phase: "discovery", progress: 16, status: "running", phasesCompleted: ["discovery"] }),
      expect.objectContaining({ phase: "enumeration", progress: 33 }),
      expect.objectContaining({ phase: "vulnerability_scanning", progress: 50, phasesRemaining: ["web_analysis", "threat_intelligence", "reporting"] }),
    ]);
    expect(kafka.payloads(scan.id, "scan.started")[0]).toMatchObject({ scanId: scan.id, status: "running", scanType: "quick", phases: [...QUICK_PHASES] });

    // Finished: reports change nothing, cancel is refused, and the slot is free again (Startup: 1).
    expect(await rpcError(orch.client.cancelScan({ orgId: o, scanId: scan.id }))).toMatchObject({
      code: "FailedPrecondition",
      errorCode: "INVALID_STATE",
      message: "Scan is already completed",
    });
    expect((await create(o)).scan?.status).toBe(ScanStatus.PENDING);
  });

  it("fails a scan on a Failed report with scan.failed; a running scan can be cancelled", async () => {
    const o = org("professional");
    const failing = (await create(o)).scan!;
    const cancelled = (await create(o)).scan!;
    await kafka.report({ scanId: failing.id, orgId: o, attempt: 1, report: { case: "phaseStarted", value: { phase: "discovery", tool: "portscan" } } });
    await kafka.report({
      scanId: failing.id,
      orgId: o,
      attempt: 1,
      report: { case: "failed", value: { reason: "target unreachable", phase: "discovery", retryable: false } },
    });
    const failed = await eventually("scan.failed", () => kafka.payloads(failing.id, "scan.failed")[0]);
    expect(failed).toEqual(
      expect.objectContaining({ scanId: failing.id, target: "192.0.2.10", status: "failed", error: "target unreachable", phase: "discovery" }),
    );
    expect((await orch.client.getScan({ orgId: o, scanId: failing.id })).scan).toMatchObject({ status: ScanStatus.FAILED, error: "target unreachable" });
    expect(await rpcError(orch.client.cancelScan({ orgId: o, scanId: failing.id }))).toMatchObject({ errorCode: "INVALID_STATE" });

    await kafka.report({ scanId: cancelled.id, orgId: o, attempt: 1, report: { case: "phaseStarted", value: { phase: "discovery", tool: "portscan" } } });
    await eventually("running", async () => (await orch.client.getScan({ orgId: o, scanId: cancelled.id })).scan?.status === ScanStatus.RUNNING);
    const res = await orch.client.cancelScan({ orgId: o, scanId: cancelled.id });
    expect(res.scan).toMatchObject({ status: ScanStatus.CANCELLED, phase: "discovery" });
    await eventually("cancellation", () => kafka.cancellations.find((c) => c.scanId === cancelled.id));
    // The worker's own "cancelled" failure afterwards changes nothing and emits nothing.
    await kafka.report({ scanId: cancelled.id, orgId: o, attempt: 1, report: { case: "failed", value: { reason: "cancelled", retryable: false } } });
    await new Promise((r) => setTimeout(r, 1000));
    expect((await orch.client.getScan({ orgId: o, scanId: cancelled.id })).scan?.status).toBe(ScanStatus.CANCELLED);
    expect(kafka.payloads(cancelled.id, "scan.failed")).toEqual([]);
  });

  it("ends a scan once when cancels race each other and a completion (one write per version wins)", async () => {
    const o = org("professional");
    const scan = (await create(o)).scan!;
    const base = { scanId: scan.id, orgId: o, attempt: 1 };
    await kafka.report({ ...base, report: { case: "phaseStarted", value: { phase: "discovery", tool: "portscan" } } });
    await eventually("running", async () => (await orch.client.getScan({ orgId: o, scanId: scan.id })).scan?.status === ScanStatus.RUNNING);
    const [cancels] = await Promise.all([
      Promise.allSettled(Array.from({ length: 5 }, () => orch.client.cancelScan({ orgId: o, scanId: scan.id }))),
      kafka.report({ ...base, report: { case: "completed", value: { findings: { total: 0 } } } }),
    ]);
    const won = cancels.filter((c) => c.status === "fulfilled").length;
    const ended = await eventually("ended", async () => {
      const s = (await orch.client.getScan({ orgId: o, scanId: scan.id })).scan!;
      return (s.status === ScanStatus.CANCELLED || s.status === ScanStatus.COMPLETED) && s;
    });
    await new Promise((r) => setTimeout(r, 1000)); // the losing completion is applied (ignored) by now
    if (ended.status === ScanStatus.CANCELLED) {
      expect(won).toBe(1);
      expect(kafka.payloads(scan.id, "scan.completed")).toEqual([]);
    } else {
      expect(won).toBe(0);
      expect(kafka.payloads(scan.id, "scan.completed")).toHaveLength(1);
    }
    expect((await orch.client.getScan({ orgId: o, scanId: scan.id })).scan?.status).toBe(ended.status);
  });

  it("ignores reports of another attempt and of another organization", async () => {
    const o = org("professional");
    const scan = (await create(o)).scan!;
    await kafka.report({ scanId: scan.id, orgId: o, attempt: 2, report: { case: "phaseStarted", value: { phase: "discovery", tool: "x" } } });
    await kafka.report({ scanId: scan.id, orgId: org("professional"), attempt: 1, report: { case: "phaseStarted", value: { phase: "discovery", tool: "x" } } });
    await kafka.report({ scanId: scan.id, orgId: o, attempt: 1, report: { case: "heartbeat", value: { phase: "discovery", currentTool: "ok" } } });
    const s = await eventually("heartbeat applied", async () => {
      const x = (await orch.client.getScan({ orgId: o, scanId: scan.id })).scan!;
      return x.currentTool === "ok" && x;
    });
    expect(s.status).toBe(ScanStatus.RUNNING);
  });
});
