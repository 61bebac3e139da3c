import { createLogger } from "@vulnscan/kit";
import { describe, expect, it } from "vitest";
import { EgressDenied, EgressGuard } from "../net/egress.js";
import { progressAfter, progressBasis, runJob, type CoverageReport, type JobSpec, type RunnerReport, type StopReason } from "./runner.js";
import { PHASES, type DetectionDraft, type Phase, type PhaseHandler } from "./types.js";
import { setTimeout as sleep } from "node:timers/promises";

const log = createLogger("runner-test", "silent");
const guard = new EgressGuard("127.0.0.0/8");

const draft = (templateId: string, severity: DetectionDraft["severity"] = "medium", component = "c"): DetectionDraft => ({
  templateId,
  confidence: "confirmed",
  title: templateId,
  severity,
  cvssScore: 5,
  cvssVector: "",
  cweIds: [],
  cveIds: [],
  tool: "test",
  target: "127.0.0.1",
  affectedComponent: component,
  description: "",
  impact: "",
  remediation: { summary: "", steps: [], codeExample: "", references: [] },
  evidence: { request: "", response: "" },
});

function setup(job: Partial<JobSpec>, handlers: Partial<Record<Phase, PhaseHandler>> = {}) {
  const reports: RunnerReport[] = [];
  const detections: { d: DetectionDraft; phase: Phase; id: string }[] = [];
  const calls: Phase[] = [];
  const all = Object.fromEntries(
    PHASES.map((p) => [
      p,
      handlers[p] ??
        (async () => {
          calls.push(p);
        }),
    ]),
  ) as Record<Phase, PhaseHandler>;
  const spec: JobSpec = {
    scanId: "scan_1",
    orgId: "org_1",
    target: "127.0.0.1",
    scanType: "full",
    ports: [80],
    frameworks: [],
    phases: ["discovery", "enumeration", "reporting"],
    attempt: 1,
    ...job,
  };
  const sinks = {
    report: async (r: RunnerReport) => void reports.push(r),
    detection: async (d: DetectionDraft, meta: { phase: Phase; detectionId: string }) => void detections.push({ d, phase: meta.phase, id: meta.detectionId }),
  };
  return { spec, all, sinks, reports, detections, calls };
}

const kinds = (reports: RunnerReport[]) =>
  reports.filter((r) => r.kind !== "heartbeat").map((r) => (r.kind === "phaseStarted" || r.kind === "phaseCompleted" ? `${r.kind}:${r.phase}` : r.kind));

describe("progress math", () => {
  it("is the completed share of the run", () => {
    expect([0, 1, 2, 3].map((d) => progressAfter(d, 3))).toEqual([0, 33, 67, 100]);
    expect(progressAfter(11, 11)).toBe(100);
    expect(progressAfter(0, 0)).toBe(100);
  });

  it("counts phases earlier attempts completed when the job is a retry", () => {
    const plan: Phase[] = ["discovery", "enumeration", "web_analysis", "reporting"];
    expect(progressBasis(plan, plan)).toEqual({ before: [], total: 4 });
    expect(progressBasis(["web_analysis", "reporting"], plan)).toEqual({ before: ["discovery", "enumeration"], total: 4 });
    expect(progressBasis(["cloud_analysis"], plan)).toEqual({ before: [], total: 1 }); // not in the plan: the job is the run
    expect(progressBasis(["reporting"])).toEqual({ before: [], total: 1 });
  });
});

describe("runJob", () => {
  it("runs exactly the job's phases in the job's order and reports each, rising to 100", async () => {
    const t = setup({ phases: ["discovery", "web_analysis", "enumeration", "reporting"] });
    const out = await runJob({ job: t.spec, handlers: t.all, sinks: t.sinks, guard, log });
    expect(out.status).toBe("completed");
    expect(t.calls).toEqual(["discovery", "web_analysis", "enumeration", "reporting"]);
    expect(kinds(t.reports)).toEqual([
      "phaseStarted:discovery",
      "phaseCompleted:discovery",
      "phaseStarted:web_analysis",
      "phaseCompleted:web_analysis",
      "phaseStarted:enumeration",
      "phaseCompleted:enumeration",
      "phaseStarted:reporting",
      "phaseCompleted:reporting",
      "completed",
    ]);
    const done = t.reports.filter((r) => r.kind === "phaseCompleted");
    expect(done.map((r) => r.progress)).toEqual([25, 50, 75, 100]);
    expect(done[1]).toMatchObject({ phasesCompleted: ["discovery", "web_analysis"], phasesRemaining: ["enumeration", "reporting"] });
    expect(done[3]).toMatchObject({ phasesCompleted: ["discovery", "web_analysis", "enumeration", "reporting"], phasesRemaining: [] });
    expect(t.reports[0]).toEqual({ kind: "phaseStarted", phase: "discovery", tool: "dns" });
  });

  it("on a retry, progress and phases_completed include what earlier attempts did", async () => {
    const plan: Phase[] = ["discovery", "enumeration", "vulnerability_scanning", "reporting"];
    const t = setup({ phases: ["vulnerability_scanning", "reporting"], attempt: 2 });
    await runJob({ job: t.spec, handlers: t.all, sinks: t.sinks, guard, log, plan });
    const done = t.reports.filter((r) => r.kind === "phaseCompleted");
    expect(done.map((r) => r.progress)).toEqual([75, 100]);
    expect(done[0]).toMatchObject({ phasesCompleted: ["discovery", "enumeration", "vulnerability_scanning"], phasesRemaining: ["reporting"] });
  });

  it("publishes detections as they are found, enriched, with per-phase counts of distinct findings", async () => {
    const t = setup(
      { phases: ["enumeration", "vulnerability_scanning"] },
      {
        enumeration: async (ctx) => {
          await ctx.report(draft("open-ports", "info"));
          expect(ctx.detections).toHaveLength(1); // recorded at once for later phases
        },
        vulnerability_scanning: async (ctx) => {
          await ctx.report(draft("a", "critical"));
          await ctx.report(draft("a", "critical")); // the same finding again: published, counted once
          await ctx.report(draft("b", "high", "other"));
        },
      },
    );
    const out = await runJob({ job: t.spec, handlers: t.all, sinks: t.sinks, guard, log, enrich: (d) => ({ ...d, kev: true }) });
    expect(t.detections.map((x) => [x.phase, x.d.templateId, x.d.kev])).toEqual([
      ["enumeration", "open-ports", true],
      ["vulnerability_scanning", "a", true],
      ["vulnerability_scanning", "a", true],
      ["vulnerability_scanning", "b", true],
    ]);
    expect(new Set(t.detections.map((x) => x.id)).size).toBe(4);
    const done = t.reports.filter((r) => r.kind === "phaseCompleted");
    expect(done.map((r) => r.findings)).toEqual([
      { total: 1, critical: 0, high: 0, medium: 0, low: 0, info: 1 },
      { total: 2, critical: 1, high: 1, medium: 0, low: 0, info: 0 },
    ]);
    // No coverage sink in this test: the report says no coverage records were sent.
    expect(t.reports.at(-1)).toEqual({ kind: "completed", findings: { total: 3, critical: 1, high: 1, medium: 0, low: 0, info: 1 }, coverageRecords: 0 });
    expect(out.status === "completed" && out.detections).toHaveLength(3); // one per finding
  });

  it("folds detections of one weakness by different engines into one finding with every tool's evidence", async () => {
    const from = (tool: string, templateId: string, component: string, extra: Partial<DetectionDraft> = {}): DetectionDraft => ({
      ...draft(templateId, "medium", component),
      tool,
      target: "weak.test",
      evidence: { request: `${tool} request`, response: `${tool} response` },
      ...extra,
    });
    const t = setup(
      { phases: ["vulnerability_scanning", "web_analysis"] },
      {
        vulnerability_scanning: async (ctx) => {
          await ctx.report(
            from("cve-match", "cve:CVE-2011-2523", "vsftpd 2.3.4 on weak.test:21", { cveIds: ["CVE-2011-2523"], cvssScore: 9.8, severity: "critical" }),
          );
          await ctx.report(from("templates", "vsftpd-234-backdoor", "tcp://weak.test:21", { cveIds: ["CVE-2011-2523"], cweIds: ["CWE-78"] }));
          await ctx.report(from("templates", "env-file-secrets", "http://weak.test:80/.env"));
        },
        web_analysis: async (ctx) => {
          await ctx.report(from("web", "env-file-secrets", "http://weak.test/.env", { cvssScore: 7.5, severity: "high" }));
          await ctx.report(from("web", "env-file-secrets", "http://weak.test:8080/.env")); // another port: another finding
        },
      },
    );
    const out = await runJob({ job: t.spec, handlers: t.all, sinks: t.sinks, guard, log });
    const last = t.detections.at(-2)!.d; // the .env on port 80, folded
    expect(last).toMatchObject({
      templateId: "env-file-secrets",
      affectedComponent: "http://weak.test:80/.env",
      tool: "templates",
      severity: "high",
      cvssScore: 7.5,
    });
    expect(last.evidence.request).toBe("[templates: env-file-secrets]\ntemplates request\n\n[web: env-file-secrets]\nweb request");
    expect(last.description).toContain("Also detected by: web (env-file-secrets");
    const vsftpd = t.detections[1]!.d;
    expect(vsftpd).toMatchObject({
      templateId: "cve:CVE-2011-2523",
      affectedComponent: "vsftpd 2.3.4 on weak.test:21",
      tool: "cve-match",
      cweIds: ["CWE-78"],
      severity: "critical",
    });
    expect(vsftpd.evidence.response).toContain("[templates: vsftpd-234-backdoor]\ntemplates response");
    // The .env finding was counted medium, then rated high by the fold: the counts follow it.
    expect(t.reports.filter((r) => r.kind === "phaseCompleted").map((r) => r.findings)).toEqual([
      { total: 2, critical: 1, high: 0, medium: 1, low: 0, info: 0 },
      { total: 1, critical: 0, high: 1, medium: 0, low: 0, info: 0 },
    ]);
    expect(t.reports.at(-1)).toMatchObject({ kind: "completed", findings: { total: 3, critical: 1, high: 1, medium: 1, low: 0, info: 0 } });
    expect(out.status === "completed" && out.detections.map((d) => `${d.templateId} ${d.affectedComponent} ${d.tool}`)).toEqual([
      "cve:CVE-2011-2523 vsftpd 2.3.4 on weak.test:21 cve-match",
      "env-file-secrets http://weak.test:80/.env templates",
      "env-file-secrets http://weak.test:8080/.env web",
    ]);
  });

  it("sends heartbeats with the phase and the tool the handler names", async () => {
    const t = setup(
      { phases: ["enumeration"] },
      {
        enumeration: async (ctx) => {
          ctx.setTool("fingerprint");
          await sleep(260);
        },
      },
    );
    await runJob({ job: t.spec, handlers: t.all, sinks: t.sinks, guard, log, heartbeatMs: 50 });
    const beats = t.reports.filter((r) => r.kind === "heartbeat");
    expect(beats.length).toBeGreaterThanOrEqual(3);
    expect(beats[0]).toMatchObject({ kind: "heartbeat", phase: "enumeration", currentTool: "fingerprint" });
    const afterCompleted = t.reports.slice(t.reports.findIndex((r) => r.kind === "completed"));
    expect(afterCompleted.filter((r) => r.kind === "heartbeat")).toEqual([]);
  });

  it("stops a running phase on cancellation, keeps what was published, and reports Failed cancelled", async () => {
    const controller = new AbortController();
    const t = setup(
      { phases: ["discovery", "enumeration", "reporting"] },
      {
        enumeration: async (ctx) => {
          await ctx.report(draft("found-before-cancel"));
          controller.abort({ kind: "cancelled" } satisfies StopReason);
          await sleep(50);
          await ctx.report(draft("found-after-cancel")); // refused
        },
      },
    );
    const out = await runJob({ job: t.spec, handlers: t.all, sinks: t.sinks, guard, log, signal: controller.signal });
    expect(out).toMatchObject({ status: "failed", reason: "cancelled", phase: "enumeration", retryable: false });
    expect(t.detections.map((x) => x.d.templateId)).toEqual(["found-before-cancel"]);
    expect(kinds(t.reports)).toEqual(["phaseStarted:discovery", "phaseCompleted:discovery", "phaseStarted:enumeration", "failed"]);
    expect(t.reports.at(-1)).toEqual({ kind: "failed", reason: "cancelled", phase: "enumeration", retryable: false });
    expect(t.calls).not.toContain("reporting");
  });

  it("does not wait for a handler that ignores the stop signal beyond the grace period", async () => {
    const controller = new AbortController();
    const t = setup({ phases: ["enumeration"] }, { enumeration: async () => void (await sleep(10_000)) });
    setTimeout(() => controller.abort({ kind: "cancelled" } satisfies StopReason), 50);
    const started = Date.now();
    const out = await runJob({ job: t.spec, handlers: t.all, sinks: t.sinks, guard, log, signal: controller.signal, stopGraceMs: 200 });
    expect(out).toMatchObject({ status: "failed", reason: "cancelled" });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("fails a job past its deadline: maximum duration exceeded, not retryable", async () => {
    const t = setup(
      { phases: ["discovery", "enumeration"], deadline: new Date(Date.now() + 150) },
      { enumeration: async (ctx) => sleep(5000).then(() => ctx.report(draft("late"))) },
    );
    const out = await runJob({ job: t.spec, handlers: t.all, sinks: t.sinks, guard, log, stopGraceMs: 50 });
    expect(out).toMatchObject({ status: "failed", reason: "maximum duration exceeded", phase: "enumeration", retryable: false });
    expect(t.reports.at(-1)).toEqual({ kind: "failed", reason: "maximum duration exceeded", phase: "enumeration", retryable: false });
  });

  it("runs normally with a deadline beyond what one timer can hold", async () => {
    const t = setup({ phases: ["discovery"], deadline: new Date(Date.now() + 40 * 24 * 3600 * 1000) }, { discovery: async () => void (await sleep(20)) });
    expect((await runJob({ job: t.spec, handlers: t.all, sinks: t.sinks, guard, log })).status).toBe("completed");
  });

  it("never touches the target when the deadline already passed", async () => {
    const t = setup({ phases: ["discovery", "enumeration"], deadline: new Date(Date.now() - 1000) });
    const out = await runJob({ job: t.spec, handlers: t.all, sinks: t.sinks, guard, log });
    expect(out).toMatchObject({ status: "failed", reason: "maximum duration exceeded", phase: "discovery" });
    expect(t.calls).toEqual([]);
    expect(kinds(t.reports)).toEqual(["failed"]);
  });

  it("stops quietly when superseded by a newer attempt, and retryably on shutdown", async () => {
    for (const [kind, expected] of [
      ["superseded", []],
      ["shutdown", ["failed"]],
    ] as const) {
      const controller = new AbortController();
      const t = setup({ phases: ["enumeration"] }, { enumeration: (ctx) => new Promise<void>((r) => ctx.signal.addEventListener("abort", () => r())) });
      setTimeout(() => controller.abort({ kind } satisfies StopReason), 20);
      const out = await runJob({ job: t.spec, handlers: t.all, sinks: t.sinks, guard, log, signal: controller.signal });
      expect(kinds(t.reports).slice(1)).toEqual(expected);
      if (kind === "shutdown") expect(out).toMatchObject({ status: "failed", reason: "worker shutting down", retryable: true });
      else expect(out.status).toBe("superseded");
    }
  });

  it("turns handler errors into Failed with a customer-safe reason", async () => {
    const t = setup(
      { phases: ["discovery", "web_analysis"] },
      { web_analysis: async () => Promise.reject(new Error("ECONNRESET at 0x7f... internal detail")) },
    );
    expect(await runJob({ job: t.spec, handlers: t.all, sinks: t.sinks, guard, log })).toMatchObject({
      status: "failed",
      reason: "web analysis failed",
      retryable: true,
    });
    const u = setup(
      { phases: ["discovery"] },
      { discovery: async () => Promise.reject(new EgressDenied("connection to 8.8.8.8 is outside SCAN_ALLOWED_NETWORKS")) },
    );
    expect(await runJob({ job: u.spec, handlers: u.all, sinks: u.sinks, guard, log })).toMatchObject({
      status: "failed",
      reason: "target is outside the allowed networks",
      retryable: false,
    });
  });
});

describe("scan coverage", () => {
  it("sends the checks that ran to their end per host and port, before the completed report", async () => {
    const { spec, all, sinks, reports } = setup({ phases: ["discovery", "enumeration", "vulnerability_scanning"] });
    const order: string[] = [];
    const covered: CoverageReport[] = [];
    all.discovery = async (ctx) => {
      ctx.hosts.push({ address: "127.0.0.1", hostname: "lab.test", alive: true }, { address: "127.0.0.2", alive: false });
    };
    all.enumeration = async (ctx) => {
      ctx.services.push({ host: "127.0.0.1", port: 6379, tls: false, name: "redis" }, { host: "127.0.0.1", port: 11211, tls: false });
      ctx.covered?.("127.0.0.1", undefined, "portscan");
      ctx.covered?.("127.0.0.1", 6379, "telnet");
    };
    all.vulnerability_scanning = async (ctx) => {
      ctx.covered?.("127.0.0.1", 6379, "template:redis-unauth");
      ctx.covered?.("127.0.0.1", 6379, "cve");
    };
    const outcome = await runJob({
      job: spec,
      handlers: all,
      guard,
      log,
      sinks: {
        report: async (r) => {
          if (r.kind === "completed") order.push("completed");
          await sinks.report(r);
        },
        detection: sinks.detection,
        coverage: async (c) => {
          order.push("coverage");
          covered.push(c);
        },
      },
    });
    expect(outcome.status).toBe("completed");
    expect(order).toEqual(["coverage", "completed"]);
    // The completed report tells how many host records the orchestrator's comparison waits for.
    expect(reports.at(-1)).toMatchObject({ kind: "completed", coverageRecords: 2 });
    expect(covered).toHaveLength(1);
    expect(covered[0]).toMatchObject({ attempt: 1, outcome: "completed" });
    expect(covered[0]!.hosts).toEqual([
      {
        target: "lab.test",
        address: "127.0.0.1",
        alive: true,
        hostChecks: ["portscan"],
        ports: [
          { port: 6379, outcome: "answered", checks: ["cve", "telnet", "template:redis-unauth"] },
          // Open, nothing said: listed as silent, with no checks.
          { port: 11211, outcome: "silent", checks: [] },
        ],
      },
      { target: "127.0.0.2", address: "127.0.0.2", alive: false, hostChecks: [], ports: [] },
    ]);
  });

  it("keeps only what ran before a cancellation, and says the attempt was cancelled", async () => {
    const { spec, all, sinks } = setup({ phases: ["discovery", "enumeration", "vulnerability_scanning"] });
    const controller = new AbortController();
    const covered: CoverageReport[] = [];
    all.discovery = async (ctx) => {
      ctx.hosts.push({ address: "127.0.0.1", alive: true });
      ctx.services.push({ host: "127.0.0.1", port: 80, tls: false, name: "http" });
      ctx.covered?.("127.0.0.1", 80, "web");
    };
    all.enumeration = async (ctx) => {
      controller.abort({ kind: "cancelled" } satisfies StopReason);
      await sleep(5);
      ctx.covered?.("127.0.0.1", 80, "template:late");
    };
    const outcome = await runJob({
      job: spec,
      handlers: all,
      guard,
      log,
      signal: controller.signal,
      stopGraceMs: 50,
      sinks: { ...sinks, coverage: async (c) => void covered.push(c) },
    });
    expect(outcome.status).toBe("failed");
    expect(covered).toHaveLength(1);
    expect(covered[0]!.outcome).toBe("cancelled");
    expect(covered[0]!.hosts[0]!.ports).toEqual([{ port: 80, outcome: "answered", checks: ["web"] }]);
  });

  it("does not fail the scan when the coverage cannot be sent", async () => {
    const { spec, all, sinks, reports } = setup({});
    const outcome = await runJob({
      job: spec,
      handlers: all,
      guard,
      log,
      sinks: {
        ...sinks,
        coverage: async () => {
          throw new Error("broker away");
        },
      },
    });
    expect(outcome.status).toBe("completed");
    expect(reports.at(-1)).toMatchObject({ kind: "completed", coverageRecords: 0 });
  });
});
