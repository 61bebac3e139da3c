import type { RetestBudget, RetestDoc, RetestStore } from "../domain/retest.js";
import type { FindingDoc } from "../domain/types.js";

/** In-memory RetestStore for unit tests: the jobs it would send and the finding.retested events it would publish are kept for assertions. */
export class MemoryRetests implements RetestStore {
  readonly docs = new Map<string, RetestDoc>();
  readonly locks = new Map<string, { org_id: string; retest_id: string; until: Date }>();
  readonly jobs: RetestDoc[] = [];
  readonly events: { retest: RetestDoc; finding: FindingDoc }[] = [];

  async create(doc: RetestDoc): Promise<void> {
    this.docs.set(doc._id, structuredClone(doc));
    this.jobs.push(structuredClone(doc));
  }

  async get(orgId: string, id: string): Promise<RetestDoc | null> {
    const d = this.docs.get(id);
    return d && d.org_id === orgId ? structuredClone(d) : null;
  }

  async lock(orgId: string, findingId: string, retestId: string, until: Date): Promise<boolean> {
    if (this.locks.has(findingId)) return false;
    this.locks.set(findingId, { org_id: orgId, retest_id: retestId, until });
    return true;
  }

  async lockHolder(orgId: string, findingId: string) {
    const l = this.locks.get(findingId);
    return l && l.org_id === orgId ? { retest_id: l.retest_id, until: l.until } : null;
  }

  async unlock(findingId: string, retestId: string): Promise<void> {
    if (this.locks.get(findingId)?.retest_id === retestId) this.locks.delete(findingId);
  }

  async complete(doc: RetestDoc, done: Partial<RetestDoc>, finding: FindingDoc): Promise<boolean> {
    const cur = this.docs.get(doc._id);
    if (cur?.status !== "pending") return false;
    const next = { ...cur, ...done, status: "completed" as const };
    this.docs.set(doc._id, next);
    this.events.push({ retest: structuredClone(next), finding: structuredClone(finding) });
    return true;
  }

  private of(orgId: string, findingId: string) {
    return [...this.docs.values()]
      .filter((d) => d.org_id === orgId && d.finding_id === findingId)
      .sort((a, b) => b.requested_at.getTime() - a.requested_at.getTime() || (a._id < b._id ? 1 : -1));
  }

  async list(orgId: string, findingId: string, offset: number, limit: number): Promise<RetestDoc[]> {
    return this.of(orgId, findingId)
      .slice(offset, offset + limit)
      .map((d) => structuredClone(d));
  }

  async count(orgId: string, findingId: string): Promise<number> {
    return this.of(orgId, findingId).length;
  }

  async overdue(before: Date, limit: number): Promise<RetestDoc[]> {
    return [...this.docs.values()].filter((d) => d.status === "pending" && d.deadline < before).slice(0, limit);
  }
}

export class MemoryRetestBudget implements RetestBudget {
  private readonly n = new Map<string, number>();
  async take(orgId: string, month: string, max: number): Promise<number | undefined> {
    const key = `${orgId}:${month}`;
    const used = this.n.get(key) ?? 0;
    if (used >= max) return undefined;
    this.n.set(key, used + 1);
    return used + 1;
  }
}
