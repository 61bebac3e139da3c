import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { KafkaBus, Logger, Subscription } from "@vulnscan/kit";
import { RetestJobSchema, RetestResultSchema, type RetestJob } from "@vulnscan/proto/vulnscan/findings/v1/retest_pb.js";
import { runRetest, type RetestDeps, type RetestOutcome, type RetestSpec } from "../engine/retest.js";

export interface RetestWorkerOptions {
  bus: KafkaBus;
  topics: { jobs: string; results: string };
  /** The pool's consumer group for retests ("scanner-retest"): each retest runs on one worker. */
  groupId: string;
  workerId: string;
  /** Retests run at once by this worker (they are one check each: small). */
  concurrency: number;
  deps: RetestDeps;
  log: Logger;
  metrics?: { retestFinished(verdict: string): void };
}

export function retestSpecOf(job: RetestJob): RetestSpec {
  return {
    retestId: job.retestId,
    orgId: job.orgId,
    findingId: job.findingId,
    target: job.target,
    templateId: job.templateId,
    tool: job.tool,
    affectedComponent: job.affectedComponent,
    port: job.port,
    ...(job.deadline ? { deadline: timestampDate(job.deadline) } : {}),
  };
}

/**
 * Retests on the scanner pool: jobs from vulnscan.retest.jobs (one consumer group across the
 * replicas), each run outside the Kafka handler (as scans are: the offset commits at once and
 * the group keeps heartbeating), its verdict published to vulnscan.retest.results. A lost
 * worker loses the retest: findings turns a retest still pending past its deadline into
 * `inconclusive` (timeout), so no retest stays pending for ever.
 */
export class RetestWorker {
  private sub?: Subscription;
  private readonly queue: RetestSpec[] = [];
  private readonly seen = new Map<string, number>();
  private running = 0;
  private stopping = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly controller = new AbortController();

  constructor(private readonly o: RetestWorkerOptions) {}

  async start(): Promise<void> {
    this.sub = await this.o.bus.subscribe({
      groupId: this.o.groupId,
      topic: this.o.topics.jobs,
      schema: RetestJobSchema,
      handle: async (job) => this.onJob(job),
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.sub?.stop();
    // Queued ones are left to findings' deadline; running ones stop now and say so.
    this.queue.splice(0);
    this.controller.abort();
    await Promise.allSettled([...this.inFlight]);
  }

  private onJob(job: RetestJob): void {
    if (this.stopping || !job.retestId || !job.orgId || !job.target || !job.port) return;
    if (this.seen.has(job.retestId)) return; // a redelivery: the verdict is already on its way
    // Past its deadline findings has answered it already (timeout): a new consumer group reading
    // the topic from the beginning must not re-run old retests.
    if (job.deadline && timestampDate(job.deadline).getTime() < Date.now()) return;
    this.seen.set(job.retestId, Date.now());
    if (this.seen.size > 10_000) for (const [id] of [...this.seen].slice(0, 5_000)) this.seen.delete(id);
    this.queue.push(retestSpecOf(job));
    this.pump();
  }

  private pump(): void {
    while (!this.stopping && this.running < this.o.concurrency && this.queue.length) {
      const spec = this.queue.shift()!;
      this.running++;
      const p = this.run(spec).finally(() => {
        this.running--;
        this.inFlight.delete(p);
        this.pump();
      });
      this.inFlight.add(p);
    }
  }

  private async run(spec: RetestSpec): Promise<void> {
    const log = this.o.log.child({ retest_id: spec.retestId, finding_id: spec.findingId });
    const started = new Date();
    let outcome: RetestOutcome;
    try {
      outcome = await runRetest(spec, { ...this.o.deps, log }, this.controller.signal);
    } catch (err) {
      log.error({ err }, "retest failed");
      outcome = { verdict: "inconclusive", reason: "unreachable", detail: "The retest could not run on the scanner.", evidence: { request: "", response: "" } };
    }
    const record = create(RetestResultSchema, {
      retestId: spec.retestId,
      orgId: spec.orgId,
      findingId: spec.findingId,
      verdict: outcome.verdict,
      reason: outcome.reason,
      detail: outcome.detail,
      evidence: { request: outcome.evidence.request, response: outcome.evidence.response },
      workerId: this.o.workerId,
      startedAt: timestampFromDate(started),
      finishedAt: timestampFromDate(new Date()),
    });
    try {
      await this.o.bus.publish(this.o.topics.results, RetestResultSchema, record, { key: spec.findingId });
      this.o.metrics?.retestFinished(outcome.verdict);
      log.info({ verdict: outcome.verdict, reason: outcome.reason, ms: Date.now() - started.getTime() }, "retest finished");
    } catch (err) {
      log.error({ err }, "retest verdict not published; findings times it out");
    }
  }
}
