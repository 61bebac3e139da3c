import { pageOf, withOutbox, type Outbox } from "@vulnscan/kit";
import type { Db } from "mongodb";
import type { OrganizationRepository } from "../domain/ports.js";
import type { AuthEvent, CustomLimits, Limit, Organization, PlanTier } from "../domain/types.js";
import { toPendingEvent } from "../events/auth-events.js";
import { Collections } from "./collections.js";
import { NO_OUTBOX, OutboxRepository, type OutboxFields } from "./repository.js";

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

export interface OrganizationDoc extends OutboxFields {
  _id: string;
  name: string;
  tier: PlanTier;
  custom_limits: StoredCustomLimits | null;
  created_at: Date;
}

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

const orgToDoc = (org: Organization): OrganizationDoc => ({
  _id: org.id,
  name: org.name,
  tier: org.tier,
  custom_limits: limitsToDoc(org.customLimits),
  created_at: org.createdAt,
});

export class MongoOrganizationRepository extends OutboxRepository<Organization, OrganizationDoc> implements OrganizationRepository {
  constructor(db: Db, outbox?: Outbox) {
    super(db, Collections.organizations, { toDoc: orgToDoc, fromDoc: orgFromDoc }, outbox);
  }

  async get(orgId: string): Promise<Organization | null> {
    return this.one({ _id: orgId });
  }

  async findByName(name: string): Promise<Organization[]> {
    return this.many({ name }, { _id: 1 });
  }

  async setPlan(orgId: string, tier: PlanTier, customLimits: CustomLimits | undefined, event: AuthEvent): Promise<Organization | null> {
    // The organization as this write left it, not as a later one may have.
    const d = await this.coll.findOneAndUpdate(
      { _id: orgId },
      withOutbox({ $set: { tier, custom_limits: limitsToDoc(customLimits) } }, [toPendingEvent(event)]),
      { returnDocument: "after" },
    );
    if (!d) return null;
    await this.flush(orgId);
    return orgFromDoc(d);
  }

  async list(page: number, perPage: number): Promise<{ items: Organization[]; total: number }> {
    // Ids start with their creation time, so _id order is "oldest first".
    const { items, total } = await pageOf(this.coll, {}, { _id: 1 }, (page - 1) * perPage, perPage, NO_OUTBOX.projection);
    return { items: items.map(orgFromDoc), total };
  }
}
