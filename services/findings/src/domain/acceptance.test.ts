import { describe, expect, it } from "vitest";
import { testFindings } from "../testing.js";
import { ACCEPTANCE_MAX_DAYS } from "./acceptance.js";
import { detection } from "./test-fixtures.js";

const DAY = 24 * 3600_000;
const START = new Date("2026-03-01T12:00:00.000Z");
const ana = { user_id: "user_ana", api_key_id: "", display_name: "ana@example.test" };
const bob = { user_id: "user_bob", api_key_id: "", display_name: "bob@example.test" };
const at = (days: number) => new Date(START.getTime() + days * DAY);

async function found(approval = false) {
  const t = testFindings({ start: START });
  const { findingId } = await t.ingestion.ingest(detection({ detection_id: "d1", detected_at: START }));
  if (approval) await t.policies.update("org_a", { sla_days: {}, require_acceptance_approval: true }, ana);
  return { t, id: findingId, get: () => t.triage.get("org_a", findingId) };
}

describe("risk acceptance", () => {
  it("requires an expiry within the maximum and a justification, with the field named", async () => {
    const { t, id } = await found();
    await expect(t.triage.update("org_a", id, { status: "accepted" }, ana)).rejects.toMatchObject({ field: "acceptance.expires_at" });
    await expect(t.triage.update("org_a", id, { status: "accepted" }, ana, { expires_at: at(10), justification: " " })).rejects.toMatchObject({
      field: "acceptance.justification",
    });
    await expect(
      t.triage.update("org_a", id, { status: "accepted" }, ana, { expires_at: at(ACCEPTANCE_MAX_DAYS + 1), justification: "x" }),
    ).rejects.toMatchObject({
      field: "acceptance.expires_at",
    });
    await expect(t.triage.update("org_a", id, { status: "accepted" }, ana, { expires_at: at(-1), justification: "x" })).rejects.toMatchObject({
      field: "acceptance.expires_at",
    });
    await expect(t.triage.update("org_a", id, { status: "open" }, ana, { expires_at: at(1), justification: "x" })).rejects.toMatchObject({
      field: "acceptance",
    });
    await expect(t.triage.bulk("org_a", [id], { status: "accepted" }, ana)).rejects.toMatchObject({ field: "update.acceptance.expires_at" });
  });

  it("accepts until the expiry, then reopens by itself once, with history and events", async () => {
    const { t, id, get } = await found();
    const f = await t.triage.update("org_a", id, { status: "accepted" }, ana, { expires_at: at(14), justification: "Behind the VPN" });
    expect(f).toMatchObject({ status: "accepted", accepted_until: at(14), acceptance: { state: "approved", justification: "Behind the VPN" } });
    expect(await t.repos.lists.count("org_a", { accepted_expiring_within_days: 14 })).toBe(1);
    expect(await t.repos.lists.count("org_a", { accepted_expiring_within_days: 13 })).toBe(0);
    t.advance(14 * DAY);
    expect(await t.upkeep.run()).toMatchObject({ expiries: 1 });
    expect(await t.upkeep.run()).toMatchObject({ expiries: 0 });
    const after = await get();
    expect(after).toMatchObject({ status: "open", accepted_until: null, acceptance: { state: "expired" } });
    expect(after.history.map((h) => [h.action, h.user])).toEqual(
      expect.arrayContaining([
        ["status_changed", "system"],
        ["acceptance_expired", "system"],
      ]),
    );
    const types = t.repos.findings.events.map((e) => e.type);
    expect(types.filter((x) => x === "finding.acceptance_expired")).toHaveLength(1);
    expect(t.repos.findings.events.filter((e) => e.type === "vulnerability.status_changed").at(-1)?.status).toEqual({
      from: "accepted",
      to: "open",
      user: "system",
    });
  });

  it("with approval required, waits (status unchanged) for a second user's approval", async () => {
    const { t, id, get } = await found(true);
    const f = await t.triage.update("org_a", id, { status: "accepted", assignee: "ops" }, ana, { expires_at: at(30), justification: "Compensating WAF rule" });
    expect(f).toMatchObject({ status: "open", assignee: "ops", acceptance: { state: "pending", requested_by: "ana@example.test" } });
    expect(t.repos.findings.events.map((e) => e.type)).toContain("finding.acceptance_requested");
    await expect(t.triage.decideAcceptance("org_a", id, true, "", ana)).rejects.toMatchObject({ errorCode: "FORBIDDEN" });
    const approved = await t.triage.decideAcceptance("org_a", id, true, "ok", bob);
    expect(approved).toMatchObject({ status: "accepted", accepted_until: at(30), acceptance: { state: "approved", decided_by: "bob@example.test" } });
    await expect(t.triage.decideAcceptance("org_a", id, true, "", bob)).rejects.toMatchObject({ errorCode: "CONFLICT" });
    expect((await get()).history.map((h) => h.action)).toEqual(expect.arrayContaining(["acceptance_requested", "acceptance_approved", "status_changed"]));
  });

  it("a rejection leaves the status; a status change withdraws a pending request", async () => {
    const { t, id } = await found(true);
    await t.triage.update("org_a", id, { status: "accepted" }, ana, { expires_at: at(30), justification: "x" });
    expect(await t.triage.decideAcceptance("org_a", id, false, "no", bob)).toMatchObject({ status: "open", acceptance: { state: "rejected" } });
    await t.triage.update("org_a", id, { status: "accepted" }, ana, { expires_at: at(30), justification: "again" });
    expect(await t.triage.update("org_a", id, { status: "in_progress" }, ana)).toMatchObject({ status: "in_progress", acceptance: { state: "withdrawn" } });
  });

  it("bulk updates apply the same rules to every finding", async () => {
    const { t, id } = await found(true);
    const res = await t.triage.bulk("org_a", [id, "finding_nope"], { status: "accepted" }, ana, { expires_at: at(5), justification: "Bulk" });
    expect(res.failed).toEqual([expect.objectContaining({ finding_id: "finding_nope", error_code: "NOT_FOUND" })]);
    expect(await t.triage.get("org_a", id)).toMatchObject({ status: "open", acceptance: { state: "pending" } });
  });

  it("the SLA stops while accepted", async () => {
    const { t, id, get } = await found();
    await t.triage.update("org_a", id, { status: "accepted" }, ana, { expires_at: at(60), justification: "x" });
    t.advance(40 * DAY);
    expect(await t.upkeep.run()).toEqual({ breaches: 0, expiries: 0 });
    expect((await get()).status).toBe("accepted");
    void id;
  });
});
