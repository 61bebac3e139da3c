import type { Collection, Db } from "mongodb";
import { upsertOrUpdate } from "@vulnscan/kit";
import type { WebhookCount } from "../domain/ports.js";
import { Collections } from "./collections.js";

interface CountDoc {
  /** The organization. */
  _id: string;
  n: number;
  /** What `n` counts, so a release only undoes its own reservation. */
  webhook_ids: string[];
}

/** The plan's webhook count: one document per organization, counted in under the limit by a conditional `$inc`. */
export class MongoWebhookCount implements WebhookCount {
  private readonly coll: Collection<CountDoc>;

  constructor(db: Db) {
    this.coll = db.collection<CountDoc>(Collections.webhookCounts);
  }

  async reserve(orgId: string, limit: number, webhookId: string): Promise<boolean> {
    if (limit <= 0) return false;
    // The guard `n < limit` keeps the count within the plan: a full count makes the upsert collide, and the update then matches nothing.
    const r = await upsertOrUpdate((upsert) =>
      this.coll.updateOne({ _id: orgId, n: { $lt: limit } }, { $inc: { n: 1 }, $push: { webhook_ids: webhookId } }, { upsert }),
    );
    return r.modifiedCount + r.upsertedCount === 1;
  }

  async release(orgId: string, webhookId: string): Promise<void> {
    await this.coll.updateOne({ _id: orgId, webhook_ids: webhookId }, { $inc: { n: -1 }, $pull: { webhook_ids: webhookId } });
  }
}
