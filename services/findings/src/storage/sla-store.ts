import type { Collection, Db } from "mongodb";
import type { FindingsPolicy, PolicyRefresh } from "../domain/sla.js";
import type { PolicyStore, SlaQueue } from "../domain/sla-upkeep.js";
import type { StoredFinding } from "./finding-store.js";
import { FINDINGS, POLICIES } from "./indexes.js";
import { countSla } from "./list-query.js";

/**
 * The refresh is stored as top-level fields: the fallback database answers a range on a
 * top-level declared field from an index, not one on a nested field.
 */
type PolicyDoc = Omit<FindingsPolicy, "refresh"> & {
  _id: string;
  refresh_state?: PolicyRefresh["state"];
  refresh_after?: string;
  refreshed?: number;
  refresh_leased_until?: Date;
};

function toDoc(orgId: string, { refresh, ...p }: FindingsPolicy): PolicyDoc {
  return {
    _id: orgId,
    ...p,
    ...(refresh
      ? { refresh_state: refresh.state, refresh_after: refresh.after, refreshed: refresh.refreshed, refresh_leased_until: refresh.leased_until }
      : {}),
  };
}

function fromDoc({ _id, refresh_state, refresh_after, refreshed, refresh_leased_until, ...p }: PolicyDoc): FindingsPolicy {
  return {
    ...p,
    ...(refresh_state
      ? { refresh: { state: refresh_state, after: refresh_after ?? "", refreshed: refreshed ?? 0, leased_until: refresh_leased_until ?? new Date(0) } }
      : {}),
  };
}

const refreshFields = (r: PolicyRefresh) => ({ refresh_state: r.state, refresh_after: r.after, refreshed: r.refreshed, refresh_leased_until: r.leased_until });

/** Each organization's findings policy: one document keyed by the organization id. */
export class MongoPolicyStore implements PolicyStore {
  private readonly coll: Collection<PolicyDoc>;
  constructor(db: Db) {
    this.coll = db.collection<PolicyDoc>(POLICIES);
  }

  async get(orgId: string): Promise<FindingsPolicy | null> {
    const d = await this.coll.findOne({ _id: orgId });
    return d ? fromDoc(d) : null;
  }

  async put(orgId: string, p: FindingsPolicy): Promise<void> {
    await this.coll.replaceOne({ _id: orgId }, toDoc(orgId, p), { upsert: true });
  }

  async refreshing(now: Date, limit: number): Promise<{ orgId: string; policy: FindingsPolicy }[]> {
    const docs = await this.coll.find({ refresh_state: "running", refresh_leased_until: { $lte: now } }, { limit }).toArray();
    return docs.map((d) => ({ orgId: d._id, policy: fromDoc(d) }));
  }

  async advanceRefresh(orgId: string, savedAt: Date, from: Pick<PolicyRefresh, "after" | "leased_until">, to: PolicyRefresh): Promise<boolean> {
    const res = await this.coll.updateOne(
      { _id: orgId, updated_at: savedAt, refresh_state: "running", refresh_after: from.after, refresh_leased_until: from.leased_until },
      { $set: refreshFields(to) },
    );
    return res.modifiedCount === 1;
  }
}

/** The SLA and acceptance upkeep's reads: each one a range on its own index (storage/indexes.ts). */
export class MongoSlaQueue implements SlaQueue {
  private readonly findings: Collection<StoredFinding>;
  constructor(db: Db) {
    this.findings = db.collection<StoredFinding>(FINDINGS);
  }

  async activeIds(orgId: string, afterId: string, limit: number): Promise<string[]> {
    const rows = await this.findings
      .find(
        { org_id: orgId, status: { $in: ["open", "in_progress"] }, ...(afterId ? { _id: { $lt: afterId } } : {}) },
        { projection: { _id: 1 }, sort: { _id: -1 }, limit },
      )
      .toArray();
    return rows.map((r) => r._id);
  }

  dueBreaches(now: Date, limit: number) {
    return this.findings
      .find({ sla_breach_pending_at: { $lte: now } }, { projection: { _id: 1, org_id: 1 }, sort: { sla_breach_pending_at: 1 }, limit })
      .toArray();
  }

  dueExpiries(now: Date, limit: number) {
    return this.findings.find({ accepted_until: { $lte: now } }, { projection: { _id: 1, org_id: 1 }, sort: { accepted_until: 1 }, limit }).toArray();
  }

  async slaCounts(orgId: string, opts: { from?: Date; to?: Date; target?: string }, now: Date) {
    const base = {
      org_id: orgId,
      ...(opts.target ? { target: opts.target } : {}),
      ...(opts.from || opts.to ? { detected_at: { ...(opts.from ? { $gte: opts.from } : {}), ...(opts.to ? { $lt: opts.to } : {}) } } : {}),
    };
    const { breached, atRisk } = await countSla((q) => this.findings.countDocuments(q), base, now);
    return { breached, at_risk: atRisk };
  }
}
