import type { Logger } from "@vulnscan/kit/core";
import { expireAcceptance } from "./acceptance.js";
import type { Change } from "./changes.js";
import type { Changed, Clock, FindingRepository, Holder } from "./ports.js";
import { announceBreach, checkSlaDays, DEFAULT_POLICY, slaDiff, slaFields, withSla, type FindingsPolicy, type PolicyRefresh, type SlaDays } from "./sla.js";
import type { Actor, FindingDoc, Severity } from "./types.js";
import { actorName } from "./types.js";

/** Each organization's findings policy (storage/sla-store.ts); null while it never set one. */
export interface PolicyStore {
  get(orgId: string): Promise<FindingsPolicy | null>;
  /** Replaces the policy (with the refresh it starts). */
  put(orgId: string, p: FindingsPolicy): Promise<void>;
  /** Organizations of any tenant whose policy refresh is running and held by nobody at `now`, with that policy. */
  refreshing(now: Date, limit: number): Promise<{ orgId: string; policy: FindingsPolicy }[]>;
  /**
   * Replaces the refresh of the policy saved at `savedAt`, if it is still at `from` (its `after`
   * and `leased_until`); false when another worker moved or took it first, or a newer policy
   * replaced it.
   */
  advanceRefresh(orgId: string, savedAt: Date, from: Pick<PolicyRefresh, "after" | "leased_until">, to: PolicyRefresh): Promise<boolean>;
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

/** Open findings brought to a new policy per batch (one index range and one batched change). */
export const REFRESH_BATCH = 200;
/** Batches one housekeeping pass gives each organization's refresh. */
const REFRESH_BATCHES_PER_PASS = 25;
/** How long a worker holds a refresh per batch (a crashed holder's refresh is taken after this). */
const REFRESH_LEASE_MS = 30_000;

/**
 * The organization's findings policy: read, and replaced. A new policy's due dates reach the
 * open findings through a refresh kept with the policy: the saving request does its first batch
 * (an organization with fewer than REFRESH_BATCH open findings is done when the answer comes)
 * and housekeeping the rest, resuming from the stored cursor after a restart. One worker holds
 * a refresh at a time (a lease written with each batch's cursor); a batch done twice after a
 * crash is the same empty SLA-keeping change, which changes nothing more.
 */
export class Policies {
  constructor(private readonly deps: { policies: PolicyStore; findings: FindingRepository; queue: SlaQueue; now: Clock; refreshBatch?: number }) {}

  get(orgId: string): Promise<FindingsPolicy> {
    return policyOf(this.deps.policies, orgId);
  }

  async update(
    orgId: string,
    input: { sla_days: Partial<Record<Severity, number | null>>; require_acceptance_approval: boolean; auto_resolve?: boolean },
    actor: Actor | undefined,
  ): Promise<{ policy: FindingsPolicy; refreshed: number }> {
    const now = this.deps.now();
    const policy: FindingsPolicy = {
      sla_days: checkSlaDays(input.sla_days),
      require_acceptance_approval: input.require_acceptance_approval,
      // Left out, auto-resolution keeps the organization's current setting.
      auto_resolve: input.auto_resolve ?? (await this.get(orgId)).auto_resolve ?? false,
      updated_at: now,
      updated_by: actorName(actor),
      // Held by this request for its first batch.
      refresh: { state: "running", after: "", refreshed: 0, leased_until: new Date(now.getTime() + REFRESH_LEASE_MS) },
    };
    await this.deps.policies.put(orgId, policy);
    const refresh = (await this.refreshBatch(orgId, policy, policy.refresh!, true)) ?? policy.refresh!;
    return { policy: { ...policy, refresh }, refreshed: refresh.refreshed };
  }

  /** Housekeeping: takes the running refreshes nobody holds and moves each on by a bounded number of batches. Returns the due dates moved. */
  async continueRefreshes(): Promise<number> {
    let moved = 0;
    for (const { orgId, policy } of await this.deps.policies.refreshing(this.deps.now(), 20)) {
      const from = policy.refresh;
      if (from?.state !== "running" || !policy.updated_at) continue;
      let held: PolicyRefresh = { ...from, leased_until: new Date(this.deps.now().getTime() + REFRESH_LEASE_MS) };
      if (!(await this.deps.policies.advanceRefresh(orgId, policy.updated_at, from, held))) continue; // another replica took it
      for (let i = 0; held.state === "running"; i++) {
        const last = i === REFRESH_BATCHES_PER_PASS - 1;
        const next = await this.refreshBatch(orgId, policy, held, last);
        if (!next) break; // a newer policy replaced it
        moved += next.refreshed - held.refreshed;
        held = next;
        if (last) break;
      }
    }
    return moved;
  }

  /**
   * One batch of the refresh `held` (this worker holds it); the refresh as stored after it, held
   * for the next batch or, with `release`, left for any worker. Null when it was no longer this
   * worker's to move (a newer policy).
   */
  private async refreshBatch(orgId: string, policy: FindingsPolicy, held: PolicyRefresh, release: boolean): Promise<PolicyRefresh | null> {
    if (!policy.updated_at) return null;
    const batch = this.deps.refreshBatch ?? REFRESH_BATCH;
    const ids = await this.deps.queue.activeIds(orgId, held.after, batch);
    let refreshed = 0;
    if (ids.length) {
      const before = new Map<string, Date | null>();
      // The repository (slaRepository) writes the policy's fields; an empty change asks only for them.
      const res = await this.deps.findings.change(orgId, ids, (f) => {
        before.set(f._id, f.due_date);
        return { set: {}, events: [] };
      });
      for (const [id, r] of res) if (r && !(r instanceof Error) && r.due_date?.getTime() !== before.get(id)?.getTime()) refreshed++;
    }
    const now = this.deps.now().getTime();
    const next: PolicyRefresh = {
      state: ids.length < batch ? "done" : "running",
      after: ids.at(-1) ?? held.after,
      refreshed: held.refreshed + refreshed,
      leased_until: new Date(release ? 0 : now + REFRESH_LEASE_MS),
    };
    return (await this.deps.policies.advanceRefresh(orgId, policy.updated_at, held, next)) ? next : null;
  }
}
