import { randomUUID } from "node:crypto";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { KafkaBus, Logger, Subscription } from "@vulnscan/kit";
import { DetectionSchema } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import { ScanCancellationSchema, ScanJobSchema, ScanReportSchema, type ScanCancellation, type ScanJob } from "@vulnscan/proto/vulnscan/scans/v1/jobs_pb.js";
import { phasesFor } from "@vulnscan/scan-contract";
import { runJob, type JobOutcome, type JobSpec, type RunnerReport, type StopReason } from "../engine/runner.js";
import type { DetectionDraft, Phase, PhaseHandler } from "../engine/types.js";
import type { EgressGuard } from "../net/egress.js";
import { BadJobError, coverageRecords, detectionRecord, jobSpecOf, reportRecord } from "./codec.js";

export interface WorkerTopics {
  jobs: string;
  cancellations: string;
  reports: string;
  detections: string;
}

export interface WorkerMetrics {
  jobFinished(outcome: string): void;
  detection(severity: string): void;
  running(n: number): void;
}

export interface ScanWorkerOptions {
  bus: KafkaBus;
  topics: WorkerTopics;
  /** The pool's consumer group for jobs ("scanner"). */
  groupId: string;
  workerId: string;
  /** Jobs run at once by this worker. */
  concurrency: number;
  handlers: Record<Phase, PhaseHandler>;
  guard: EgressGuard;
  log: Logger;
  /** The detection enricher of one job (EPSS, KEV, controls for its frameworks). */
  enrichFor: (job: JobSpec) => (d: DetectionDraft) => DetectionDraft;
  /** Heartbeat period for running and queued jobs, at most 10 s. */
  heartbeatMs?: number;
  /** How far back cancellations are remembered (one maximum job lifetime). */
  cancelWindowMs?: number;
  stopGraceMs?: number;
  metrics?: WorkerMetrics;
}

interface Active {
  spec: JobSpec;
  controller: AbortController;
  state: "queued" | "running";
  done?: Promise<JobOutcome | undefined>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One scanner worker: takes ScanJobs from the pool's consumer group, runs up to `concurrency`
 * of them through the engine, and streams Detections and ScanReports to Kafka.
 *
 * Jobs run outside the Kafka handler. The handler only validates, de-duplicates and queues the
 * job, so the offset is committed within milliseconds and kafkajs keeps heartbeating the
 * consumer group (its heartbeats only go out between handler calls: a scan held inside the
 * handler for minutes would exceed the 30 s session timeout, get the member evicted and the
 * same attempt redelivered to a second worker). A worker that dies mid-scan therefore loses
 * its jobs' offsets, and the orchestrator's watchdog covers it: the scan goes silent (no
 * heartbeat), and after its re-dispatch delay attempt + 1 is queued for the pool.
 *
 * Cancellations: every worker reads the whole cancellation topic in a consumer group of its
 * own, from the beginning, and remembers the scan ids requested within `cancelWindowMs`.
 */
export class ScanWorker {
  private readonly seen = new Map<string, { attempt: number; at: number }>();
  private readonly cancelled = new Map<string, number>();
  private readonly active = new Map<string, Active>();
  private readonly queue: Active[] = [];
  private running = 0;
  private subs: Subscription[] = [];
  private queuedBeat?: NodeJS.Timeout;
  private stopping = false;
  private readonly heartbeatMs: number;
  private readonly window: number;

  constructor(private readonly o: ScanWorkerOptions) {
    this.heartbeatMs = Math.min(o.heartbeatMs ?? 10_000, 10_000);
    this.window = o.cancelWindowMs ?? DAY_MS;
  }

  async start(): Promise<void> {
    // Cancellations first, so a cancelled scan still queued in the jobs topic is known before its job arrives.
    this.subs.push(
      await this.o.bus.subscribe({
        groupId: `scanner-cancel-${this.o.workerId}`,
        topic: this.o.topics.cancellations,
        schema: ScanCancellationSchema,
        fromBeginning: true,
        handle: async (c) => this.onCancellation(c),
      }),
    );
    this.subs.push(
      await this.o.bus.subscribe({
        groupId: this.o.groupId,
        topic: this.o.topics.jobs,
        schema: ScanJobSchema,
        handle: async (job) => this.onJob(job),
      }),
    );
    this.queuedBeat = setInterval(() => this.beatQueued(), this.heartbeatMs);
    this.o.log.info({ worker_id: this.o.workerId, concurrency: this.o.concurrency }, "scan worker started");
  }

  /** Stops taking jobs; running and queued jobs end with Failed "worker shutting down" (retryable). */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearInterval(this.queuedBeat);
    await Promise.allSettled(this.subs.map((s) => s.stop()));
    this.subs = [];
    const queued = this.queue.splice(0);
    for (const a of queued) {
      this.active.delete(a.spec.scanId);
      await this.publishReport(a.spec, { kind: "failed", reason: "worker shutting down", phase: a.spec.phases[0] ?? "", retryable: true }).catch(
        () => undefined,
      );
    }
    const running = [...this.active.values()].filter((a) => a.state === "running");
    for (const a of running) a.controller.abort({ kind: "shutdown" } satisfies StopReason);
    await Promise.allSettled(running.map((a) => a.done));
  }

  /** Jobs this worker holds (running and queued), for tests and metrics. */
  get load(): { running: number; queued: number } {
    return { running: this.running, queued: this.queue.length };
  }

  private onCancellation(c: ScanCancellation): void {
    const at = c.requestedAt ? timestampDate(c.requestedAt).getTime() : Date.now();
    if (Date.now() - at > this.window) return;
    this.cancelled.set(c.scanId, at);
    const a = this.active.get(c.scanId);
    if (!a) return;
    if (a.state === "queued") {
      this.dequeue(a);
      this.o.log.info({ scan_id: c.scanId }, "cancelled scan dropped before it started");
    } else {
      this.o.log.info({ scan_id: c.scanId }, "cancelling running scan");
      a.controller.abort({ kind: "cancelled" } satisfies StopReason);
    }
  }

  private async onJob(job: ScanJob): Promise<void> {
    const log = this.o.log.child({ scan_id: job.scanId, attempt: job.attempt });
    if (this.stopping) {
      // Taken while shutting down: hand it straight back for a re-dispatch.
      await this.publishReport(job, { kind: "failed", reason: "worker shutting down", phase: job.phases[0] ?? "", retryable: true });
      return;
    }
    const prev = this.seen.get(job.scanId);
    if (prev && job.attempt <= prev.attempt) {
      log.info({ seen_attempt: prev.attempt }, job.attempt < prev.attempt ? "stale attempt dropped" : "repeated attempt dropped");
      return;
    }
    this.seen.set(job.scanId, { attempt: job.attempt, at: Date.now() });
    this.prune();
    if (this.cancelled.has(job.scanId)) {
      log.info("job of a cancelled scan dropped");
      return;
    }
    let spec: JobSpec;
    try {
      spec = jobSpecOf(job);
    } catch (err) {
      if (!(err instanceof BadJobError)) throw err;
      log.error({ err: err.message }, "job cannot run");
      await this.publishReport(job, { kind: "failed", reason: `invalid job: ${err.message}`, phase: job.phases[0] ?? "", retryable: false });
      return;
    }
    const older = this.active.get(spec.scanId);
    if (older) {
      // A newer attempt means the orchestrator gave up on the older one: stop it quietly.
      log.info({ older_attempt: older.spec.attempt }, "newer attempt supersedes the one held here");
      if (older.state === "queued") this.dequeue(older);
      else older.controller.abort({ kind: "superseded" } satisfies StopReason);
    }
    const a: Active = { spec, controller: new AbortController(), state: "queued" };
    this.active.set(spec.scanId, a);
    this.queue.push(a);
    log.info({ phases: spec.phases.length, ports: spec.ports.length, queued: this.queue.length, running: this.running }, "job accepted");
    this.pump();
  }

  private dequeue(a: Active) {
    const i = this.queue.indexOf(a);
    if (i >= 0) this.queue.splice(i, 1);
    if (this.active.get(a.spec.scanId) === a) this.active.delete(a.spec.scanId);
  }

  private pump(): void {
    while (!this.stopping && this.running < this.o.concurrency && this.queue.length) {
      const a = this.queue.shift()!;
      a.state = "running";
      this.running++;
      this.o.metrics?.running(this.running);
      a.done = this.run(a).finally(() => {
        this.running--;
        this.o.metrics?.running(this.running);
        if (this.active.get(a.spec.scanId) === a) this.active.delete(a.spec.scanId);
        this.pump();
      });
    }
  }

  private async run(a: Active): Promise<JobOutcome | undefined> {
    const { spec } = a;
    const log = this.o.log.child({ scan_id: spec.scanId, attempt: spec.attempt, worker_id: this.o.workerId });
    const started = Date.now();
    try {
      const outcome = await runJob({
        job: spec,
        handlers: this.o.handlers,
        guard: this.o.guard,
        log,
        signal: a.controller.signal,
        plan: phasesFor(spec.scanType),
        enrich: this.o.enrichFor(spec),
        heartbeatMs: this.heartbeatMs,
        ...(this.o.stopGraceMs !== undefined ? { stopGraceMs: this.o.stopGraceMs } : {}),
        sinks: {
          report: (r) => this.publishReport(spec, r),
          detection: async (d, meta) => {
            await this.o.bus.publish(this.o.topics.detections, DetectionSchema, detectionRecord(d, { job: spec, ...meta }), { key: spec.scanId });
            this.o.metrics?.detection(d.severity);
          },
          // After the attempt's detections, on the same key: findings reads it after them.
          coverage: async (c) => {
            for (const record of coverageRecords(c, spec)) await this.o.bus.publish(this.o.topics.detections, DetectionSchema, record, { key: spec.scanId });
          },
        },
      });
      this.o.metrics?.jobFinished(outcome.status === "failed" ? `failed:${outcome.reason}` : outcome.status);
      log.info(
        {
          status: outcome.status,
          ...(outcome.status === "failed" ? { reason: outcome.reason } : {}),
          findings: outcome.findings.total,
          ms: Date.now() - started,
        },
        "job finished",
      );
      return outcome;
    } catch (err) {
      // Reports could not be published (Kafka unreachable for long): the scan goes silent and
      // the orchestrator re-dispatches it.
      this.o.metrics?.jobFinished("error");
      log.error({ err }, "job aborted: reports could not be published");
      return undefined;
    }
  }

  private async publishReport(spec: Pick<JobSpec, "scanId" | "orgId" | "attempt">, r: RunnerReport): Promise<void> {
    const record = reportRecord(r, { job: spec, workerId: this.o.workerId, reportId: randomUUID(), sentAt: new Date() });
    await this.o.bus.publish(this.o.topics.reports, ScanReportSchema, record, { key: spec.scanId });
  }

  /** Queued jobs are held by this worker too: say so, or the watchdog would re-dispatch them. */
  private beatQueued(): void {
    for (const a of this.queue)
      this.publishReport(a.spec, { kind: "heartbeat", phase: "", currentTool: "", progress: 0 }).catch((err) =>
        this.o.log.warn({ err: (err as Error).message, scan_id: a.spec.scanId }, "heartbeat not sent"),
      );
  }

  private prune(): void {
    if (this.seen.size < 10_000 && this.cancelled.size < 10_000) return;
    const cutoff = Date.now() - this.window;
    for (const [id, s] of this.seen) if (s.at < cutoff && !this.active.has(id)) this.seen.delete(id);
    for (const [id, at] of this.cancelled) if (at < cutoff) this.cancelled.delete(id);
  }
}
