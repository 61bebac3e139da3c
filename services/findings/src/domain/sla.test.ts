import { describe, expect, it } from "vitest";
import { testFindings } from "../testing.js";
import { atRiskAt, DEFAULT_SLA_DAYS, NEVER, policyDue, slaStateAt } from "./sla.js";
import { detection } from "./test-fixtures.js";

const DAY = 24 * 3600_000;
const START = new Date("2026-03-01T12:00:00.000Z");
const actor = { user_id: "user_1", api_key_id: "", display_name: "Ana" };
const at = (days: number) => new Date(START.getTime() + days * DAY);

async function found(over: Parameters<typeof detection>[0] = {}) {
  const t = testFindings({ start: START });
  const { findingId } = await t.ingestion.ingest(detection({ detection_id: "d1", detected_at: START, ...over }));
  return { t, id: findingId, get: () => t.triage.get("org_a", findingId) };
}

describe("SLA rules (pure)", () => {
  it("counts the policy's days from detection; info gets none", () => {
    expect(policyDue({ severity: "high", kev: false, detected_at: START }, DEFAULT_SLA_DAYS)).toEqual({ due: at(30), source: "policy" });
    expect(policyDue({ severity: "info", kev: false, detected_at: START }, DEFAULT_SLA_DAYS)).toEqual({ due: null, source: "" });
  });

  it("KEV takes the critical deadline, or KEV's own due date when earlier", () => {
    expect(policyDue({ severity: "medium", kev: true, detected_at: START }, DEFAULT_SLA_DAYS)).toEqual({ due: at(7), source: "policy" });
    expect(policyDue({ severity: "medium", kev: true, kev_due_date: at(3), detected_at: START }, DEFAULT_SLA_DAYS)).toEqual({ due: at(3), source: "kev" });
    expect(policyDue({ severity: "medium", kev: true, kev_due_date: at(20), detected_at: START }, DEFAULT_SLA_DAYS)).toEqual({ due: at(7), source: "policy" });
  });

  it("turns at risk in the last 20 % and breached at the deadline", () => {
    expect(atRiskAt(START, at(10))).toEqual(at(8));
    const f = { status: "open" as const, due_date: at(10), detected_at: START, sla_at_risk_at: at(8) };
    expect(slaStateAt(f, at(7.9))).toBe("within");
    expect(slaStateAt(f, at(8))).toBe("at_risk");
    expect(slaStateAt(f, at(10))).toBe("breached");
    expect(slaStateAt({ ...f, status: "resolved" }, at(11))).toBeNull();
  });
});

describe("SLA upkeep (in-memory store)", () => {
  it("fills a new finding's due date from the policy and moves its state with the clock", async () => {
    const { t, get } = await found({ severity: "high" });
    const f = await get();
    expect(f).toMatchObject({ due_date: at(30), due_source: "policy", sla_breach_at: at(30), sla_at_risk_at: at(24) });
    expect(await t.repos.lists.count("org_a", { sla_state: "within" })).toBe(1);
    t.advance(25 * DAY);
    expect(slaStateAt(await get(), t.now())).toBe("at_risk");
    expect(await t.repos.lists.count("org_a", { sla_state: "at_risk" })).toBe(1);
    t.advance(6 * DAY);
    expect(await t.repos.lists.count("org_a", { sla_state: "breached" })).toBe(1);
    expect((await t.listing.stats("org_a", {})).sla).toEqual({ breached: 1, at_risk: 0 });
  });

  it("announces a breach once per finding and deadline, and again for a new deadline", async () => {
    const { t, id, get } = await found({ severity: "critical" });
    t.advance(8 * DAY);
    expect(await t.upkeep.run()).toMatchObject({ breaches: 1 });
    expect(await t.upkeep.run()).toMatchObject({ breaches: 0 });
    const breached = () => t.repos.findings.events.filter((e) => e.type === "finding.sla_breached");
    expect(breached()).toHaveLength(1);
    expect(breached()[0]!.finding.due_date).toEqual(at(7));
    // A person's later date that passes too is a new deadline: announced once more.
    await t.triage.update("org_a", id, { due_date: at(9) }, actor);
    t.advance(2 * DAY);
    await t.upkeep.run();
    await t.upkeep.run();
    expect(breached()).toHaveLength(2);
    expect((await get()).due_source).toBe("user");
  });

  it("keeps a person's date through a severity change; clearing it hands the finding back to the policy", async () => {
    const { t, id, get } = await found({ severity: "high" });
    await t.triage.update("org_a", id, { due_date: at(3) }, actor);
    await t.ingestion.ingest(detection({ detection_id: "d2", detected_at: START, severity: "critical" }));
    expect(await get()).toMatchObject({ severity: "critical", due_date: at(3), due_source: "user" });
    await t.triage.update("org_a", id, { due_date: null }, actor);
    expect(await get()).toMatchObject({ due_date: at(7), due_source: "policy" });
  });

  it("stops the SLA when resolved and restarts it on reopening", async () => {
    const { t, id, get } = await found({ severity: "high" });
    await t.triage.update("org_a", id, { status: "resolved" }, actor);
    expect(await get()).toMatchObject({ sla_breach_at: NEVER, sla_breach_pending_at: null });
    t.advance(40 * DAY);
    expect(await t.upkeep.run()).toMatchObject({ breaches: 0 });
    await t.triage.update("org_a", id, { status: "open" }, actor);
    expect(slaStateAt(await get(), t.now())).toBe("breached");
  });

  it("a new policy refreshes open findings' policy dates, not a person's", async () => {
    const { t, id } = await found({ severity: "high" });
    const other = (await t.ingestion.ingest(detection({ detection_id: "d9", template_id: "other", detected_at: START }))).findingId;
    await t.triage.update("org_a", other, { due_date: at(2) }, actor);
    const res = await t.policies.update("org_a", { sla_days: { critical: 3, high: 10, medium: 30, low: 60 }, require_acceptance_approval: false }, actor);
    expect(res.refreshed).toBe(1);
    expect(res.policy.sla_days.info).toBeNull();
    expect((await t.triage.get("org_a", id)).due_date).toEqual(at(10));
    expect((await t.triage.get("org_a", other)).due_date).toEqual(at(2));
  });

  it("a new policy reaches a large organization's open findings in batches: the first before the answer, the rest by housekeeping", async () => {
    const t = testFindings({ start: START, policyRefreshBatch: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await t.ingestion.ingest(detection({ detection_id: `d${i}`, template_id: `t${i}`, severity: "high", detected_at: START }))).findingId);
    }
    const days = { critical: 3, high: 10, medium: 30, low: 60 };
    const res = await t.policies.update("org_a", { sla_days: days, require_acceptance_approval: false }, actor);
    expect(res.refreshed).toBe(2);
    expect(res.policy.refresh).toMatchObject({ state: "running", after: expect.any(String), refreshed: 2 });
    const dues = async () => Promise.all(ids.map(async (id) => (await t.triage.get("org_a", id)).due_date?.getTime()));
    expect((await dues()).filter((d) => d === at(10).getTime())).toHaveLength(2);
    // Housekeeping resumes from the stored cursor until every open finding has the new date.
    expect(await t.policies.continueRefreshes()).toBe(3);
    expect(await dues()).toEqual(ids.map(() => at(10).getTime()));
    expect((await t.policies.get("org_a")).refresh).toMatchObject({ state: "done", refreshed: 5 });
    expect(await t.policies.continueRefreshes()).toBe(0);
  });

  it("saving again during a refresh restarts it with the newer policy; the older one's cursor can no longer move", async () => {
    const t = testFindings({ start: START, policyRefreshBatch: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await t.ingestion.ingest(detection({ detection_id: `d${i}`, template_id: `t${i}`, severity: "high", detected_at: START }))).findingId);
    }
    await t.policies.update("org_a", { sla_days: { critical: 3, high: 10, medium: 30, low: 60 }, require_acceptance_approval: false }, actor);
    const older = await t.policies.get("org_a");
    t.advance(1000);
    const res = await t.policies.update("org_a", { sla_days: { critical: 3, high: 20, medium: 30, low: 60 }, require_acceptance_approval: false }, actor);
    expect(res.policy.refresh).toMatchObject({ state: "running", refreshed: 2 });
    const stale = { state: "done" as const, after: "", refreshed: 9, leased_until: new Date(0) };
    expect(await t.repos.policies.advanceRefresh("org_a", older.updated_at!, older.refresh!, stale)).toBe(false);
    await t.policies.continueRefreshes();
    for (const id of ids) expect((await t.triage.get("org_a", id)).due_date).toEqual(at(20));
    expect((await t.policies.get("org_a")).refresh).toMatchObject({ state: "done", refreshed: 5 });
  });

  it("one worker at a time: a refresh someone holds is not taken until its lease runs out", async () => {
    const t = testFindings({ start: START, policyRefreshBatch: 2 });
    for (let i = 0; i < 5; i++) await t.ingestion.ingest(detection({ detection_id: `d${i}`, template_id: `t${i}`, severity: "high", detected_at: START }));
    await t.policies.update("org_a", { sla_days: { critical: 3, high: 10, medium: 30, low: 60 }, require_acceptance_approval: false }, actor);
    const saved = await t.policies.get("org_a");
    // Another worker takes it (as continueRefreshes does) and dies without releasing it.
    const held = { ...saved.refresh!, leased_until: new Date(t.now().getTime() + 30_000) };
    expect(await t.repos.policies.advanceRefresh("org_a", saved.updated_at!, saved.refresh!, held)).toBe(true);
    expect(await t.policies.continueRefreshes()).toBe(0);
    t.advance(31_000);
    expect(await t.policies.continueRefreshes()).toBe(3);
    expect((await t.policies.get("org_a")).refresh).toMatchObject({ state: "done", refreshed: 5 });
  });

  it("refuses day counts out of range with the field named", async () => {
    const t = testFindings();
    await expect(t.policies.update("org_a", { sla_days: { high: 0 }, require_acceptance_approval: false }, actor)).rejects.toMatchObject({
      errorCode: "VALIDATION_ERROR",
      field: "sla_days.high",
    });
  });

  it("lists by due date soonest first, findings without one last", async () => {
    const { t } = await found({ severity: "low" });
    await t.ingestion.ingest(detection({ detection_id: "d2", template_id: "b", severity: "critical", detected_at: START }));
    await t.ingestion.ingest(detection({ detection_id: "d3", template_id: "c", severity: "info", detected_at: START }));
    const page = await t.listing.list("org_a", { filter: {}, sort: { field: "due_date", order: "asc" } }, 1, 10);
    expect(page.items.map((f) => f.severity)).toEqual(["critical", "low", "info"]);
  });
});
