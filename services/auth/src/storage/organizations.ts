import { withOutbox, type Outbox, type PendingEvent } from "@vulnscan/kit";
import type { Collection, Db } from "mongodb";
import type { OrganizationRepository } from "../domain/ports.js";
import type { AuthEvent, CustomLimits, Limit, Organization, PlanTier } from "../domain/types.js";
import { toPendingEvent } from "../events/auth-events.js";
import { Collections } from "./collections.js";

interface StoredLimit {
  unlimited: boolean;
  max: number;
}

/** Only the fields the operator overrode are stored; the tier supplies the rest when read. */
interface StoredCustomLimits {
  requests_per_hour?: StoredLimit;
  requests_per_day?: StoredLimit;
  concurrent_scans?: StoredLimit;
  scans_per_month?: StoredLimit;
  webhooks?: StoredLimit;
  webhook_events_per_hour?: StoredLimit;
  ai_credits_per_month?: StoredLimit;
  min_cidr_prefix_length?: number;
}

export interface OrganizationDoc {
  _id: string;
  name: string;
  tier: PlanTier;
  custom_limits: StoredCustomLimits | null;
  created_at: Date;
  outbox?: PendingEvent[];
  outbox_pending?: boolean;
}

const NO_OUTBOX = { projection: { outbox: 0 } } as const;

const LIMIT_FIELDS = [
  ["requestsPerHour", "requests_per_hour"],
  ["requestsPerDay", "requests_per_day"],
  ["concurrentScans", "concurrent_scans"],
  ["scansPerMonth", "scans_per_month"],
  ["webhooks", "webhooks"],
  ["webhookEventsPerHour", "webhook_events_per_hour"],
  ["aiCreditsPerMonth", "ai_credits_per_month"],
] as const;

function limitsToDoc(c: CustomLimits | undefined): StoredCustomLimits | null {
  if (!c) return null;
  const out: StoredCustomLimits = {};
  for (const [k, f] of LIMIT_FIELDS) {
    const l = c[k];
    if (l) out[f] = { unlimited: l.unlimited, max: l.max };
  }
  if (c.minCidrPrefixLength !== undefined) out.min_cidr_prefix_length = c.minCidrPrefixLength;
  return out;
}

function limitsFromDoc(d: StoredCustomLimits | null | undefined): CustomLimits | undefined {
  if (!d) return undefined;
  const out: CustomLimits = {};
  for (const [k, f] of LIMIT_FIELDS) {
    const l = d[f];
    if (l) out[k] = { unlimited: l.unlimited, max: l.max } satisfies Limit;
  }
  if (typeof d.min_cidr_prefix_length === "number") out.minCidrPrefixLength = d.min_cidr_prefix_length;
  return out;
}

export const orgFromDoc = (d: OrganizationDoc): Organization => {
  const customLimits = limitsFromDoc(d.custom_limits);
  return { id: d._id, name: d.name, tier: d.tier, createdAt: d.created_at, ...(customLimits ? { customLimits } : {}) };
};

export class MongoOrganizationRepository implements OrganizationRepository {
  private readonly coll: Collection<OrganizationDoc>;
  constructor(
    db: Db,
    private readonly outbox?: Outbox,
  ) {
    this.coll = db.collection<OrganizationDoc>(Collections.organizations);
  }

  async insert(org: Organization): Promise<void> {
    await this.coll.insertOne({
      _id: org.id,
      name: org.name,
      tier: org.tier,
      custom_limits: limitsToDoc(org.customLimits),
      created_at: org.createdAt,
    });
  }

  async get(orgId: string): Promise<Organization | null> {
    const d = await this.coll.findOne({ _id: orgId }, NO_OUTBOX);
    return d ? orgFromDoc(d) : null;
  }

  async findByName(name: string): Promise<Organization[]> {
    return (await this.coll.find({ name }, NO_OUTBOX).sort({ _id: 1 }).toArray()).map(orgFromDoc);
  }

  async setPlan(orgId: string, tier: PlanTier, customLimits: CustomLimits | undefined, event: AuthEvent): Promise<Organization | null> {
    const r = await this.coll.updateOne({ _id: orgId }, withOutbox({ $set: { tier, custom_limits: limitsToDoc(customLimits) } }, [toPendingEvent(event)]));
    if (r.matchedCount !== 1) return null;
    await this.outbox?.flushSoon(Collections.organizations, orgId);
    return this.get(orgId);
  }

  async list(page: number, perPage: number): Promise<{ items: Organization[]; total: number }> {
    // Ids start with their creation time, so _id order is "oldest first".
    const [items, total] = await Promise.all([
      this.coll
        .find({}, NO_OUTBOX)
        .sort({ _id: 1 })
        .skip((page - 1) * perPage)
        .limit(perPage)
        .toArray(),
      this.coll.countDocuments({}),
    ]);
    return { items: items.map(orgFromDoc), total };
  }
}
