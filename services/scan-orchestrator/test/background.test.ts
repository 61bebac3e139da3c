import { timestampDate } from "@bufbuild/protobuf/wkt";
import { createMongo, type MongoHandle } from "@vulnscan/kit";
import { ScanStatus, ScanType, ScheduleFrequency } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { FULL_PHASES } from "@vulnscan/scan-contract";
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
let kafka: Collector;
beforeAll(async () => {
  auth = await startAuthStub();
  kafka = new Collector();
  await kafka.start();
});
afterAll(async () => {
  await kafka?.stop();
  await auth?.close();
});

const org = (plan: keyof typeof plans) => {
  const id = unique(`org_${plan}`);
  auth.set(id, plans[plan]);
  return id;
};

describe("watchdog (small SCAN_REDISPATCH_AFTER_SECONDS and SCAN_MAX_DURATION_SECONDS)", () => {
  let orch: Orchestrator;
  beforeAll(async () => {
    orch = await startOrchestrator(
      orchestratorEnv(auth, {
        SCAN_REDISPATCH_AFTER_SECONDS: "3",
        SCAN_WATCHDOG_INTERVAL_MS: "250",
        SCAN_MAX_DURATION_SECONDS: "quick=5,full=600,compliance=600",
        SCAN_MAX_ATTEMPTS: "20",
      }),
    );
    await warmUp(orch, kafka, auth);
  });
  afterAll(async () => {
    await orch?.stop();
  });

  it("re-dispatches a silent scan as attempt 2 with only the phases not completed, then follows attempt 2 only", async () => {
    const o = org("professional");
    const scan = (await orch.client.createScan({ orgId: o, target: "192.0.2.20", authorized: true })).scan!;
    await kafka.report({
      scanId: scan.id,
      orgId: o,
      attempt: 1,
      report: { case: "phaseCompleted", value: { phase: "discovery", progress: 9, findings: {} } },
    });
    await eventually("discovery done", async () => (await orch.client.getScan({ orgId: o, scanId: scan.id })).scan?.phasesCompleted.length === 1);
    const retry = await eventually("attempt 2", () => kafka.jobs.find((j) => j.scanId === scan.id && j.attempt === 2), 15_000);
    expect(retry.phases).toEqual(FULL_PHASES.slice(1));
    expect(retry.deadline).toEqual(kafka.jobs.find((j) => j.scanId === scan.id && j.attempt === 1)?.deadline);

    // The lost worker wakes up: its reports no longer count.
    await kafka.report({
      scanId: scan.id,
      orgId: o,
      attempt: 1,
      report: { case: "phaseCompleted", value: { phase: "enumeration", progress: 18, findings: { total: 5, high: 5 } } },
    });
    await kafka.report({
      scanId: scan.id,
      orgId: o,
      attempt: 2,
      report: { case: "phaseCompleted", value: { phase: "enumeration", progress: 18, findings: { total: 1, low: 1 } } },
    });
    await kafka.report({ scanId: scan.id, orgId: o, attempt: 2, report: { case: "completed", value: {} } });
    const done = await eventually("completed", async () => {
      const s = (await orch.client.getScan({ orgId: o, scanId: scan.id })).scan!;
      return s.status === ScanStatus.COMPLETED && s;
    });
    expect(done).toMatchObject({ vulnerabilitiesFound: 1, lowCount: 1, highCount: 0 });
    await eventually("scan.completed", () => kafka.payloads(scan.id, "scan.completed")[0]);
    expect(kafka.payloads(scan.id, "scan.completed")).toEqual([expect.objectContaining({ findings: expect.objectContaining({ total: 1, low: 1, high: 0 }) })]);
  });

  it('fails a scan past its deadline with scan.failed "maximum duration exceeded" and tells the worker to stop', async () => {
    const o = org("professional");
    const scan = (await orch.client.createScan({ orgId: o, target: "192.0.2.21", scanType: ScanType.QUICK, authorized: true })).scan!;
    // A worker that heartbeats but never finishes: no re-dispatch, only the deadline.
    const beat = setInterval(() => {
      void kafka.report({ scanId: scan.id, orgId: o, attempt: 1, report: { case: "heartbeat", value: { phase: "web_analysis", currentTool: "http" } } });
    }, 500);
    try {
      const failed = await eventually("scan.failed", () => kafka.payloads(scan.id, "scan.failed")[0], 20_000);
      expect(failed).toEqual(expect.objectContaining({ scanId: scan.id, status: "failed", error: "maximum duration exceeded", phase: "web_analysis" }));
    } finally {
      clearInterval(beat);
    }
    expect((await orch.client.getScan({ orgId: o, scanId: scan.id })).scan).toMatchObject({
      status: ScanStatus.FAILED,
      error: "maximum duration exceeded",
    });
    await eventually("cancellation", () => kafka.cancellations.find((c) => c.scanId === scan.id));
    expect(kafka.jobs.filter((j) => j.scanId === scan.id).map((j) => j.attempt)).toEqual([1]);
  });
});

describe("schedules with two orchestrator instances on one database", () => {
  let a: Orchestrator;
  let b: Orchestrator;
  let mongo: MongoHandle;
  let dbName: string;
  beforeAll(async () => {
    const env = orchestratorEnv(auth, { SCHEDULER_INTERVAL_MS: "150" });
    dbName = env.MONGO_DB!;
    [a, b] = await Promise.all([startOrchestrator(env), startOrchestrator(env)]);
    mongo = createMongo(inject("mongoUrl"), dbName, "orchestrator-test");
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  const weekly = (orgId: string, extra: Record<string, unknown> = {}) => ({
    orgId,
    target: "203.0.113.5",
    frequency: ScheduleFrequency.WEEKLY,
    dayOfWeek: 1,
    hour: 9,
    timezone: "Europe/Berlin",
    authorized: true,
    ...extra,
  });

  it("need Professional or Enterprise (PERMISSION_DENIED, PLAN_UPGRADE_REQUIRED)", async () => {
    expect(await rpcError(a.client.createSchedule(weekly(org("startup"))))).toMatchObject({
      code: "PermissionDenied",
      errorCode: "PLAN_UPGRADE_REQUIRED",
      message: "Schedules require the Professional or Enterprise plan",
    });
  });

  it.each([
    [{ frequency: ScheduleFrequency.UNSPECIFIED }, "frequency"],
    [{ dayOfWeek: undefined }, "day_of_week"],
    [{ dayOfWeek: 7 }, "day_of_week"],
    [{ frequency: ScheduleFrequency.MONTHLY }, "day_of_week"],
    [{ frequency: ScheduleFrequency.MONTHLY, dayOfWeek: undefined, dayOfMonth: 31 }, "day_of_month"],
    [{ hour: 24 }, "hour"],
    [{ timezone: "Europe/Atlantis" }, "timezone"],
    [{ target: "8.8.8.8" }, "target"],
    [{ target: "203.0.113.0/23" }, "target"],
    [{ authorized: false }, "authorized"],
  ])("refuse %j on field %s", async (patch, field) => {
    expect(await rpcError(a.client.createSchedule(weekly(org("professional"), patch)))).toMatchObject({
      code: "InvalidArgument",
      errorCode: "VALIDATION_ERROR",
      field,
    });
  });

  it("create, list oldest first and delete per organization; next_run_at in the zone", async () => {
    const o = org("professional");
    const first = (await a.client.createSchedule(weekly(o))).schedule!;
    expect(first.id).toMatch(/^schedule_[0-9a-f]{28}$/);
    const next = timestampDate(first.nextRunAt!);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    const berlin = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Berlin",
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(next);
    expect(berlin).toBe("Mon 09:00");
    const second = (
      await b.client.createSchedule({
        orgId: o,
        target: "203.0.113.6",
        frequency: ScheduleFrequency.MONTHLY,
        dayOfMonth: 28,
        hour: 0,
        timezone: "America/New_York",
        authorized: true,
      })
    ).schedule!;
    expect(second).toMatchObject({ frequency: ScheduleFrequency.MONTHLY, dayOfMonth: 28, lastScanId: "" });
    expect(second.dayOfWeek).toBeUndefined();
    const list = await b.client.listSchedules({ orgId: o });
    expect(list.schedules.map((s) => s.id)).toEqual([first.id, second.id]);
    expect(list.pageInfo).toMatchObject({ total: 2, page: 1, perPage: 20, pages: 1 });
    const other = org("professional");
    expect(await rpcError(a.client.deleteSchedule({ orgId: other, scheduleId: first.id }))).toMatchObject({ code: "NotFound", errorCode: "NOT_FOUND" });
    expect((await a.client.listSchedules({ orgId: other })).schedules).toEqual([]);
    await a.client.deleteSchedule({ orgId: o, scheduleId: first.id });
    expect((await a.client.listSchedules({ orgId: o })).schedules.map((s) => s.id)).toEqual([second.id]);
  });

  it("run each due schedule exactly once across both instances, counted like any scan, and move next_run_at on", async () => {
    const orgs = [org("enterprise"), org("enterprise"), org("professional")];
    const schedules = [];
    for (const [i, o] of orgs.entries()) {
      for (let k = 0; k < 2; k++) {
        schedules.push(
          (await (i % 2 ? b : a).client.createSchedule(weekly(o, { frequency: ScheduleFrequency.DAILY, dayOfWeek: undefined, hour: 3, timezone: "UTC" })))
            .schedule!,
        );
      }
    }
    const due = new Date(Date.now() - 1000);
    await mongo.db.collection("schedules").updateMany({ _id: { $in: schedules.map((s) => s.id) } } as never, { $set: { next_run_at: due } });

    const scansBySchedule = async () => {
      const all = await Promise.all(orgs.map((o) => a.client.listScans({ orgId: o })));
      return all.flatMap((r) => r.scans).filter((s) => s.scheduleId);
    };
    await eventually("six scheduled scans", async () => (await scansBySchedule()).length >= 6, 15_000);
    await new Promise((r) => setTimeout(r, 1500)); // more passes of both schedulers
    const scans = await scansBySchedule();
    expect(scans.map((s) => s.scheduleId).sort()).toEqual(schedules.map((s) => s.id).sort());
    for (const s of scans) {
      expect(s).toMatchObject({ status: ScanStatus.PENDING, target: "203.0.113.5" });
      expect(s.createdBy).toBeUndefined();
    }

    for (const o of orgs) {
      for (const s of (await a.client.listSchedules({ orgId: o })).schedules) {
        expect(s.lastScanId).toMatch(/^scan_/);
        const next = timestampDate(s.nextRunAt!);
        expect(next.getTime()).toBeGreaterThan(Date.now());
        expect(next.toISOString()).toMatch(/T03:00:00\.000Z$/);
      }
    }
    // One scan.created per schedule, carrying the schedule id; the runs count against the quota.
    for (const s of scans) {
      await eventually("scan.created", () => kafka.payloads(s.id, "scan.created")[0]);
      expect(kafka.payloads(s.id, "scan.created")).toEqual([expect.objectContaining({ scheduleId: s.scheduleId })]);
    }
    expect((await a.client.getQuota({ orgId: orgs[2]! })).quota?.usedThisMonth).toBe(2);

    // A schedule put back to a run time already claimed (as after a crash) is not run again.
    const again = schedules[0]!;
    await mongo.db.collection("schedules").updateOne({ _id: again.id } as never, { $set: { next_run_at: due } });
    await new Promise((r) => setTimeout(r, 1000));
    expect((await scansBySchedule()).filter((s) => s.scheduleId === again.id)).toHaveLength(1);
  });

  it("record a run refused by the concurrency limit on the schedule and move on", async () => {
    const o = unique("org_one");
    auth.set(o, { ...plans.professional, limits: { ...plans.professional.limits, concurrentScans: { max: 1 } } });
    await a.client.createScan({ orgId: o, target: "203.0.113.9", authorized: true });
    const s = (await a.client.createSchedule(weekly(o))).schedule!;
    await mongo.db.collection("schedules").updateOne({ _id: s.id } as never, { $set: { next_run_at: new Date(Date.now() - 1000) } });
    const stored = await eventually("refusal recorded", async () => {
      const doc = await mongo.db.collection("schedules").findOne({ _id: s.id } as never);
      return doc?.last_error && doc;
    });
    expect(stored.last_error).toMatch(/^CONCURRENT_SCAN_LIMIT/);
    expect(stored.last_scan_id).toBe("");
    expect((stored.next_run_at as Date).getTime()).toBeGreaterThan(Date.now());
    expect((await a.client.listScans({ orgId: o })).pageInfo?.total).toBe(1);
  });
});
