import { DomainError, encodeCursor } from "@vulnscan/kit/core";
import { describe, expect, it } from "vitest";
import { FULL_PHASES, QUICK_PHASES } from "@vulnscan/scan-contract";
import { scanListDescription } from "./scans.js";
import { PLANS, testDomain } from "./testing.js";

async function errorOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError)
      return { kind: err.kind, code: err.errorCode, field: err.field, message: err.message, retryAfterSeconds: err.retryAfterSeconds };
    throw err;
  }
  throw new Error("expected a DomainError");
}

const base = { frameworks: [], ports: "", authorized: true };

describe("CreateScan", () => {
  it("stores a pending scan with its estimate, scan.created and the first job (all phases, attempt 1, deadline)", async () => {
    const d = testDomain();
    const scan = await d.scans.create({ ...base, orgId: "org_p", target: "93.184.216.34", frameworks: ["soc2"] });
    expect(scan).toMatchObject({
      status: "pending",
      scan_type: "full",
      progress: 0,
      phase: "",
      phases: [...FULL_PHASES],
      phases_remaining: [...FULL_PHASES],
      phases_completed: [],
      estimated_duration_seconds: 2700,
      attempt: 1,
    });
    expect(scan.deadline.getTime() - scan.created_at.getTime()).toBe(7200_000);
    expect(d.scanStore.eventTypes()).toEqual(["scan.created"]);
    const created = d.scanStore.published.events[0]?.payload;
    expect(created?.case === "scanCreated" && created.value).toMatchObject({
      scanId: scan._id,
      target: "93.184.216.34",
      scanType: "full",
      status: "pending",
      frameworks: ["soc2"],
      estimatedDurationSeconds: 2700,
    });
    const [cmd] = d.scanStore.published.commands;
    expect(cmd?.kind === "job" && cmd.job).toMatchObject({ scanId: scan._id, orgId: "org_p", attempt: 1, phases: [...FULL_PHASES] });
    expect(d.limits.holders()).toEqual([scan._id]);
  });

  it("runs the quick phases for a quick scan and keeps the normalized ports", async () => {
    const d = testDomain();
    const scan = await d.scans.create({ ...base, orgId: "org_p", target: "example.com", scanType: "quick", ports: " 80, 443 ,8000-8010" });
    expect(scan.phases).toEqual([...QUICK_PHASES]);
    expect(scan.ports).toBe("80,443,8000-8010");
    expect(scan.deadline.getTime() - scan.created_at.getTime()).toBe(1800_000);
  });

  it.each([
    [{ authorized: false }, "authorized"],
    [{ target: "not a target" }, "target"],
    [{ target: "10.0.0.1" }, "target"],
    [{ target: "203.0.113.0/23" }, "target"],
    [{ ports: "0-10" }, "ports"],
    [{ frameworks: ["sox"] }, "frameworks"],
  ])("refuses %j with VALIDATION_ERROR on %s", async (patch, field) => {
    const d = testDomain();
    const e = await errorOf(d.scans.create({ ...base, orgId: "org_p", target: "93.184.216.34", ...patch }));
    expect(e).toMatchObject({ kind: "validation", code: "VALIDATION_ERROR", field });
    expect(d.scanStore.scans.size).toBe(0);
    expect(d.limits.holders()).toEqual([]);
  });

  it("caps CIDR size per plan", async () => {
    const d = testDomain();
    expect(await errorOf(d.scans.create({ ...base, orgId: "org_s", target: "8.8.8.0/24" }))).toMatchObject({ field: "target" });
    expect((await d.scans.create({ ...base, orgId: "org_s", target: "8.8.8.0/28" })).status).toBe("pending");
    expect((await d.scans.create({ ...base, orgId: "org_e", target: "8.8.0.0/20" })).status).toBe("pending");
  });

  it("refuses beyond the concurrent limit with CONCURRENT_SCAN_LIMIT, and admits again once one ends", async () => {
    const d = testDomain();
    const first = await d.scans.create({ ...base, orgId: "org_s", target: "93.184.216.34" });
    const e = await errorOf(d.scans.create({ ...base, orgId: "org_s", target: "93.184.216.34" }));
    expect(e).toMatchObject({ kind: "quota", code: "CONCURRENT_SCAN_LIMIT", retryAfterSeconds: 30 }); // Retry-After (issue 30)
    await d.scans.cancel("org_s", first._id);
    expect((await d.scans.create({ ...base, orgId: "org_s", target: "93.184.216.34" })).status).toBe("pending");
    expect(d.limits.months.get("org_s:2026-03")).toBe(2); // the refused one did not count
  });

  it("refuses beyond the monthly quota with SCAN_QUOTA_EXCEEDED and gives the concurrency slot back", async () => {
    const plans = { org_x: { ...PLANS.professional, scansPerMonth: { unlimited: false, max: 2 } } };
    const d = testDomain({ plans });
    for (let i = 0; i < 2; i++) {
      const s = await d.scans.create({ ...base, orgId: "org_x", target: "93.184.216.34" });
      await d.scans.cancel("org_x", s._id);
    }
    const e = await errorOf(d.scans.create({ ...base, orgId: "org_x", target: "93.184.216.34" }));
    expect(e).toMatchObject({ kind: "quota", code: "SCAN_QUOTA_EXCEEDED" });
    expect(e.message).toContain("2026-04-01T00:00:00.000Z");
    expect(d.limits.holders()).toEqual([]);
    // A new month starts a new count.
    d.clock.set(new Date("2026-04-01T00:00:00Z"));
    expect((await d.scans.create({ ...base, orgId: "org_x", target: "93.184.216.34" })).status).toBe("pending");
  });

  it("counts unlimited plans without limiting them", async () => {
    const d = testDomain();
    for (let i = 0; i < 5; i++) await d.scans.create({ ...base, orgId: "org_e", target: "93.184.216.34" });
    expect(await d.scans.quota("org_e")).toMatchObject({ plan: "enterprise", unlimited: true, usedThisMonth: 5 });
  });
});

describe("GetQuota", () => {
  it("reports limit, use, remaining and the first instant of next month (UTC)", async () => {
    const d = testDomain({ start: new Date("2026-12-31T23:59:00Z") });
    await d.scans.create({ ...base, orgId: "org_s", target: "93.184.216.34" });
    expect(await d.scans.quota("org_s")).toEqual({
      plan: "startup",
      unlimited: false,
      monthlyLimit: 25,
      usedThisMonth: 1,
      remaining: 24,
      resetsAt: new Date("2027-01-01T00:00:00Z"),
    });
  });
});

describe("GetScan, ListScans, CancelScan", () => {
  it("hides another organization's scan (NOT_FOUND)", async () => {
    const d = testDomain();
    const s = await d.scans.create({ ...base, orgId: "org_p", target: "93.184.216.34" });
    expect(await errorOf(d.scans.get("org_s", s._id))).toMatchObject({ kind: "not_found", code: "NOT_FOUND" });
    expect(await errorOf(d.scans.cancel("org_s", s._id))).toMatchObject({ kind: "not_found" });
    expect((await d.scans.list("org_s", {}, { page: 1, perPage: 20 })).total).toBe(0);
  });

  it("cancels a pending scan once: cancelled, completed_at, error, slot released, ScanCancellation, no event", async () => {
    const d = testDomain();
    const s = await d.scans.create({ ...base, orgId: "org_p", target: "93.184.216.34" });
    d.clock.advance(5000);
    const c = await d.scans.cancel("org_p", s._id);
    expect(c).toMatchObject({ status: "cancelled", error: "cancelled by user", completed_at: d.clock.now() });
    expect(d.limits.holders()).toEqual([]);
    expect(d.scanStore.eventTypes()).toEqual(["scan.created"]);
    expect(d.scanStore.published.commands.map((x) => x.kind)).toEqual(["job", "cancellation"]);
    expect(await errorOf(d.scans.cancel("org_p", s._id))).toMatchObject({
      kind: "invalid_state",
      code: "INVALID_STATE",
      message: "Scan is already cancelled",
    });
    expect((await d.scans.get("org_p", s._id)).status).toBe("cancelled");
  });

  it("lists newest first with filters and pages", async () => {
    const d = testDomain();
    const ids: string[] = [];
    for (const t of ["93.184.216.34", "example.com", "93.184.216.34"]) {
      ids.push((await d.scans.create({ ...base, orgId: "org_e", target: t }))._id);
      d.clock.advance(60_000);
    }
    await d.scans.cancel("org_e", ids[1]!);
    const all = await d.scans.list("org_e", {}, { page: 1, perPage: 2 });
    expect(all.total).toBe(3);
    expect(all.items.map((s) => s._id)).toEqual([ids[2], ids[1]]);
    expect((await d.scans.list("org_e", { status: "cancelled" }, { page: 1, perPage: 20 })).items.map((s) => s._id)).toEqual([ids[1]]);
    expect((await d.scans.list("org_e", { target: "93.184.216.34" }, { page: 1, perPage: 20 })).total).toBe(2);
    const t0 = new Date("2026-03-10T12:01:00Z");
    expect((await d.scans.list("org_e", { from: t0 }, { page: 1, perPage: 20 })).total).toBe(2);
    expect((await d.scans.list("org_e", { to: t0 }, { page: 1, perPage: 20 })).total).toBe(1);
  });
});

describe("ListScans with the keyset cursor", () => {
  /** Scans of org_e: three created in each of four milliseconds, targets alternating. */
  async function seeded() {
    const d = testDomain();
    for (let ms = 0; ms < 4; ms++) {
      for (let i = 0; i < 3; i++) await d.scans.create({ ...base, orgId: "org_e", target: i % 2 ? "example.com" : "93.184.216.34" });
      d.clock.advance(1);
    }
    await d.scans.create({ ...base, orgId: "org_p", target: "93.184.216.34" });
    return d;
  }

  async function walk(d: Awaited<ReturnType<typeof seeded>>, orgId: string, filter: Parameters<typeof d.scans.list>[1], perPage: number) {
    const ids: string[] = [];
    const pages: number[] = [];
    let res = await d.scans.list(orgId, filter, { page: 1, perPage });
    for (;;) {
      ids.push(...res.items.map((s) => s._id));
      pages.push(res.page.page);
      if (!res.nextCursor) break;
      if (pages.length > 50) throw new Error("the cursor walk does not end");
      // The page asked for beside a cursor is ignored: the cursor carries it.
      res = await d.scans.list(orgId, filter, { page: 1, perPage }, res.nextCursor);
    }
    return { ids, pages, last: res };
  }

  it("walks the same scans as page numbers, ties within a millisecond neither skipped nor repeated", async () => {
    const d = await seeded();
    for (const [filter, perPage] of [
      [{}, 2],
      [{}, 4],
      [{}, 5],
      [{ target: "93.184.216.34" }, 3],
      [{ from: new Date("2026-03-10T12:00:00.001Z") }, 2],
    ] as const) {
      const all = await d.scans.list("org_e", filter, { page: 1, perPage: 100 });
      const byNumber: string[] = [];
      for (let page = 1; (page - 1) * perPage < all.total; page++)
        byNumber.push(...(await d.scans.list("org_e", filter, { page, perPage })).items.map((s) => s._id));
      const { ids, pages, last } = await walk(d, "org_e", filter, perPage);
      expect(ids, JSON.stringify(filter)).toEqual(byNumber);
      expect(new Set(ids).size).toBe(all.total);
      expect(pages).toEqual(pages.map((_, i) => i + 1));
      expect(last).toMatchObject({ total: all.total, nextCursor: "" });
    }
    // 12 scans in pages of 4: the third page is the last, with no cursor to an empty fourth.
    expect((await walk(d, "org_e", {}, 4)).pages).toEqual([1, 2, 3]);
    expect((await d.scans.list("org_e", {}, { page: 1, perPage: 100 })).nextCursor).toBe("");
  });

  it("keeps its place when newer scans arrive while a client walks the list", async () => {
    const d = await seeded();
    const first = await d.scans.list("org_e", {}, { page: 1, perPage: 5 });
    d.clock.advance(60_000);
    await d.scans.create({ ...base, orgId: "org_e", target: "93.184.216.34" });
    const second = await d.scans.list("org_e", {}, { page: 1, perPage: 5 }, first.nextCursor);
    const byNumberBefore = (await d.scans.list("org_e", {}, { page: 1, perPage: 100 })).items.map((s) => s._id).slice(1);
    expect(second.items.map((s) => s._id)).toEqual(byNumberBefore.slice(5, 10));
    expect(second.page.page).toBe(2);
  });

  it("refuses a cursor of other filters or another organization, and anything it did not issue (VALIDATION_ERROR on cursor)", async () => {
    const d = await seeded();
    const { nextCursor } = await d.scans.list("org_e", {}, { page: 1, perPage: 2 });
    const refused = { kind: "validation", code: "VALIDATION_ERROR", field: "cursor" };
    expect(await errorOf(d.scans.list("org_e", { target: "example.com" }, { page: 1, perPage: 2 }, nextCursor))).toMatchObject({
      ...refused,
      message: "cursor belongs to a list with other filters or sort order",
    });
    expect(await errorOf(d.scans.list("org_e", { status: "pending" }, { page: 1, perPage: 2 }, nextCursor))).toMatchObject(refused);
    expect(await errorOf(d.scans.list("org_p", {}, { page: 1, perPage: 2 }, nextCursor))).toMatchObject(refused);
    expect(await errorOf(d.scans.list("org_e", {}, { page: 1, perPage: 2 }, "not-a-cursor"))).toMatchObject({
      ...refused,
      message: "cursor is not a cursor this API issued",
    });
    // A well-formed cursor of the right list whose key is not a date is not one of ours either.
    const numeric = encodeCursor(scanListDescription("org_e", {}), 2, { key: 5, id: "scan_0001" });
    expect(await errorOf(d.scans.list("org_e", {}, { page: 1, perPage: 2 }, numeric))).toMatchObject(refused);
  });

  it("moves only within the caller's organization, even with a cursor made for another's anchor", async () => {
    const d = await seeded();
    const orgE = (await d.scans.list("org_e", {}, { page: 1, perPage: 100 })).items;
    // org_p hand-makes a valid cursor for its own list, anchored at an org_e scan.
    const forged = encodeCursor(scanListDescription("org_p", {}), 2, { key: new Date(orgE[0]!.created_at.getTime() + 3_600_000), id: orgE[0]!._id });
    const res = await d.scans.list("org_p", {}, { page: 1, perPage: 100 }, forged);
    expect(res.items.every((s) => s.org_id === "org_p")).toBe(true);
    expect(res.items).toHaveLength(1);
  });
});
