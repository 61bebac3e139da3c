import { describe, expect, it } from "vitest";
import { QUICK_PHASES } from "@vulnscan/scan-contract";
import type { Report } from "./reports.js";
import { testDomain } from "./testing.js";
import { run, steps } from "./transitions.js";
import { zeroCounts, type Counts } from "./types.js";
import { DEADLINE_ERROR, WORKERS_LOST_ERROR } from "./watchdog.js";

const counts = (c: Partial<Counts>): Counts => ({ ...zeroCounts(), ...c });

async function quickScan() {
  const d = testDomain();
  const scan = await d.scans.create({ orgId: "org_p", target: "93.184.216.34", scanType: "quick", frameworks: [], ports: "", authorized: true });
  const r = (x: Record<string, unknown> & { kind: Report["kind"] }, attempt = 1) =>
    d.reports.apply({ scanId: scan._id, orgId: "org_p", attempt, ...x } as Report);
  const payloads = (type: string) => d.scanStore.published.events.filter((e) => e.type === type).map((e) => (e.payload as { value: unknown }).value);
  return { d, scan, r, payloads };
}

describe("reports", () => {
  it("PhaseStarted starts the scan once (scan.started), sets phase and current_tool", async () => {
    const { d, scan, r, payloads } = await quickScan();
    d.clock.advance(10_000);
    expect(await r({ kind: "phase_started", phase: "discovery", tool: "portscan" })).toBeUndefined();
    const s = await d.scans.get("org_p", scan._id);
    expect(s).toMatchObject({ status: "running", phase: "discovery", current_tool: "portscan", started_at: d.clock.now() });
    await r({ kind: "phase_started", phase: "enumeration", tool: "banners" });
    expect(d.scanStore.eventTypes()).toEqual(["scan.created", "scan.started"]);
    expect(payloads("scan.started")[0]).toMatchObject({ scanId: scan._id, status: "running", scanType: "quick", phases: [...QUICK_PHASES] });
  });

  it("a reader never sees the scan running without the tool of the report that started it", async () => {
    const { d, scan, r } = await quickScan();
    const seen: unknown[] = [];
    const transition = d.scanStore.transition.bind(d.scanStore);
    // What a GetScan would answer the moment the started transition lands.
    d.scanStore.transition = async (...args) => {
      const ok = await transition(...args);
      seen.push(await d.scans.get("org_p", scan._id));
      return ok;
    };
    await r({ kind: "phase_started", phase: "discovery", tool: "portscan" });
    expect(seen[0]).toMatchObject({ status: "running", phase: "discovery", current_tool: "portscan" });
  });

  it("a pending scan shows no phase or tool, even when a report named them (a retryable failure before the start)", async () => {
    const { d, scan, r } = await quickScan();
    expect(run({ ...scan, phase: "discovery", current_tool: "portscan" }, [steps.attempt(2, d.clock.now())]).scan).toMatchObject({
      status: "pending",
      phase: "",
      current_tool: "",
    });
    await r({ kind: "failed", reason: "worker shutting down", phase: "discovery", retryable: true });
    expect(await d.scans.get("org_p", scan._id)).toMatchObject({ status: "pending", attempt: 2, phase: "", current_tool: "" });
  });

  it("a started scan no report has named a phase for yet shows the first phase left", async () => {
    const { d, scan, r } = await quickScan();
    expect(run({ ...scan, phase: "" }, [steps.started(d.clock.now())]).scan).toMatchObject({ status: "running", phase: "discovery" });
    await r({ kind: "heartbeat", phase: "", currentTool: "", progress: 0 });
    expect(await d.scans.get("org_p", scan._id)).toMatchObject({ status: "running", phase: "discovery" });
  });

  it("PhaseCompleted stores counts per phase (repeat-safe), moves phases, emits one scan.progress per phase", async () => {
    const { d, scan, r, payloads } = await quickScan();
    await r({ kind: "phase_started", phase: "discovery", tool: "portscan" });
    await r({ kind: "phase_completed", phase: "discovery", progress: 17, counts: counts({ total: 2, low: 1, info: 1 }) });
    await r({ kind: "phase_completed", phase: "discovery", progress: 17, counts: counts({ total: 2, low: 1, info: 1 }) });
    await r({ kind: "phase_completed", phase: "enumeration", progress: 33, counts: counts({ total: 3, critical: 1, high: 2 }) });
    const s = await d.scans.get("org_p", scan._id);
    expect(s).toMatchObject({
      progress: 33,
      phases_completed: ["discovery", "enumeration"],
      phases_remaining: ["vulnerability_scanning", "web_analysis", "threat_intelligence", "reporting"],
      counts: { total: 5, critical: 1, high: 2, medium: 0, low: 1, info: 1 },
    });
    expect(payloads("scan.progress")).toEqual([
      expect.objectContaining({ phase: "discovery", progress: 17, phasesCompleted: ["discovery"], status: "running", currentTool: "" }),
      expect.objectContaining({ phase: "enumeration", progress: 33, phasesCompleted: ["discovery", "enumeration"] }),
    ]);
  });

  it("Completed: completed, phase complete, progress 100, slot released, scan.completed with exactly the spec's data", async () => {
    const { d, scan, r, payloads } = await quickScan();
    d.clock.advance(1000);
    await r({ kind: "phase_started", phase: "discovery", tool: "portscan" });
    await r({ kind: "phase_completed", phase: "discovery", progress: 50, counts: counts({ total: 4, critical: 1, medium: 1, low: 1, info: 1 }) });
    d.clock.advance(90_400);
    await r({ kind: "completed", counts: counts({ total: 4 }) });
    const s = await d.scans.get("org_p", scan._id);
    expect(s).toMatchObject({ status: "completed", phase: "complete", progress: 100, phases_remaining: [], current_tool: "", completed_at: d.clock.now() });
    expect(s.phases_completed).toEqual([...QUICK_PHASES]);
    expect(d.limits.holders()).toEqual([]);
    expect(payloads("scan.completed")).toEqual([
      { scanId: scan._id, target: "93.184.216.34", status: "completed", durationSeconds: 90, findings: { total: 4, critical: 1, high: 0, medium: 1, low: 1 } },
    ]);
    // Anything after the end changes nothing.
    expect(await r({ kind: "phase_started", phase: "x", tool: "y" })).toMatch(/completed/);
    expect(await r({ kind: "failed", reason: "late", phase: "", retryable: false })).toMatch(/completed/);
    expect(d.scanStore.eventTypes()).toEqual(["scan.created", "scan.started", "scan.progress", "scan.completed"]);
  });

  it("Failed (not retryable): failed with the reason, slot released, scan.failed", async () => {
    const { d, scan, r, payloads } = await quickScan();
    await r({ kind: "phase_started", phase: "discovery", tool: "portscan" });
    d.clock.advance(30_000);
    await r({ kind: "failed", reason: "target unreachable", phase: "discovery", retryable: false });
    expect(await d.scans.get("org_p", scan._id)).toMatchObject({ status: "failed", error: "target unreachable", phase: "discovery" });
    expect(d.limits.holders()).toEqual([]);
    expect(payloads("scan.failed")).toEqual([
      { scanId: scan._id, target: "93.184.216.34", status: "failed", error: "target unreachable", phase: "discovery", durationSeconds: 30 },
    ]);
  });

  it("Failed (retryable) re-dispatches the phases not completed as attempt + 1 and ignores the old attempt", async () => {
    const { d, scan, r } = await quickScan();
    await r({ kind: "phase_completed", phase: "discovery", progress: 17, counts: zeroCounts() });
    await r({ kind: "failed", reason: "worker shutting down", phase: "enumeration", retryable: true });
    const s = await d.scans.get("org_p", scan._id);
    expect(s).toMatchObject({ status: "running", attempt: 2 });
    const job = d.scanStore.published.commands.at(-1)!;
    expect(job.kind === "job" && job.job).toMatchObject({ attempt: 2, phases: QUICK_PHASES.slice(1) });
    expect(await r({ kind: "phase_completed", phase: "enumeration", progress: 33, counts: zeroCounts() }, 1)).toMatch(/attempt 1/);
    expect(await r({ kind: "phase_completed", phase: "enumeration", progress: 33, counts: zeroCounts() }, 2)).toBeUndefined();
  });

  it("Heartbeats record the last report, phase and tool", async () => {
    const { d, scan, r } = await quickScan();
    d.clock.advance(7000);
    await r({ kind: "heartbeat", phase: "discovery", currentTool: "portscan", progress: 40 });
    expect(await d.scans.get("org_p", scan._id)).toMatchObject({ status: "running", last_report_at: d.clock.now(), current_tool: "portscan" });
  });

  it("a cancel racing a completion ends the scan once", async () => {
    const { d, scan, r } = await quickScan();
    await r({ kind: "phase_started", phase: "discovery", tool: "portscan" });
    const [cancel, done] = await Promise.allSettled([d.scans.cancel("org_p", scan._id), r({ kind: "completed", counts: zeroCounts() })]);
    const final = await d.scans.get("org_p", scan._id);
    // Exactly one ending: the completion's event or the cancel's ScanCancellation, as the final status says.
    const completions = d.scanStore.eventTypes().filter((t) => t === "scan.completed").length;
    const cancellations = d.scanStore.published.commands.filter((c) => c.kind === "cancellation").length;
    expect(completions + cancellations).toBe(1);
    expect(final.status).toBe(completions ? "completed" : "cancelled");
    if (final.status === "cancelled") expect(cancel.status).toBe("fulfilled");
    else expect(cancel.status).toBe("rejected");
    expect(done.status).toBe("fulfilled");
  });
});

describe("scan.completed comparison with the previous scan (issue 28)", () => {
  const COMPARISON = { new: 1, fixed: 2, regressed: 0, unchanged: 3, not_covered: 1 };

  async function twoScans(answer: (againstId: string) => typeof COMPARISON | undefined = () => COMPARISON) {
    const asked: { scanId: string; againstId: string; coverage: { attempt: number; records: number } }[] = [];
    const d = testDomain({
      comparisons: {
        async compare(scan, againstId, coverage) {
          asked.push({ scanId: scan._id, againstId, coverage });
          const c = answer(againstId);
          return c ? { against_scan_id: againstId, ...c } : undefined;
        },
      },
    });
    const create = () => d.scans.create({ orgId: "org_p", target: "93.184.216.34", scanType: "quick", frameworks: [], ports: "", authorized: true });
    const report = (scanId: string, x: Record<string, unknown> & { kind: Report["kind"] }) =>
      d.reports.apply({ scanId, orgId: "org_p", attempt: 1, ...x } as Report);
    const complete = (scanId: string, coverageRecords = 2) => report(scanId, { kind: "completed", counts: zeroCounts(), coverageRecords });
    const completedPayloads = () => d.scanStore.published.events.filter((e) => e.type === "scan.completed").map((e) => (e.payload as { value: unknown }).value);
    return { d, asked, create, report, complete, completedPayloads };
  }

  it("a first scan of a target has nothing to compare with; the next carries its buckets against it", async () => {
    const { d, asked, create, complete, completedPayloads } = await twoScans();
    const a = await create();
    await complete(a._id);
    expect(asked).toEqual([]);
    expect(completedPayloads()[0]).not.toHaveProperty("comparison");
    d.clock.advance(60_000);
    const b = await create();
    await complete(b._id, 3);
    expect(asked).toEqual([{ scanId: b._id, againstId: a._id, coverage: { attempt: 1, records: 3 } }]);
    expect(completedPayloads()[1]).toMatchObject({
      scanId: b._id,
      comparison: { againstScanId: a._id, new: 1, fixed: 2, regressed: 0, unchanged: 3, notCovered: 1 },
    });
    expect(await d.scans.get("org_p", b._id)).toMatchObject({ status: "completed", comparison: { against_scan_id: a._id, ...COMPARISON } });
    // A redelivered completed report changes nothing and asks nothing.
    expect(await complete(b._id, 3)).toMatch(/completed/);
    expect(asked).toHaveLength(1);
  });

  it("compares with the latest completed scan, past failed ones, and not with scans created after", async () => {
    const { d, asked, create, report, complete } = await twoScans();
    const a = await create();
    await complete(a._id);
    d.clock.advance(1000);
    const failed = await create();
    await report(failed._id, { kind: "failed", reason: "target unreachable", phase: "discovery", retryable: false });
    d.clock.advance(1000);
    const b = await create();
    d.clock.advance(1000);
    const later = await create();
    await complete(later._id);
    await complete(b._id);
    expect(asked.map((x) => [x.scanId, x.againstId])).toEqual([
      [later._id, a._id],
      [b._id, a._id],
    ]);
  });

  it("an attempt that sent no coverage, or a findings that cannot tell, completes the scan without a comparison", async () => {
    const { d, asked, create, complete, completedPayloads } = await twoScans(() => undefined);
    const a = await create();
    await complete(a._id);
    d.clock.advance(1000);
    const b = await create();
    await complete(b._id, 0);
    expect(asked).toEqual([]);
    d.clock.advance(1000);
    const c = await create();
    await complete(c._id);
    expect(asked).toHaveLength(1);
    expect(await d.scans.get("org_p", c._id)).toMatchObject({ status: "completed" });
    expect(completedPayloads()).toHaveLength(3);
    for (const p of completedPayloads()) expect(p).not.toHaveProperty("comparison");
  });
});

describe("watchdog", () => {
  it("re-dispatches a silent scan with the remaining phases, once, then fails it when attempts run out", async () => {
    const { d, scan, r } = await quickScan();
    await r({ kind: "phase_completed", phase: "discovery", progress: 17, counts: zeroCounts() });
    d.clock.advance(119_000);
    expect((await d.watchdog.pass()).acted).toBe(0);
    d.clock.advance(2000);
    expect((await d.watchdog.pass()).acted).toBe(1);
    expect((await d.watchdog.pass()).acted).toBe(0); // the new attempt's clock starts now
    const job = d.scanStore.published.commands.at(-1)!;
    expect(job.kind === "job" && job.job).toMatchObject({ attempt: 2, phases: QUICK_PHASES.slice(1) });
    d.clock.advance(121_000);
    await d.watchdog.pass();
    expect((await d.scans.get("org_p", scan._id)).attempt).toBe(3);
    d.clock.advance(121_000);
    await d.watchdog.pass();
    const s = await d.scans.get("org_p", scan._id);
    expect(s).toMatchObject({ status: "failed", error: WORKERS_LOST_ERROR });
    expect(d.limits.holders()).toEqual([]);
  });

  it("heartbeats keep a scan alive", async () => {
    const { d, scan, r } = await quickScan();
    for (let i = 0; i < 10; i++) {
      d.clock.advance(60_000);
      await r({ kind: "heartbeat", phase: "discovery", currentTool: "portscan", progress: 10 });
      await d.watchdog.pass();
    }
    expect((await d.scans.get("org_p", scan._id)).attempt).toBe(1);
  });

  it('fails a scan past its deadline with scan.failed "maximum duration exceeded" and stops the worker', async () => {
    const { d, scan, r, payloads } = await quickScan();
    for (let t = 0; t < 1800_000; t += 60_000) {
      d.clock.advance(60_000);
      await r({ kind: "heartbeat", phase: "web_analysis", currentTool: "http", progress: 10 });
      await d.watchdog.pass();
    }
    const s = await d.scans.get("org_p", scan._id);
    expect(s).toMatchObject({ status: "failed", error: DEADLINE_ERROR, phase: "web_analysis" });
    expect(payloads("scan.failed")).toEqual([expect.objectContaining({ error: DEADLINE_ERROR, status: "failed" })]);
    expect(d.scanStore.published.commands.at(-1)?.kind).toBe("cancellation");
  });

  it("walks every active scan in batches", async () => {
    const d = testDomain();
    for (let i = 0; i < 5; i++) {
      await d.scans.create({ orgId: "org_e", target: "93.184.216.34", frameworks: [], ports: "", authorized: true });
    }
    d.clock.advance(121_000);
    expect(await d.watchdog.pass(2)).toEqual({ acted: 5 });
    expect(d.scanStore.published.commands.filter((c) => c.kind === "job" && c.job.attempt === 2)).toHaveLength(5);
  });

  it("frees places held by scans that ended, or that were missing at two repairs in a row (never stored)", async () => {
    const { d, scan } = await quickScan();
    await d.limits.holdPlace("org_p", "scan_ghost", 3);
    await d.scanStore.transition(scan, { ...scan, status: "cancelled", version: scan.version + 1 }, [], []); // ended, place not freed (a crash)
    expect(await d.watchdog.repairPlaces()).toBe(1); // the ended scan's; the ghost may be a scan being created
    expect(d.limits.holders()).toEqual(["scan_ghost"]);
    expect(await d.watchdog.repairPlaces()).toBe(1);
    expect(d.limits.holders()).toEqual([]);
  });

  it("two watchdogs acting on one silent scan re-dispatch it once", async () => {
    const { d, scan } = await quickScan();
    d.clock.advance(121_000);
    const passes = await Promise.all([d.watchdog.pass(), d.watchdog.pass()]);
    expect(passes.reduce((n, p) => n + p.acted, 0)).toBe(1);
    expect(d.scanStore.published.commands.filter((c) => c.kind === "job" && c.job.attempt === 2)).toHaveLength(1);
    expect((await d.scans.get("org_p", scan._id)).attempt).toBe(2);
  });
});
