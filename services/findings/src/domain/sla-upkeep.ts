import type { Logger } from "@vulnscan/kit/core";
import { expireAcceptance } from "./acceptance.js";
import type { Change } from "./changes.js";
import type { Changed, Clock, FindingRepository, Holder } from "./ports.js";
import { announceBreach, checkSlaDays, DEFAULT_POLICY, slaDiff, slaFields, withSla, type FindingsPolicy, type SlaDays } from "./sla.js";
import type { Actor, FindingDoc, Severity } from "./types.js";
import { actorName } from "./types.js";

/** Each organization's findings policy (storage/sla-store.ts); null while it never set one. */
export interface PolicyStore {
  get(orgId: string): Promise<FindingsPolicy | null>;
  put(orgId: string, p: FindingsPolicy): Promise<void>;
}

/** What the SLA and acceptance upkeep reads (storage/sla-store.ts), each an index range. */
export interface SlaQueue {
  /** Ids of the organization's open and in-progress findings after `afterId` (descending id order). */
  activeIds(orgId: string, afterId: string, limit: number): Promise<string[]>;
  /** Findings of any organization whose deadline passed unannounced. */
  dueBreaches(now: Date, limit: number): Promise<{ org_id: string; _id: string }[]>;
  /** Accepted findings of any organization whose acceptance ran out. */
  dueExpiries(now: Date, limit: number): Promise<{ org_id: string; _id: string }[]>;
  /** Open and in-progress findings breached and at risk at `now`. */
  slaCounts(orgId: string, opts: { from?: Date; to?: Date; target?: string }, now: Date): Promise<{ breached: number; at_risk: number }>;
}

const policyOf = async (store: PolicyStore, orgId: string) => (await store.get(orgId)) ?? DEFAULT_POLICY;

/**
 * The findings repository with SLA upkeep on every write: whichever use case changes a finding
 * (ingestion, triage, acceptance, resolution by a later feature), the due date the policy gives
 * and the at-risk and breach instants are written with the change, from the state it leaves.
 */
export function slaRepository(inner: FindingRepository, policies: PolicyStore): FindingRepository {
  return {
    get: (orgId, id) => inner.get(orgId, id),
    rememberedHolders: (fps) => inner.rememberedHolders(fps),
    async create(found): Promise<Map<string, Holder>> {
      const days = new Map<string, SlaDays>();
      for (const org of new Set(found.map((x) => x.doc.org_id))) days.set(org, (await policyOf(policies, org)).sla_days);
      // In place: the creation events hold the same document.
      for (const { doc } of found) Object.assign(doc, slaDiff(doc, slaFields(doc, days.get(doc.org_id)!, false)));
      return inner.create(found);
    },
    async change(orgId, ids, decide): Promise<Map<string, Changed>> {
      const { sla_days } = await policyOf(policies, orgId);
      return inner.change(orgId, ids, (f) => withSla(f, decide(f), sla_days));
    },
  };
}

export const UPKEEP_BATCH = 200;

/**
 * The time-driven side: deadlines that passed (finding.sla_breached) and acceptances that ran
 * out (reopen). Each finding's change is conditional on the state it was decided on (the
 * repository's revision), so with several replicas sweeping at once exactly one announces a
 * deadline or reopens a finding; the others find nothing left to do.
 */
export class SlaUpkeep {
  constructor(private readonly deps: { findings: FindingRepository; queue: SlaQueue; logger: Logger; now: Clock }) {}

  async run(): Promise<{ breaches: number; expiries: number }> {
    const breaches = await this.sweep(
      (now, n) => this.deps.queue.dueBreaches(now, n),
      (f, now) => announceBreach(f, now),
    );
    const expiries = await this.sweep(
      (now, n) => this.deps.queue.dueExpiries(now, n),
      (f, now) => expireAcceptance(f, now),
    );
    return { breaches, expiries };
  }

  private async sweep(due: (now: Date, limit: number) => Promise<{ org_id: string; _id: string }[]>, decide: (f: FindingDoc, now: Date) => Change | null) {
    let done = 0;
    for (let round = 0; round < 50; round++) {
      const now = this.deps.now();
      const rows = await due(now, UPKEEP_BATCH);
      const byOrg = new Map<string, { org_id: string; _id: string }[]>();
      for (const r of rows) byOrg.set(r.org_id, [...(byOrg.get(r.org_id) ?? []), r]);
      let moved = 0;
      for (const [orgId, list] of byOrg) {
        const res = await this.deps.findings.change(
          orgId,
          list.map((r) => r._id),
          (f) => decide(f, now),
        );
        for (const [id, r] of res) {
          if (r instanceof Error) this.deps.logger.error({ err: r, finding_id: id }, "SLA upkeep of one finding failed");
          else moved++;
        }
      }
      done += moved;
      if (rows.length < UPKEEP_BATCH || moved === 0) break;
    }
    return done;
  }
}

/** The organization's findings policy: read, and replaced with every open finding's policy due date refreshed. */
export class Policies {
  constructor(private readonly deps: { policies: PolicyStore; findings: FindingRepository; queue: SlaQueue; now: Clock }) {}

  get(orgId: string): Promise<FindingsPolicy> {
    return policyOf(this.deps.policies, orgId);
  }

  async update(
    orgId: string,
    input: { sla_days: Partial<Record<Severity, number | null>>; require_acceptance_approval: boolean; auto_resolve?: boolean },
    actor: Actor | undefined,
  ): Promise<{ policy: FindingsPolicy; refreshed: number }> {
    const policy: FindingsPolicy = {
      sla_days: checkSlaDays(input.sla_days),
      require_acceptance_approval: input.require_acceptance_approval,
      // Left out, auto-resolution keeps the organization's current setting.
      auto_resolve: input.auto_resolve ?? (await this.get(orgId)).auto_resolve ?? false,
      updated_at: this.deps.now(),
      updated_by: actorName(actor),
    };
    await this.deps.policies.put(orgId, policy);
    // The repository (slaRepository) writes the new policy's fields; an empty change asks only for them.
    let refreshed = 0;
    for (let after = ""; ; ) {
      const ids = await this.deps.queue.activeIds(orgId, after, 500);
      if (ids.length === 0) break;
      const before = new Map<string, Date | null>();
      const res = await this.deps.findings.change(orgId, ids, (f) => {
        before.set(f._id, f.due_date);
        return { set: {}, events: [] };
      });
      for (const [id, r] of res) if (r && !(r instanceof Error) && r.due_date?.getTime() !== before.get(id)?.getTime()) refreshed++;
      after = ids.at(-1)!;
    }
    return { policy, refreshed };
  }
}
