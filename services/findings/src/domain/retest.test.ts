import { describe, expect, it } from "vitest";
import type { MemoryRetests } from "../testing/memory-retests.js";
import { testFindings } from "../testing.js";
import { componentPort, RETEST_DEADLINE_MS, RETEST_GRACE_MS, retestable, type RetestResult } from "./retest.js";
import { detection } from "./test-fixtures.js";

const actor = { user_id: "user_1", api_key_id: "", display_name: "Ana" };

async function withFinding(over: Parameters<typeof detection>[0] = {}, opts: Parameters<typeof testFindings>[0] = {}) {
  const t = testFindings(opts);
  const { findingId } = await t.ingestion.ingest(detection({ detection_id: "d1", ...over }));
  return { t, findingId, store: t.repos.retests as MemoryRetests };
}

const result = (retestId: string, over: Partial<RetestResult> = {}): RetestResult => ({
  retest_id: retestId,
  org_id: "org_a",
  verdict: "fixed",
  reason: "",
  detail: "answered, no match",
  evidence: { request: "retest", response: "service: http nginx" },
  worker_id: "w1",
  finished_at: new Date("2026-03-01T12:00:05Z"),
  ...over,
});

describe("componentPort / retestable", () => {
  it("reads the port every component format names", () => {
    expect(componentPort("http://10.0.0.5:8080/.git/config")).toBe(8080);
    expect(componentPort("https://app.example.test/")).toBe(443);
    expect(componentPort("http://app.example.test")).toBe(80);
    expect(componentPort("tcp://10.0.0.5:21")).toBe(21);
    expect(componentPort("vsftpd 2.3.4 on 10.0.0.5:21")).toBe(21);
    expect(componentPort("10.0.0.5:443")).toBe(443);
    expect(componentPort("weak.vslab.test:8443")).toBe(8443);
    expect(componentPort("10.0.0.5")).toBeUndefined();
    expect(componentPort("x on h:99999")).toBeUndefined();
  });

  it("knows which checks run alone", () => {
    expect(retestable({ tool: "tls", template_id: "tls-weak-ciphers" })).toBe(true);
    expect(retestable({ tool: "templates", template_id: "git-repository-exposure" })).toBe(true);
    expect(retestable({ tool: "banner", template_id: "cve:CVE-2011-2523" })).toBe(true);
    expect(retestable({ tool: "portscan", template_id: "net-open-ports" })).toBe(false);
    expect(retestable({ tool: "correlator", template_id: "correlation-admin" })).toBe(false);
  });
});

describe("retests (in-memory store)", () => {
  it("sends one job for the finding's check and component, and refuses a second while it is pending", async () => {
    const { t, findingId, store } = await withFinding();
    const { retest, remaining } = await t.retests.request("org_a", findingId, actor);
    expect(retest).toMatchObject({ status: "pending", template_id: "tls-weak-cipher", tool: "tls", port: 443, requested_by: "Ana" });
    expect(remaining).toBe(4);
    expect(store.jobs.map((j) => j._id)).toEqual([retest._id]);
    await expect(t.retests.request("org_a", findingId, actor)).rejects.toMatchObject({ errorCode: "INVALID_STATE" });
  });

  it("fixed resolves the finding as verified_fixed with history and status events; a redelivered verdict changes nothing", async () => {
    const { t, findingId, store } = await withFinding();
    const { retest } = await t.retests.request("org_a", findingId, actor);
    const done = await t.retests.complete(result(retest._id));
    expect(done).toMatchObject({ status: "completed", verdict: "fixed", finding_status: "resolved" });
    const f = await t.triage.get("org_a", findingId);
    expect(f).toMatchObject({ status: "resolved", resolution: "verified_fixed" });
    expect(f.history).toContainEqual(expect.objectContaining({ action: "status_changed", from: "open", to: "resolved", user: "system" }));
    expect(f.history).toContainEqual(expect.objectContaining({ action: "retested", to: `fixed (${retest._id})` }));
    expect(t.repos.findings.events.map((e) => e.type)).toEqual(expect.arrayContaining(["vulnerability.status_changed", "vulnerability.resolved"]));
    expect(store.events.map((e) => e.retest.verdict)).toEqual(["fixed"]);
    const before = t.repos.findings.events.length;
    expect(await t.retests.complete(result(retest._id))).toBeNull();
    expect(t.repos.findings.events.length).toBe(before);
    expect(store.events).toHaveLength(1);
    // The lock is gone: the finding may be retested again.
    await expect(t.retests.request("org_a", findingId, actor)).resolves.toBeTruthy();
  });

  it("inconclusive keeps the status and says why; still_vulnerable refreshes the evidence", async () => {
    const { t, findingId } = await withFinding();
    const a = await t.retests.request("org_a", findingId, actor);
    await t.retests.complete(result(a.retest._id, { verdict: "inconclusive", reason: "refused", evidence: { request: "", response: "" } }));
    expect((await t.triage.get("org_a", findingId)).status).toBe("open");
    t.advance(1000);
    const b = await t.retests.request("org_a", findingId, actor);
    const done = await t.retests.complete(result(b.retest._id, { verdict: "still_vulnerable", evidence: { request: "ClientHello", response: "3DES again" } }));
    expect(done).toMatchObject({ verdict: "still_vulnerable", finding_status: "open" });
    const f = await t.triage.get("org_a", findingId);
    expect(f.evidence.response).toBe("3DES again");
    const list = await t.retests.list("org_a", findingId, 1, 20);
    expect(list.total).toBe(2);
    expect(list.items.map((r) => r.verdict)).toEqual(["still_vulnerable", "inconclusive"]);
    expect(list.items[1]).toMatchObject({ reason: "refused" });
  });

  it("a retest no worker answered ends as inconclusive (timeout) after its deadline", async () => {
    const { t, findingId } = await withFinding();
    const { retest } = await t.retests.request("org_a", findingId, actor);
    expect(await t.retests.timeOutOverdue()).toBe(0);
    t.advance(RETEST_DEADLINE_MS + RETEST_GRACE_MS + 1);
    expect(await t.retests.timeOutOverdue()).toBe(1);
    const [r] = (await t.retests.list("org_a", findingId, 1, 20)).items;
    expect(r).toMatchObject({ _id: retest._id, verdict: "inconclusive", reason: "timeout" });
    expect((await t.triage.get("org_a", findingId)).status).toBe("open");
  });

  it("counts against a monthly budget of its own", async () => {
    const { t, findingId } = await withFinding({}, { retestsPerMonth: 1 });
    const { retest } = await t.retests.request("org_a", findingId, actor);
    await t.retests.complete(result(retest._id, { verdict: "inconclusive", reason: "timeout" }));
    await expect(t.retests.request("org_a", findingId, actor)).rejects.toMatchObject({ errorCode: "RETEST_QUOTA_EXCEEDED" });
  });

  it("refuses checks that cannot run alone, and another organization's finding", async () => {
    const { t, findingId } = await withFinding({ tool: "portscan", template_id: "net-open-ports", affected_component: "10.0.0.5" });
    await expect(t.retests.request("org_a", findingId, actor)).rejects.toMatchObject({ errorCode: "INVALID_STATE" });
    await expect(t.retests.request("org_b", findingId, actor)).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
    await expect(t.retests.list("org_b", findingId, 1, 20)).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
  });
});
