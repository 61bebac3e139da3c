import http from "node:http";
import type net from "node:net";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Severity } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { ScanType } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { phasesFor } from "@vulnscan/scan-contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unique } from "../../../../test/support/names.js";
import type { PhaseHandler } from "../../src/engine/types.js";
import { setTimeout as sleep } from "node:timers/promises";
import { startScanner, until, type Scanner } from "./harness.js";

/*
 * The scanner worker end to end on the real broker: ScanJobs in, ScanReports and Detections
 * out. The target is a small HTTP server of this test on one loopback port, and every job
 * names exactly that port (never a sweep of loopback).
 */

let target: http.Server;
let port = 0;
let scanner: Scanner;
let slow: Scanner;

const GIT_CONFIG = '[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote "origin"]\n\turl = https://git.example.test/acme/shop.git\n';
const ENV = "APP_ENV=production\nDB_HOST=db.internal\nDB_PASSWORD=lab-only-password\nSTRIPE_SECRET_KEY=sk_test_labonly\n";

/** Holds the phase until the scan is stopped (or 60 s), after reporting one detection: a long-running phase. */
const holdingPhase: PhaseHandler = async (ctx) => {
  ctx.setTool("slow-check");
  await ctx.report({
    templateId: "test-slow-check-started",
    confidence: "confirmed",
    title: "Slow check started",
    severity: "low",
    cvssScore: 3.1,
    cvssVector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N",
    cweIds: ["CWE-200"],
    cveIds: [],
    tool: "slow-check",
    target: ctx.target,
    affectedComponent: `${ctx.target}:${ctx.ports[0]}`,
    description: "A phase that runs until it is stopped.",
    impact: "",
    remediation: { summary: "None.", steps: [], codeExample: "", references: [] },
    evidence: { request: "", response: "" },
  });
  await new Promise<void>((resolve) => {
    const t = setTimeout(resolve, 60_000);
    ctx.signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });
};

beforeAll(async () => {
  target = http.createServer((req, res) => {
    const url = (req.url ?? "/").split("?")[0];
    if (url === "/.git/config") return res.writeHead(200, { "Content-Type": "text/plain" }).end(GIT_CONFIG);
    if (url === "/.env") return res.writeHead(200, { "Content-Type": "text/plain" }).end(ENV);
    if (url === "/") return res.writeHead(200, { "Content-Type": "text/html" }).end("<html><head><title>Shop</title></head><body>hello</body></html>");
    res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  port = (target.address() as net.AddressInfo).port;
  [scanner, slow] = await Promise.all([startScanner(), startScanner({ overrides: { handlers: { enumeration: holdingPhase }, stopGraceMs: 500 } })]);
});

afterAll(async () => {
  await Promise.allSettled([scanner?.stop(), slow?.stop()]);
  await new Promise((r) => target?.close(r));
});

describe("scanner worker on Kafka", () => {
  it("runs a full scan's 11 phases in order, reports progress to 100 and streams detections with evidence", async () => {
    const scanId = unique("scan");
    const phases = phasesFor("full");
    await scanner.publishJob({ scanId, ports: String(port), phases, frameworks: ["pci_dss", "iso27001"] });
    const end = await until(() => scanner.recorder.finished(scanId), 90_000, "scan end");
    expect(end.report.case, JSON.stringify(end.report.value)).toBe("completed");

    expect(scanner.recorder.timeline(scanId)).toEqual([...phases.flatMap((p) => [`phaseStarted:${p}`, `phaseCompleted:${p}`]), "completed"]);
    const completed = scanner.recorder.reportsOf(scanId).flatMap((r) => (r.report.case === "phaseCompleted" ? [r.report.value] : []));
    expect(completed.map((c) => c.progress)).toEqual([9, 18, 27, 36, 45, 55, 64, 73, 82, 91, 100]);
    completed.forEach((c, i) => {
      expect(c.phasesCompleted).toEqual(phases.slice(0, i + 1));
      expect(c.phasesRemaining).toEqual(phases.slice(i + 1));
    });
    const reports = scanner.recorder.reportsOf(scanId);
    expect(new Set(reports.map((r) => r.reportId)).size).toBe(reports.length);
    expect(reports.every((r) => r.attempt === 1 && r.orgId === "org_scanner_test" && r.workerId.length > 0)).toBe(true);

    const detections = scanner.recorder.detectionsOf(scanId);
    const ids = detections.map((d) => d.templateId);
    expect(ids).toEqual(expect.arrayContaining(["git-repository-exposure", "env-file-secrets", "remediation-plan"]));
    const git = detections.find((d) => d.templateId === "git-repository-exposure")!;
    expect(git).toMatchObject({
      tool: "templates",
      phase: "vulnerability_scanning",
      severity: Severity.MEDIUM,
      cvssScore: 5.3,
      cweIds: ["CWE-527"],
      target: "127.0.0.1",
      affectedComponent: `http://127.0.0.1:${port}/.git/config`,
      kev: false,
    });
    expect(git.detectionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(git.evidence?.request).toContain("GET /.git/config HTTP/1.1");
    expect(git.evidence?.response).toContain("[core]");
    expect(git.frameworks.map((f) => f.name)).toEqual(["iso27001", "pci_dss"]); // only the job's frameworks
    const env = detections.find((d) => d.templateId === "env-file-secrets")!;
    expect(env).toMatchObject({ severity: Severity.HIGH, cweIds: ["CWE-538", "CWE-312"] });
    expect(env.evidence?.response).toContain("DB_PASSWORD=[redacted]");
    expect(env.evidence?.response).not.toContain("lab-only-password");
    expect(new Set(detections.map((d) => d.detectionId)).size).toBe(detections.length);

    // Each phase's count is the findings first published in it (a weakness another engine saw
    // earlier is published again, folded, under the earlier finding's key); Completed totals them.
    const key = (d: (typeof detections)[number]) => `${d.target}|${d.templateId}|${d.affectedComponent}`;
    const firstPhase = new Map<string, string>();
    for (const d of detections) if (!firstPhase.has(key(d))) firstPhase.set(key(d), d.phase);
    for (const c of completed) {
      const inPhase = [...firstPhase.values()].filter((p) => p === c.phase);
      expect(c.findings?.total, c.phase).toBe(inPhase.length);
    }
    const total = end.report.case === "completed" ? end.report.value.findings : undefined;
    expect(total?.total).toBe(new Set(detections.map(key)).size);
    expect(total?.high).toBeGreaterThanOrEqual(1);
  });

  it("stops a running scan within seconds of its cancellation, keeping what it already reported", async () => {
    const scanId = unique("scan");
    await slow.publishJob({ scanId, ports: String(port), phases: ["discovery", "enumeration", "reporting"] });
    await until(() => slow.recorder.detectionsOf(scanId).length > 0, 30_000, "first detection");
    // It keeps the scan alive meanwhile: heartbeats naming the phase and tool, every ≤ 0.5 s here.
    await until(() => slow.recorder.reportsOf(scanId).filter((r) => r.report.case === "heartbeat").length >= 2, 10_000, "heartbeats");
    const beat = slow.recorder.reportsOf(scanId).find((r) => r.report.case === "heartbeat")!;
    expect(beat.report.value).toMatchObject({ phase: "enumeration", currentTool: "slow-check" });

    const cancelledAt = Date.now();
    await slow.cancel(scanId);
    const end = await until(() => slow.recorder.finished(scanId), 15_000, "failed report");
    const endAt = slow.recorder.reports.find((x) => x.r === end)!.at;
    expect(end.report).toEqual({ case: "failed", value: expect.objectContaining({ reason: "cancelled", phase: "enumeration", retryable: false }) });
    expect(endAt - cancelledAt).toBeLessThan(5000);
    expect(slow.recorder.timeline(scanId)).toEqual(["phaseStarted:discovery", "phaseCompleted:discovery", "phaseStarted:enumeration", "failed"]);
    expect(slow.recorder.detectionsOf(scanId).map((d) => d.templateId)).toEqual(["test-slow-check-started"]);
    // The attempt's coverage says it was cancelled, after its detection, on the same topic and key.
    await until(() => slow.recorder.coverageOf(scanId).length > 0, 10_000, "coverage record");
    expect(slow.recorder.coverageOf(scanId).map((d) => d.coverage?.outcome)).toEqual(["cancelled"]);
  });

  it("drops a job whose scan was cancelled before it arrived", async () => {
    const scanId = unique("scan");
    await slow.cancel(scanId);
    await sleep(1500);
    await slow.publishJob({ scanId, ports: String(port), phases: ["discovery", "reporting"] });
    const marker = unique("scan");
    await slow.publishJob({ scanId: marker, ports: String(port), phases: ["discovery"] }); // proof the worker read past it
    await until(() => slow.recorder.finished(marker), 30_000, "marker scan");
    await sleep(500);
    expect(slow.recorder.reportsOf(scanId)).toEqual([]);
  });

  it("drops a stale attempt, and a newer attempt supersedes the one running", async () => {
    const scanId = unique("scan");
    await slow.publishJob({ scanId, attempt: 2, ports: String(port), phases: ["enumeration", "reporting"] });
    await until(() => slow.recorder.reportsOf(scanId, 2).some((r) => r.report.case === "phaseStarted"), 30_000, "attempt 2 started");
    await slow.publishJob({ scanId, attempt: 1, ports: String(port), phases: ["discovery", "enumeration", "reporting"] });
    await slow.publishJob({ scanId, attempt: 2, ports: String(port), phases: ["enumeration", "reporting"] }); // a redelivery
    await slow.publishJob({ scanId, attempt: 3, ports: String(port), phases: ["enumeration", "reporting"] });
    await until(() => slow.recorder.reportsOf(scanId, 3).some((r) => r.report.case === "phaseStarted"), 30_000, "attempt 3 started");
    await sleep(1000);
    expect(slow.recorder.reportsOf(scanId, 1)).toEqual([]);
    // Attempt 2 stopped without a word (the orchestrator already moved on) and was not restarted.
    expect(slow.recorder.timeline(scanId, 2)).toEqual(["phaseStarted:enumeration"]);
    expect(slow.recorder.timeline(scanId, 3)).toEqual(["phaseStarted:enumeration"]);
    await slow.cancel(scanId);
    const end = await until(() => slow.recorder.finished(scanId), 15_000, "cancelled");
    expect(end.attempt).toBe(3);
  });

  it("fails a scan at its deadline, and one whose deadline passed before it started, as not retryable", async () => {
    const running = unique("scan");
    await slow.publishJob({
      scanId: running,
      ports: String(port),
      phases: ["discovery", "enumeration"],
      deadline: timestampFromDate(new Date(Date.now() + 4000)),
    });
    const late = unique("scan");
    await slow.publishJob({
      scanId: late,
      ports: String(port),
      phases: ["discovery"],
      deadline: timestampFromDate(new Date(Date.now() - 1000)),
      scanType: ScanType.QUICK,
    });
    const end = await until(() => slow.recorder.finished(running), 30_000, "deadline failure");
    expect(end.report).toEqual({
      case: "failed",
      value: expect.objectContaining({ reason: "maximum duration exceeded", phase: "enumeration", retryable: false }),
    });
    const lateEnd = await until(() => slow.recorder.finished(late), 30_000, "late failure");
    expect(lateEnd.report).toEqual({
      case: "failed",
      value: expect.objectContaining({ reason: "maximum duration exceeded", phase: "discovery", retryable: false }),
    });
    expect(slow.recorder.timeline(late)).toEqual(["failed"]);
  });

  it("refuses a job it can never run, and hands running jobs back when the worker stops", async () => {
    const bad = unique("scan");
    await slow.publishJob({ scanId: bad, ports: "70000", phases: ["discovery"] });
    const badEnd = await until(() => slow.recorder.finished(bad), 30_000, "bad job failure");
    expect(badEnd.report).toEqual({
      case: "failed",
      value: expect.objectContaining({ reason: expect.stringMatching(/^invalid job: invalid port/), retryable: false }),
    });

    const scanId = unique("scan");
    await slow.publishJob({ scanId, ports: String(port), phases: ["enumeration"] });
    await until(() => slow.recorder.reportsOf(scanId).some((r) => r.report.case === "phaseStarted"), 30_000, "started");
    await slow.running.stop();
    const end = await until(() => slow.recorder.finished(scanId), 15_000, "shutdown failure");
    expect(end.report).toEqual({ case: "failed", value: expect.objectContaining({ reason: "worker shutting down", retryable: true }) });
  });
});
