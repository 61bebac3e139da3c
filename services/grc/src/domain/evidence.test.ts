import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { EICAR, testGrc } from "../testing.js";
import { EXPIRY_NOTICE_DAYS } from "./evidence.js";
import { controlIdOf } from "./view.js";

const ORG = "org_a";
const ctrl = controlIdOf(ORG, "iso27001:A.8.8");
const DAY = 24 * 3600_000;
const bytes = (s: string) => new TextEncoder().encode(s);
const upload = (file: Uint8Array, extra: Record<string, unknown> = {}) => ({
  orgId: ORG,
  controlId: ctrl,
  name: "../../reports/patching.pdf",
  title: "",
  description: "Monthly patch report",
  contentType: "application/pdf",
  file,
  uploadedBy: "ana@example.com",
  ...extra,
});

describe("evidence", () => {
  it("stores a clean upload with its SHA-256, counts it on the control and emits evidence.uploaded", async () => {
    const t = await testGrc();
    const doc = await t.evidence.upload(upload(bytes("patched"), { expiresAt: new Date("2026-06-01T00:00:00Z") }));
    expect(doc).toMatchObject({ status: "clean", name: "patching.pdf", title: "patching.pdf", size_bytes: 7, source: "upload" });
    expect(doc.sha256).toBe(createHash("sha256").update("patched").digest("hex"));
    expect((await t.controls.get(ORG, ctrl)).evidenceCount).toBe(1);
    expect(t.eventsOf("evidence.uploaded").map((e) => e.payload?.value)).toEqual([
      expect.objectContaining({ evidenceId: doc._id, controlId: ctrl, sizeBytes: 7 }),
    ]);
    const { content } = await t.evidence.download(ORG, doc._id);
    expect(new TextDecoder().decode(content)).toBe("patched");
    await expect(t.evidence.download("org_b", doc._id)).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
    expect((await t.evidence.list(ORG, ctrl, 1, 20)).items.map((d) => d._id)).toEqual([doc._id]);
    await t.evidence.delete(ORG, doc._id, "Ana");
    expect((await t.controls.get(ORG, ctrl)).evidenceCount).toBe(0);
    await expect(t.evidence.get(ORG, doc._id)).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
  });

  it("quarantines EICAR with quarantine.threat_detected and never serves it", async () => {
    const t = await testGrc();
    const doc = await t.evidence.upload(upload(bytes(EICAR)));
    expect(doc).toMatchObject({ status: "quarantined", threat: "Eicar-Test-Signature" });
    expect(t.eventsOf("quarantine.threat_detected").map((e) => e.payload?.value)).toEqual([
      expect.objectContaining({ evidenceId: doc._id, threat: "Eicar-Test-Signature", fileName: "patching.pdf" }),
    ]);
    expect(t.eventsOf("evidence.uploaded")).toEqual([]);
    await expect(t.evidence.download(ORG, doc._id)).rejects.toMatchObject({ errorCode: "INVALID_STATE" });
    expect((await t.controls.get(ORG, ctrl)).evidenceCount).toBe(0);
  });

  it("holds uploads as pending_scan while the scanner is down, and scans them once it is back", async () => {
    const t = await testGrc();
    t.malware.down = true;
    const clean = await t.evidence.upload(upload(bytes("ok")));
    const bad = await t.evidence.upload(upload(bytes(EICAR)));
    expect([clean.status, bad.status]).toEqual(["pending_scan", "pending_scan"]);
    await expect(t.evidence.download(ORG, clean._id)).rejects.toMatchObject({ errorCode: "INVALID_STATE" });
    expect(await t.evidence.rescanPending()).toBe(0);
    t.malware.down = false;
    expect(await t.evidence.rescanPending()).toBe(2);
    expect((await t.evidence.get(ORG, clean._id)).status).toBe("clean");
    expect((await t.evidence.get(ORG, bad._id)).status).toBe("quarantined");
    expect(
      t
        .eventsOf("evidence.uploaded", "quarantine.threat_detected")
        .map((e) => e.type)
        .sort(),
    ).toEqual(["evidence.uploaded", "quarantine.threat_detected"]);
  });

  it("records a rescan's verdict once when two replicas rescan at once", async () => {
    const t = await testGrc();
    t.malware.down = true;
    await t.evidence.upload(upload(bytes("ok")));
    t.malware.down = false;
    const counts = await Promise.all([t.evidence.rescanPending(), t.replica().evidence.rescanPending()]);
    expect(counts[0] + counts[1]).toBe(1);
    expect(t.eventsOf("evidence.uploaded")).toHaveLength(1);
  });

  it("refuses empty, oversized and badly dated uploads with the field named", async () => {
    const t = await testGrc();
    await expect(t.evidence.upload(upload(new Uint8Array()))).rejects.toMatchObject({ field: "file" });
    await expect(t.evidence.upload(upload(new Uint8Array(10 * 1024 * 1024 + 1)))).rejects.toMatchObject({ field: "file" });
    await expect(t.evidence.upload(upload(bytes("x"), { expiresAt: new Date("2020-01-01") }))).rejects.toMatchObject({ field: "expires_at" });
    await expect(t.evidence.upload(upload(bytes("x"), { controlId: "ctrl_0" }))).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
  });

  it("announces expiry once, N days ahead, and marks expired evidence", async () => {
    const t = await testGrc();
    const doc = await t.evidence.upload(upload(bytes("soon"), { expiresAt: new Date(Date.parse("2026-03-01T12:00:00Z") + (EXPIRY_NOTICE_DAYS + 2) * DAY) }));
    expect(await t.evidence.expiryPass()).toEqual({ announced: 0, expired: 0 });
    t.advance(3 * DAY);
    expect(await t.evidence.expiryPass()).toEqual({ announced: 1, expired: 0 });
    expect(await t.evidence.expiryPass()).toEqual({ announced: 0, expired: 0 });
    expect(t.eventsOf("evidence.expiring").map((e) => e.payload?.value)).toEqual([
      expect.objectContaining({ evidenceId: doc._id, daysRemaining: EXPIRY_NOTICE_DAYS - 1 }),
    ]);
    t.advance(EXPIRY_NOTICE_DAYS * DAY);
    expect(await t.evidence.expiryPass()).toEqual({ announced: 0, expired: 1 });
    expect((await t.evidence.get(ORG, doc._id)).status).toBe("expired");
    expect((await t.controls.get(ORG, ctrl)).evidenceCount).toBe(0);
    expect((await t.evidence.download(ORG, doc._id)).content.length).toBe(4);
  });

  it("stores a completed compliance scan as evidence on the controls it tests, once", async () => {
    const t = await testGrc();
    const at = new Date("2026-03-01T13:00:00Z");
    await t.scans.created({ orgId: ORG, scanId: "scan_1", scanType: "compliance", target: "10.0.0.1", frameworks: ["pci_dss"], at });
    await t.scans.created({ orgId: ORG, scanId: "scan_2", scanType: "quick", target: "10.0.0.1", frameworks: [], at });
    const done = { orgId: ORG, scanId: "scan_1", target: "10.0.0.1", durationSeconds: 60, findings: { total: 0 }, at };
    expect(await t.scans.completed(done)).toBe(true);
    expect(await t.scans.completed(done)).toBe(false);
    expect(await t.scans.completed({ ...done, scanId: "scan_2" })).toBe(false);
    const pci = controlIdOf(ORG, "pci_dss:6.3.3");
    expect(await t.controls.get(ORG, pci)).toMatchObject({ evidenceCount: 1, lastTestedAt: at });
    const [ev] = t.eventsOf("evidence.uploaded");
    expect(ev!.payload?.value).toMatchObject({ source: "scan", scanId: "scan_1" });
    const items = (await t.evidence.list(ORG, pci, 1, 20)).items;
    expect(items[0]).toMatchObject({ source: "scan", status: "clean", content_type: "application/json" });
    const report = JSON.parse(new TextDecoder().decode((await t.evidence.download(ORG, items[0]!._id)).content));
    expect(report).toMatchObject({ scan_id: "scan_1", frameworks: ["pci_dss"] });
    expect(report.controls_tested.every((c: { framework: string }) => c.framework === "pci_dss")).toBe(true);
  });
});

describe("audit requests", () => {
  it("opens with audit.request_created, lists by status, answers with evidence", async () => {
    const t = await testGrc();
    const a = await t.audits.create({
      orgId: ORG,
      framework: "soc2",
      controlIds: [ctrl, ctrl],
      title: "Patch evidence",
      description: "",
      requestedBy: "auditor@firm",
    });
    expect(a).toMatchObject({ status: "open", control_ids: [ctrl] });
    expect(t.eventsOf("audit.request_created").map((e) => e.payload?.value)).toEqual([expect.objectContaining({ auditRequestId: a._id, framework: "soc2" })]);
    const ev = await t.evidence.upload(upload(bytes("report")));
    const answered = await t.audits.answer(ORG, a._id, { answer: "See the report", evidenceIds: [ev._id], status: "", user: "Ana" });
    expect(answered).toMatchObject({ status: "closed", answer: "See the report", evidence_ids: [ev._id], answered_by: "Ana" });
    expect((await t.audits.list(ORG, "closed", 1, 20)).items.map((x) => x._id)).toEqual([a._id]);
    expect((await t.audits.list(ORG, "open", 1, 20)).total).toBe(0);
    await expect(t.audits.get("org_b", a._id)).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
    await expect(t.audits.create({ orgId: ORG, framework: "sox", controlIds: [], title: "x", description: "", requestedBy: "" })).rejects.toMatchObject({
      field: "framework",
    });
    await expect(t.audits.answer(ORG, a._id, { answer: "x", evidenceIds: ["evidence_x"], status: "closed", user: "Ana" })).rejects.toMatchObject({
      field: "evidence_ids",
    });
  });
});
