import { describe, expect, it } from "vitest";
import { testFindings } from "../testing.js";
import { detection } from "./test-fixtures.js";

const actor = { user_id: "user_1", api_key_id: "", display_name: "Ana" };

async function withFinding() {
  const t = testFindings();
  const { findingId } = await t.ingestion.ingest(detection({ detection_id: "d1" }));
  return { t, findingId };
}

describe("triage (in-memory store)", () => {
  it("updates status and triage fields with a history entry and a status event", async () => {
    const { t, findingId } = await withFinding();
    t.advance(3_600_000);
    const f = await t.triage.update("org_a", findingId, { status: "in_progress", assignee: "bob@example.com", priority: "high" }, actor);
    expect(f).toMatchObject({ status: "in_progress", assignee: "bob@example.com", priority: "high" });
    expect(f.history).toContainEqual(expect.objectContaining({ action: "status_changed", from: "open", to: "in_progress", user: "Ana" }));
    expect((await t.triage.get("org_a", findingId)).status).toBe("in_progress");
    expect(t.repos.findings.events.map((e) => e.type)).toContain("vulnerability.status_changed");
  });

  it("refuses bad input with the field named", async () => {
    const { t, findingId } = await withFinding();
    await expect(t.triage.comment("org_a", findingId, "   ", actor)).rejects.toMatchObject({ errorCode: "VALIDATION_ERROR", field: "text" });
    await expect(t.triage.update("org_a", findingId, { assignee: "x".repeat(321) }, actor)).rejects.toMatchObject({ field: "assignee" });
    await expect(t.triage.bulk("org_a", [], { status: "resolved" }, actor)).rejects.toMatchObject({ field: "finding_ids" });
  });

  it("does not see or touch another organization's finding", async () => {
    const { t, findingId } = await withFinding();
    await expect(t.triage.get("org_b", findingId)).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
    await expect(t.triage.update("org_b", findingId, { status: "resolved" }, actor)).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
    await expect(t.triage.comment("org_b", findingId, "hi", actor)).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
    const bulk = await t.triage.bulk("org_b", [findingId], { status: "resolved" }, actor);
    expect(bulk).toEqual({ updated: 0, failed: [{ finding_id: findingId, error_code: "NOT_FOUND", detail: "Finding not found" }] });
    expect((await t.triage.get("org_a", findingId)).status).toBe("open");
  });

  it("comments and bulk-updates, counting duplicated ids once", async () => {
    const { t, findingId } = await withFinding();
    const c = await t.triage.comment("org_a", findingId, " looks real ", actor);
    expect(c).toMatchObject({ text: "looks real", user: "Ana", user_id: "user_1" });
    expect(await t.triage.bulk("org_a", [findingId, findingId, "finding_nope"], { status: "resolved" }, actor)).toMatchObject({
      updated: 1,
      failed: [{ finding_id: "finding_nope", error_code: "NOT_FOUND" }],
    });
    const f = await t.triage.get("org_a", findingId);
    expect(f.comments.map((x) => x.text)).toEqual(["looks real"]);
    expect(f.status).toBe("resolved");
  });
});
