import { pageOf } from "@vulnscan/kit/mongo";
import type { Collection, Db } from "mongodb";
import type { Page, WebhookRepo } from "../domain/ports.js";
import type { Webhook } from "../domain/types.js";
import { Collections } from "./collections.js";

interface WebhookDoc {
  _id: string;
  org_id: string;
  name: string;
  url: string;
  events: string[];
  secret?: string;
  active: boolean;
  created_at: Date;
  updated_at: Date;
  disabled_reason?: string;
  failing_since?: Date;
}

/** Renames the keys that differ; the rest (name, url, events, secret, active) is stored as it is. */
const toDoc = ({ id, orgId, createdAt, updatedAt, disabledReason, failingSince, ...same }: Webhook): WebhookDoc => ({
  _id: id,
  org_id: orgId,
  created_at: createdAt,
  updated_at: updatedAt,
  ...same,
  ...(disabledReason ? { disabled_reason: disabledReason } : {}),
  ...(failingSince ? { failing_since: failingSince } : {}),
});

function fromDoc(doc: WebhookDoc): Webhook {
  const { _id, org_id, created_at, updated_at, disabled_reason, failing_since, ...same } = doc;
  const w: Webhook = { id: _id, orgId: org_id, createdAt: created_at, updatedAt: updated_at, ...same };
  if (disabled_reason) w.disabledReason = disabled_reason;
  if (failing_since) w.failingSince = failing_since;
  return w;
}

export class MongoWebhooks implements WebhookRepo {
  private readonly coll: Collection<WebhookDoc>;

  constructor(db: Db) {
    this.coll = db.collection<WebhookDoc>(Collections.webhooks);
  }

  async insert(w: Webhook): Promise<void> {
    await this.coll.insertOne(toDoc(w));
  }

  async get(orgId: string, id: string): Promise<Webhook | undefined> {
    const d = await this.coll.findOne({ _id: id, org_id: orgId });
    return d ? fromDoc(d) : undefined;
  }

  async list(orgId: string, skip: number, limit: number): Promise<Page<Webhook>> {
    const { items, total } = await pageOf(this.coll, { org_id: orgId }, { _id: 1 }, skip, limit);
    return { items: items.map(fromDoc), total };
  }

  async update(w: Webhook, restart: boolean): Promise<void> {
    // The user's fields only: the dispatcher's (failure clock, disable reason) change beside them.
    const set = { name: w.name, url: w.url, events: w.events, active: w.active, updated_at: w.updatedAt, ...(w.secret ? { secret: w.secret } : {}) };
    const unset: Record<string, ""> = {};
    if (!w.secret) unset.secret = "";
    if (restart) unset.disabled_reason = unset.failing_since = "";
    await this.coll.updateOne({ _id: w.id, org_id: w.orgId }, { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}) });
  }

  async remove(orgId: string, id: string): Promise<boolean> {
    return (await this.coll.deleteOne({ _id: id, org_id: orgId })).deletedCount > 0;
  }

  async subscribed(orgId: string, event: string): Promise<Webhook[]> {
    return (await this.coll.find({ org_id: orgId, events: event, active: true }).toArray()).map(fromDoc);
  }

  async markFailing(orgId: string, id: string, at: Date): Promise<void> {
    // Only the first failure since a success sets it; a lost race sets a time just as close.
    await this.coll.updateOne({ _id: id, org_id: orgId, failing_since: { $exists: false } }, { $set: { failing_since: at } });
  }

  async clearFailing(orgId: string, id: string): Promise<void> {
    await this.coll.updateOne({ _id: id, org_id: orgId }, { $unset: { failing_since: "" } });
  }

  async disable(orgId: string, id: string, reason: string, at: Date): Promise<boolean> {
    const r = await this.coll.updateOne({ _id: id, org_id: orgId, active: true }, { $set: { active: false, disabled_reason: reason, updated_at: at } });
    return r.modifiedCount === 1;
  }
}
