import type { Collection, Db } from "mongodb";
import { NEVER, type FindingsPolicy } from "../domain/sla.js";
import type { PolicyStore, SlaQueue } from "../domain/sla-upkeep.js";
import type { StoredFinding } from "./finding-store.js";
import { FINDINGS, POLICIES } from "./indexes.js";

type PolicyDoc = FindingsPolicy & { _id: string };

/** Each organization's findings policy: one document keyed by the organization id. */
export class MongoPolicyStore implements PolicyStore {
  private readonly coll: Collection<PolicyDoc>;
  constructor(db: Db) {
    this.coll = db.collection<PolicyDoc>(POLICIES);
  }

  async get(orgId: string): Promise<FindingsPolicy | null> {
    const d = await this.coll.findOne({ _id: orgId });
    if (!d) return null;
    const { _id, ...p } = d;
    return p;
  }

  async put(orgId: string, p: FindingsPolicy): Promise<void> {
    await this.coll.replaceOne({ _id: orgId }, p, { upsert: true });
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
    const [breached, at_risk] = await Promise.all([
      this.findings.countDocuments({ ...base, sla_breach_at: { $lte: now } }),
      this.findings.countDocuments({ ...base, sla_at_risk_at: { $lte: now }, sla_breach_at: { $gt: now, $lt: NEVER } }),
    ]);
    return { breached, at_risk };
  }
}
