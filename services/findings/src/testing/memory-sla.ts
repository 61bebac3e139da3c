import type { FindingsPolicy, PolicyRefresh } from "../domain/sla.js";
import { NEVER, slaStateAt } from "../domain/sla.js";
import type { PolicyStore, SlaQueue } from "../domain/sla-upkeep.js";
import type { MemoryFindings } from "./memory.js";

/** In-memory policies and SLA queue for unit tests: the same answers as storage/sla-store.ts. */
export class MemoryPolicies implements PolicyStore {
  private readonly byOrg = new Map<string, FindingsPolicy>();
  async get(orgId: string) {
    const p = this.byOrg.get(orgId);
    return p ? structuredClone(p) : null;
  }
  async put(orgId: string, p: FindingsPolicy) {
    this.byOrg.set(orgId, structuredClone(p));
  }
  async refreshing(now: Date, limit: number) {
    return [...this.byOrg]
      .filter(([, p]) => p.refresh?.state === "running" && p.refresh.leased_until.getTime() <= now.getTime())
      .slice(0, limit)
      .map(([orgId, p]) => ({ orgId, policy: structuredClone(p) }));
  }
  async advanceRefresh(orgId: string, savedAt: Date, from: Pick<PolicyRefresh, "after" | "leased_until">, to: PolicyRefresh) {
    const p = this.byOrg.get(orgId);
    const r = p?.refresh;
    if (!p || p.updated_at?.getTime() !== savedAt.getTime() || r?.state !== "running") return false;
    if (r.after !== from.after || r.leased_until.getTime() !== from.leased_until.getTime()) return false;
    p.refresh = structuredClone(to);
    return true;
  }
}

export class MemorySlaQueue implements SlaQueue {
  constructor(private readonly findings: MemoryFindings) {}

  async activeIds(orgId: string, afterId: string, limit: number) {
    return this.findings
      .of(orgId)
      .filter((f) => (f.status === "open" || f.status === "in_progress") && (!afterId || f._id < afterId))
      .map((f) => f._id)
      .sort()
      .reverse()
      .slice(0, limit);
  }

  async dueBreaches(now: Date, limit: number) {
    return [...this.findings.docs.values()]
      .filter((f) => f.sla_breach_pending_at && f.sla_breach_pending_at <= now)
      .slice(0, limit)
      .map((f) => ({ org_id: f.org_id, _id: f._id }));
  }

  async dueExpiries(now: Date, limit: number) {
    return [...this.findings.docs.values()]
      .filter((f) => f.accepted_until && f.accepted_until <= now)
      .slice(0, limit)
      .map((f) => ({ org_id: f.org_id, _id: f._id }));
  }

  async slaCounts(orgId: string, opts: { from?: Date; to?: Date; target?: string }, now: Date) {
    const fs = this.findings
      .of(orgId)
      .filter((f) => (!opts.target || f.target === opts.target) && (!opts.from || f.detected_at >= opts.from) && (!opts.to || f.detected_at < opts.to))
      .filter((f) => (f.sla_breach_at ?? NEVER) < NEVER);
    return { breached: fs.filter((f) => slaStateAt(f, now) === "breached").length, at_risk: fs.filter((f) => slaStateAt(f, now) === "at_risk").length };
  }
}
