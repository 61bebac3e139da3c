import { invalidState, newId, notFound, quotaExceeded, type Logger } from "@vulnscan/kit/core";
import type { Change } from "./changes.js";
import { statusEvents } from "./events.js";
import type { Clock, FindingRepository } from "./ports.js";
import { actorName, SYSTEM, type Actor, type FindingDoc, type HistoryEntry } from "./types.js";

/*
 * Retest of one finding (issue 28): only the check that produced it, against its component, run
 * as a tiny job on the scanner pool (vulnscan.retest.jobs → vulnscan.retest.results). The
 * verdict is recorded on a retest resource; `fixed` resolves the finding as `verified_fixed`
 * (history entry by system, the usual status events), `still_vulnerable` refreshes its evidence
 * (and reopens a resolved one, like a re-detection), `inconclusive` never changes the status.
 */

export const RETEST_VERDICTS = ["fixed", "still_vulnerable", "inconclusive"] as const;
export type RetestVerdict = (typeof RETEST_VERDICTS)[number];
export const INCONCLUSIVE_REASONS = ["unreachable", "timeout", "refused"] as const;
export type InconclusiveReason = (typeof INCONCLUSIVE_REASONS)[number];

/** How long the scanner pool has for one retest (connect, identify, one check, connect again). */
export const RETEST_DEADLINE_MS = 60_000;
/** A retest still pending this long after its deadline lost its worker: it becomes inconclusive (timeout). */
export const RETEST_GRACE_MS = 15_000;
/** Retests per calendar month (UTC) are their own budget: this many per monthly scan of the plan. */
export const RETESTS_PER_SCAN = 10;

/**
 * The tools whose check can run alone against one component (the scanner's engine/retest.ts
 * runs them): templates, version matches, the built-in web, TLS, SSH and datastore checks and
 * exposed telnet. Notes about several findings (correlation, plans, inventories) cannot.
 */
const RETESTABLE_TOOLS = new Set(["templates", "cve-match", "web", "tls", "ssh", "datastores"]);
const TELNET_CHECK = "net-telnet-exposed";

export function retestable(f: Pick<FindingDoc, "tool" | "template_id">): boolean {
  return RETESTABLE_TOOLS.has(f.tool) || f.template_id.startsWith("cve:") || (f.tool === "portscan" && f.template_id === TELNET_CHECK);
}

const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };

/** The TCP port a component names: `http://h:8080/x`, `https://h/` (443), `tcp://h:21`, `redis 7 on h:6379`, `h:443` (TLS); undefined when none. */
export function componentPort(component: string): number | undefined {
  const c = component.trim();
  const url = /^([a-z][a-z0-9+.-]*):\/\/(\[[^\]]+\]|[^/:?#\s]+)(?::(\d+))?/i.exec(c);
  const on = /\son\s+(\[[^\]]+\]|[^\s:]+):(\d+)$/.exec(c) ?? /^(\[[^\]]+\]|[^\s:/]+):(\d+)$/.exec(c);
  const raw = url ? (url[3] ?? DEFAULT_PORTS[url[1]!.toLowerCase()]) : on?.[2];
  const port = raw === undefined ? Number.NaN : Number(raw);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
}

export interface RetestDoc {
  _id: string;
  org_id: string;
  finding_id: string;
  status: "pending" | "completed";
  verdict: RetestVerdict | "";
  reason: InconclusiveReason | "";
  detail: string;
  template_id: string;
  tool: string;
  target: string;
  affected_component: string;
  port: number;
  evidence: { request: string; response: string };
  requested_by: string;
  requested_at: Date;
  deadline: Date;
  completed_at: Date | null;
  finding_status: string;
  worker_id: string;
}

/** What the scanner said (or the deadline, for a retest whose worker was lost). */
export interface RetestResult {
  retest_id: string;
  org_id: string;
  verdict: RetestVerdict;
  reason: InconclusiveReason | "";
  detail: string;
  evidence: { request: string; response: string };
  worker_id: string;
  finished_at: Date;
}

export interface RetestStore {
  /** Stores a new pending retest with its scanner job (sent after the write, from the document's outbox). */
  create(doc: RetestDoc): Promise<void>;
  get(orgId: string, id: string): Promise<RetestDoc | null>;
  /** Marks the one pending retest of a finding; false when the finding already has one. */
  lock(orgId: string, findingId: string, retestId: string, until: Date): Promise<boolean>;
  /** The pending retest holding a finding's lock, if any (to clear a lock whose retest timed out). */
  lockHolder(orgId: string, findingId: string): Promise<{ retest_id: string; until: Date } | null>;
  unlock(findingId: string, retestId: string): Promise<void>;
  /**
   * Completes a pending retest with its verdict and its finding.retested event (one write, guarded
   * by `pending`): false when it was completed already (a redelivered verdict).
   */
  complete(
    doc: RetestDoc,
    done: Pick<RetestDoc, "verdict" | "reason" | "detail" | "evidence" | "completed_at" | "finding_status" | "worker_id">,
    finding: FindingDoc,
  ): Promise<boolean>;
  /** Newest first. */
  list(orgId: string, findingId: string, offset: number, limit: number): Promise<RetestDoc[]>;
  count(orgId: string, findingId: string): Promise<number>;
  /** Pending retests whose deadline passed before `before` (their workers were lost). */
  overdue(before: Date, limit: number): Promise<RetestDoc[]>;
}

/** Retests of one organization and month (`YYYY-MM`, UTC), exact under concurrency. */
export interface RetestBudget {
  take(orgId: string, month: string, max: number): Promise<number | undefined>;
}

/** The plan's monthly retests (unlimited scans: unlimited retests). */
export interface RetestPlans {
  retestsPerMonth(orgId: string): Promise<{ unlimited: boolean; max: number }>;
}

const month = (d: Date) => d.toISOString().slice(0, 7);
const startOfNextMonth = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));

/**
 * The verdict's change to the finding (null: none). Idempotent: the retest id joins the finding's
 * recent detection ids, so a redelivered verdict finds itself applied.
 */
export function applyRetestVerdict(f: FindingDoc, retest: RetestDoc, r: RetestResult, now: Date): Change | null {
  if (r.verdict === "inconclusive") return null;
  if ((f.detection_ids ?? []).includes(retest._id)) return null;
  const ids = [...(f.detection_ids ?? []), retest._id].slice(-50);
  const history: HistoryEntry[] = [];
  const set: Change["set"] = { detection_ids: ids, updated_at: now };
  const events = [];
  if (r.verdict === "fixed") {
    history.push({ action: "retested", from: null, to: `fixed (${retest._id})`, user: SYSTEM, timestamp: now });
    if (f.status !== "resolved") {
      set.status = "resolved";
      set.resolved_at = now;
      set.resolution_minutes = Math.max(0, Math.round((now.getTime() - f.detected_at.getTime()) / 60_000));
      history.push({ action: "status_changed", from: f.status, to: "resolved", user: SYSTEM, timestamp: now });
    }
    set.resolution = "verified_fixed";
  } else {
    history.push({ action: "retested", from: null, to: `still_vulnerable (${retest._id})`, user: SYSTEM, timestamp: now });
    set.last_seen_at = now;
    if (r.evidence.request || r.evidence.response) set.evidence = { request: r.evidence.request, response: r.evidence.response, screenshot_url: null };
    if (f.status === "resolved") {
      set.status = "open";
      set.resolved_at = null;
      set.resolution_minutes = null;
      set.resolution = null;
      history.push({ action: "reopened", from: "resolved", to: "open", user: SYSTEM, timestamp: now });
    }
  }
  set.history = [...f.history, ...history];
  if (set.status !== undefined) events.push(...statusEvents({ ...f, ...set } as FindingDoc, f.status, set.status, SYSTEM, now));
  return { set, events };
}

export class Retests {
  constructor(
    private readonly deps: {
      findings: FindingRepository;
      retests: RetestStore;
      retestBudget: RetestBudget;
      retestPlans: RetestPlans;
      logger: Logger;
      now: Clock;
    },
  ) {}

  /** Starts a retest: one pending per finding, within the month's budget; the scanner job leaves with the stored retest. */
  async request(orgId: string, findingId: string, actor: Actor | undefined): Promise<{ retest: RetestDoc; remaining: number }> {
    const f = await this.deps.findings.get(orgId, findingId);
    if (!f) throw notFound("Finding");
    if (!retestable(f)) throw invalidState(`Findings of the ${f.tool} tool (${f.template_id}) cannot be retested on their own; run a scan`);
    const port = componentPort(f.affected_component);
    if (port === undefined) throw invalidState("The finding's component names no port to retest; run a scan");
    const now = this.deps.now();
    const id = newId("retest", now.getTime());
    const deadline = new Date(now.getTime() + RETEST_DEADLINE_MS);
    if (!(await this.lock(orgId, findingId, id, deadline))) throw invalidState("A retest of this finding is still running");
    try {
      const plan = await this.deps.retestPlans.retestsPerMonth(orgId);
      let remaining = -1;
      if (!plan.unlimited) {
        const used = await this.deps.retestBudget.take(orgId, month(now), plan.max);
        if (used === undefined)
          throw quotaExceeded(
            "RETEST_QUOTA_EXCEEDED",
            `Monthly retests used up (${plan.max}); they reset on ${startOfNextMonth(now).toISOString().slice(0, 10)}`,
            (startOfNextMonth(now).getTime() - now.getTime()) / 1000,
          );
        remaining = plan.max - used;
      }
      const retest: RetestDoc = {
        _id: id,
        org_id: orgId,
        finding_id: findingId,
        status: "pending",
        verdict: "",
        reason: "",
        detail: "",
        template_id: f.template_id,
        tool: f.tool,
        target: f.target,
        affected_component: f.affected_component,
        port,
        evidence: { request: "", response: "" },
        requested_by: actorName(actor),
        requested_at: now,
        deadline,
        completed_at: null,
        finding_status: "",
        worker_id: "",
      };
      await this.deps.retests.create(retest);
      return { retest, remaining };
    } catch (err) {
      await this.deps.retests.unlock(findingId, id);
      throw err;
    }
  }

  /**
   * Takes the finding's lock. A lock whose retest has its verdict (the verdict is written before
   * the lock goes) or is gone is released; one whose retest is overdue ends it as timeout first.
   */
  private async lock(orgId: string, findingId: string, id: string, deadline: Date): Promise<boolean> {
    if (await this.deps.retests.lock(orgId, findingId, id, deadline)) return true;
    const holder = await this.deps.retests.lockHolder(orgId, findingId);
    if (!holder) return this.deps.retests.lock(orgId, findingId, id, deadline);
    const held = await this.deps.retests.get(orgId, holder.retest_id);
    if (held?.status === "pending" && holder.until.getTime() + RETEST_GRACE_MS >= this.deps.now().getTime()) return false;
    if (held?.status === "pending") await this.timeOut(held);
    await this.deps.retests.unlock(findingId, holder.retest_id);
    return this.deps.retests.lock(orgId, findingId, id, deadline);
  }

  /** Applies a verdict from the scanner: finding first (idempotent), then the retest with its event, then the lock. */
  async complete(r: RetestResult): Promise<RetestDoc | null> {
    const retest = await this.deps.retests.get(r.org_id, r.retest_id);
    if (retest?.status !== "pending") return null;
    const now = this.deps.now();
    const res = (await this.deps.findings.change(r.org_id, [retest.finding_id], (f) => applyRetestVerdict(f, retest, r, now))).get(retest.finding_id);
    if (res instanceof Error) throw res;
    const finding = res ?? (await this.deps.findings.get(r.org_id, retest.finding_id));
    if (!finding) {
      // The finding is gone: the retest still ends, with nothing to change.
      await this.deps.retests.unlock(retest.finding_id, retest._id);
      return null;
    }
    const done = {
      verdict: r.verdict,
      reason: r.verdict === "inconclusive" ? r.reason || "unreachable" : ("" as const),
      detail: r.detail,
      evidence: r.evidence,
      completed_at: r.finished_at,
      finding_status: finding.status,
      worker_id: r.worker_id,
    };
    const applied = await this.deps.retests.complete(retest, done, finding);
    await this.deps.retests.unlock(retest.finding_id, retest._id);
    return applied ? { ...retest, ...done, status: "completed" } : null;
  }

  /** A retest whose worker never answered: inconclusive (timeout), status unchanged. */
  async timeOut(retest: RetestDoc): Promise<RetestDoc | null> {
    return this.complete({
      retest_id: retest._id,
      org_id: retest.org_id,
      verdict: "inconclusive",
      reason: "timeout",
      detail: "No scanner worker reported a verdict before the retest's deadline.",
      evidence: { request: "", response: "" },
      worker_id: "",
      finished_at: this.deps.now(),
    });
  }

  /** One pass over retests overdue by more than the grace period (any replica; completion is guarded). */
  async timeOutOverdue(limit = 100): Promise<number> {
    const overdue = await this.deps.retests.overdue(new Date(this.deps.now().getTime() - RETEST_GRACE_MS), limit);
    let n = 0;
    for (const r of overdue) if (await this.timeOut(r)) n++;
    return n;
  }

  async list(orgId: string, findingId: string, page: number, perPage: number): Promise<{ items: RetestDoc[]; total: number }> {
    const f = await this.deps.findings.get(orgId, findingId);
    if (!f) throw notFound("Finding");
    const [items, total] = await Promise.all([
      this.deps.retests.list(orgId, findingId, (page - 1) * perPage, perPage),
      this.deps.retests.count(orgId, findingId),
    ]);
    return { items, total };
  }
}
