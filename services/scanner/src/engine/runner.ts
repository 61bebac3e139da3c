import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import type { Logger } from "@vulnscan/kit";
import { zeroCounts, type FindingCounts } from "@vulnscan/scan-contract";
import { EgressDenied, type EgressGuard } from "../net/egress.js";
import { mergeDetections, weaknessKey } from "./identity.js";
import type { DetectionDraft, Phase, PhaseHandler, ScanContext, ScanRequest, Severity } from "./types.js";

/*
 * Runs one scan job: the job's phases, in the job's order, over one ScanContext. Everything it
 * tells the outside world goes through `sinks` (the worker turns them into Kafka records), so
 * the progress math, ordering, cancellation and deadline handling are testable without Kafka.
 */

export interface JobSpec extends ScanRequest {
  phases: Phase[];
  attempt: number;
  /** The job is abandoned (Failed "maximum duration exceeded") when not done by then. */
  deadline?: Date;
}

export type RunnerReport =
  | { kind: "phaseStarted"; phase: Phase; tool: string }
  | { kind: "phaseCompleted"; phase: Phase; progress: number; phasesCompleted: Phase[]; phasesRemaining: Phase[]; findings: FindingCounts }
  /** `coverageRecords`: how many per-host coverage records were sent before this report (0: none). */
  | { kind: "completed"; findings: FindingCounts; coverageRecords: number }
  | { kind: "failed"; reason: string; phase: string; retryable: boolean }
  | { kind: "heartbeat"; phase: string; currentTool: string; progress: number };

/** What one attempt checked on one host (kit/coverage.ts check ids): the scan's coverage. */
export interface HostCoverage {
  /** As detections name the host: its name, else its address. */
  target: string;
  address: string;
  alive: boolean;
  hostChecks: string[];
  /** Open ports only: a port not listed was closed, filtered or not scanned. */
  ports: { port: number; outcome: "answered" | "silent"; checks: string[] }[];
}

export interface CoverageReport {
  attempt: number;
  outcome: "completed" | "failed" | "cancelled";
  startedAt: Date;
  hosts: HostCoverage[];
}

export interface RunnerSinks {
  report(r: RunnerReport): Promise<void>;
  /**
   * The attempt's coverage, once, after its last detection and before its final report (a
   * superseded attempt sends none: the newer one covers). Optional: tests may leave it out.
   */
  coverage?(c: CoverageReport): Promise<void>;
  /** Publishes one detection (already enriched) found in `phase`. */
  detection(d: DetectionDraft, meta: { phase: Phase; detectionId: string; detectedAt: Date }): Promise<void>;
}

/** Why a job stops early; the worker aborts the job's signal with one of these. */
export type StopReason = { kind: "cancelled" } | { kind: "deadline" } | { kind: "shutdown" } | { kind: "superseded" };

export const FAILURE: Record<Exclude<StopReason["kind"], "superseded">, { reason: string; retryable: boolean }> = {
  cancelled: { reason: "cancelled", retryable: false },
  deadline: { reason: "maximum duration exceeded", retryable: false },
  // A re-dispatch (attempt + 1) finishes what this worker could not.
  shutdown: { reason: "worker shutting down", retryable: true },
};

export interface RunJobOptions {
  job: JobSpec;
  handlers: Record<Phase, PhaseHandler>;
  sinks: RunnerSinks;
  guard: EgressGuard;
  log: Logger;
  /** Aborted with a StopReason by the worker (cancellation, a newer attempt, shutdown). */
  signal?: AbortSignal;
  /**
   * Every phase of the scan's type, in order. A retry's job lists only the phases still to do;
   * with the plan, progress and phases_completed count the ones earlier attempts finished.
   */
  plan?: readonly Phase[];
  /** Completes a detection before publication (EPSS, KEV, framework controls). */
  enrich?: (d: DetectionDraft) => DetectionDraft;
  /** At most 10 s (the contract asks for one at least every 15 s). */
  heartbeatMs?: number;
  /** How long a stopped phase may take to notice before the runner stops waiting for it. */
  stopGraceMs?: number;
}

export type JobOutcome =
  | { status: "completed"; findings: FindingCounts; detections: DetectionDraft[] }
  | { status: "failed"; reason: string; phase: string; retryable: boolean; findings: FindingCounts }
  | { status: "superseded"; findings: FindingCounts };

/** Default current_tool per phase, shown from PhaseStarted until the handler names its own. */
export const PHASE_TOOL: Record<Phase, string> = {
  discovery: "dns",
  enumeration: "portscan",
  vulnerability_scanning: "templates",
  web_analysis: "web",
  cloud_analysis: "cloud",
  threat_intelligence: "epss-kev",
  correlation: "correlator",
  compliance_mapping: "compliance-mapper",
  ai_analysis: "analyst",
  remediation_planning: "remediation-planner",
  reporting: "reporter",
};

const MAX_TIMER_MS = 2 ** 31 - 1;

export function addCount(c: FindingCounts, severity: Severity): void {
  c.total++;
  c[severity]++;
}

/** A finding counted under `from` now rates `to` (phase counts are deltas the orchestrator sums). */
function moveCount(c: FindingCounts, from: Severity, to: Severity): void {
  c[from]--;
  c[to]++;
}

/** Overall progress once `done` of `total` phases are complete: the completed share, 0-100. */
export function progressAfter(done: number, total: number): number {
  if (total <= 0) return 100;
  return Math.min(100, Math.max(0, Math.round((100 * done) / total)));
}

/**
 * The phases earlier attempts completed (in the plan, not in this job) and the length of the
 * whole run. Without a plan, or with a job that does not fit it, the job is the whole run.
 */
export function progressBasis(jobPhases: readonly Phase[], plan?: readonly Phase[]): { before: Phase[]; total: number } {
  if (!plan || !jobPhases.every((p) => plan.includes(p))) return { before: [], total: jobPhases.length };
  return { before: plan.filter((p) => !jobPhases.includes(p)), total: plan.length };
}

/** A guess within a running phase (it has no meter): rises towards 95 with a 30 s time constant. */
export function phaseEstimate(elapsedMs: number): number {
  return Math.min(95, Math.round(100 * (1 - Math.exp(-elapsedMs / 30_000))));
}

/** The per-host coverage of a context: its hosts, their open ports with how they answered, and the checks recorded. */
export function coverageOf(ctx: Pick<ScanContext, "hosts" | "services">, covered: ReadonlyMap<string, ReadonlySet<string>>): HostCoverage[] {
  const checks = (address: string, port: number | undefined) => [...(covered.get(`${address}|${port ?? ""}`) ?? [])].sort();
  return ctx.hosts.map((h) => ({
    target: h.hostname ?? h.address,
    address: h.address,
    alive: h.alive,
    hostChecks: checks(h.address, undefined),
    ports: ctx.services
      .filter((s) => s.host === h.address)
      .map((s) => ({ port: s.port, outcome: s.name || s.banner ? ("answered" as const) : ("silent" as const), checks: checks(s.host, s.port) })),
  }));
}

export class ScanStopped extends Error {
  override name = "ScanStopped";
  constructor(readonly stop: StopReason) {
    super(`scan stopped: ${stop.kind}`);
  }
}

const stopOf = (signal: AbortSignal): StopReason => {
  const r = signal.reason as StopReason | undefined;
  return r && typeof r === "object" && "kind" in r ? r : { kind: "cancelled" };
};

/** Resolves with the handler, or rejects soon after the signal aborts even if the handler ignores it. */
function untilStopped<T>(work: Promise<T>, signal: AbortSignal, graceMs: number): Promise<T> {
  work.catch(() => undefined); // a late rejection of abandoned work is not unhandled
  if (signal.aborted) return Promise.reject(new ScanStopped(stopOf(signal)));
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      // Give a cooperative handler a moment to return with what it has, then stop waiting.
      timer = setTimeout(() => reject(new ScanStopped(stopOf(signal))), graceMs);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (v) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) reject(new ScanStopped(stopOf(signal)));
        else resolve(v);
      },
      (err) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        reject(signal.aborted ? new ScanStopped(stopOf(signal)) : err);
      },
    );
  });
}

function failureOf(err: unknown, phase: Phase): { reason: string; retryable: boolean } {
  if (err instanceof EgressDenied) return { reason: "target is outside the allowed networks", retryable: false };
  const known = (err as { customerReason?: unknown; retryable?: unknown }) ?? {};
  if (typeof known.customerReason === "string") return { reason: known.customerReason, retryable: known.retryable === true };
  return { reason: `${phase.replace(/_/g, " ")} failed`, retryable: true };
}

export async function runJob(opts: RunJobOptions): Promise<JobOutcome> {
  const { job, sinks, log } = opts;
  const controller = new AbortController();
  const signal = controller.signal;
  // Every in-flight probe of a phase listens on the scan's signal; hundreds at once are expected.
  setMaxListeners(0, signal);
  const onOuterAbort = () => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onOuterAbort();
  else opts.signal?.addEventListener("abort", onOuterAbort, { once: true });

  const deadlineMs = job.deadline ? job.deadline.getTime() - Date.now() : Infinity;
  // setTimeout fires at once for delays above 2^31-1 ms (~24.8 days): no timer for such a deadline.
  const deadlineTimer =
    Number.isFinite(deadlineMs) && deadlineMs <= MAX_TIMER_MS
      ? setTimeout(() => controller.abort({ kind: "deadline" } satisfies StopReason), Math.max(0, deadlineMs))
      : undefined;
  if (deadlineMs <= 0) controller.abort({ kind: "deadline" } satisfies StopReason);

  const total = zeroCounts();
  let phaseCounts = zeroCounts();
  /** Per weakness identity: the detections folded so far and the merged one's place in ctx.detections. */
  const weaknesses = new Map<string, { raws: DetectionDraft[]; index: number }>();
  let current: Phase | undefined;
  let tool = "";
  let phaseStarted = Date.now();
  const startedAt = new Date();
  /** `address|port` (port "" for the host itself) → the checks that ran to their end there. */
  const coverage = new Map<string, Set<string>>();

  const ctx: ScanContext = {
    scanId: job.scanId,
    orgId: job.orgId,
    target: job.target,
    scanType: job.scanType,
    ports: job.ports,
    frameworks: job.frameworks,
    signal,
    guard: opts.guard,
    log: log.child({ scan_id: job.scanId, attempt: job.attempt }),
    hosts: [],
    services: [],
    detections: [],
    setTool: (t) => {
      tool = t;
    },
    covered: (address, port, check) => {
      if (signal.aborted) return;
      const key = `${address}|${port ?? ""}`;
      const set = coverage.get(key) ?? new Set<string>();
      coverage.set(key, set.add(check));
    },
    report: async (draft) => {
      // After a stop nothing more leaves: what was published stays, the rest is dropped.
      if (signal.aborted) throw new ScanStopped(stopOf(signal));
      const phase = current!;
      // One weakness, one finding (identity.ts): a weakness already published in this scan is
      // published again folded with the new detection, under the first one's finding key, so the
      // finding keeps every detecting tool and its evidence.
      const key = weaknessKey(draft);
      const prior = weaknesses.get(key);
      const raws = prior ? [...prior.raws, draft] : [draft];
      const merged = mergeDetections(raws);
      const d = opts.enrich ? opts.enrich(merged) : merged;
      await sinks.detection(d, { phase, detectionId: randomUUID(), detectedAt: new Date() });
      if (prior) {
        prior.raws = raws;
        const before = ctx.detections[prior.index]!;
        ctx.detections[prior.index] = d;
        // Folding can raise the rating: the scan's counts follow the finding, as the list shows it.
        if (before.severity !== d.severity) {
          moveCount(phaseCounts, before.severity, d.severity);
          moveCount(total, before.severity, d.severity);
        }
        return;
      }
      weaknesses.set(key, { raws, index: ctx.detections.length });
      ctx.detections.push(d);
      // Counts are of findings (weaknesses), so a check that reports the same thing twice, or
      // two engines that see the same weakness, cannot inflate the scan's numbers.
      addCount(phaseCounts, d.severity);
      addCount(total, d.severity);
    },
  };

  const heartbeat = setInterval(
    () => {
      if (!current || signal.aborted) return;
      sinks
        .report({ kind: "heartbeat", phase: current, currentTool: tool, progress: phaseEstimate(Date.now() - phaseStarted) })
        .catch((err) => log.warn({ err: (err as Error).message, scan_id: job.scanId }, "heartbeat not sent"));
    },
    Math.min(opts.heartbeatMs ?? 10_000, 10_000),
  );

  /**
   * Coverage is an addition to the scan's result: one that cannot be sent leaves checks "not
   * covered", never the scan failed. Returns how many host records were sent (0 when not sent).
   */
  const sendCoverage = async (outcome: CoverageReport["outcome"]): Promise<number> => {
    if (!sinks.coverage) return 0;
    const hosts = coverageOf(ctx, coverage);
    try {
      await sinks.coverage({ attempt: job.attempt, outcome, startedAt, hosts });
      return hosts.length;
    } catch (err) {
      log.warn({ err: (err as Error).message, scan_id: job.scanId }, "scan coverage not sent");
      return 0;
    }
  };

  const basis = progressBasis(job.phases, opts.plan);
  const completed: Phase[] = [...basis.before];
  try {
    for (const [i, phase] of job.phases.entries()) {
      if (signal.aborted) throw new ScanStopped(stopOf(signal));
      current = phase;
      tool = PHASE_TOOL[phase];
      phaseStarted = Date.now();
      phaseCounts = zeroCounts();
      await sinks.report({ kind: "phaseStarted", phase, tool });
      const handler = opts.handlers[phase];
      await untilStopped(
        Promise.resolve().then(() => handler(ctx)),
        signal,
        opts.stopGraceMs ?? 2000,
      );
      completed.push(phase);
      if (opts.plan && basis.before.length) completed.sort((a, b) => opts.plan!.indexOf(a) - opts.plan!.indexOf(b));
      await sinks.report({
        kind: "phaseCompleted",
        phase,
        progress: progressAfter(basis.before.length + i + 1, basis.total),
        phasesCompleted: [...completed],
        phasesRemaining: job.phases.slice(i + 1),
        findings: { ...phaseCounts },
      });
    }
    current = undefined;
    const coverageRecords = await sendCoverage("completed");
    await sinks.report({ kind: "completed", findings: { ...total }, coverageRecords });
    return { status: "completed", findings: total, detections: ctx.detections };
  } catch (err) {
    const phase = current ?? job.phases[0] ?? "";
    current = undefined;
    const stop = err instanceof ScanStopped ? err.stop : signal.aborted ? stopOf(signal) : undefined;
    if (stop?.kind === "superseded") {
      log.info({ scan_id: job.scanId, attempt: job.attempt }, "attempt superseded by a newer one; stopped without a report");
      return { status: "superseded", findings: total };
    }
    const failure = stop ? FAILURE[stop.kind] : failureOf(err, phase as Phase);
    if (!stop) log.error({ err, scan_id: job.scanId, phase }, "scan phase failed");
    await sendCoverage(stop?.kind === "cancelled" ? "cancelled" : "failed");
    await sinks.report({ kind: "failed", reason: failure.reason, phase, retryable: failure.retryable });
    return { status: "failed", ...failure, phase, findings: total };
  } finally {
    clearInterval(heartbeat);
    clearTimeout(deadlineTimer);
    opts.signal?.removeEventListener("abort", onOuterAbort);
    if (!signal.aborted) controller.abort({ kind: "shutdown" } satisfies StopReason); // release anything still listening
  }
}
