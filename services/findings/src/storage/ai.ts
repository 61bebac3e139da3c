import { isDuplicateKey, upsertOrUpdate } from "@vulnscan/kit";
import type { Collection, Db } from "mongodb";
import type { AiAnalysis } from "../ai/provider.js";
import type { AiCredits, AnalysisCache, CachedAnalysis } from "../domain/ports.js";
import { AI_ANALYSES, AI_CREDITS } from "./indexes.js";

/** The last analysis per finding (`_id` = finding id). */
export class MongoAnalysisCache implements AnalysisCache {
  private readonly coll: Collection<{ _id: string; org_id: string; input_hash: string; analysis: AiAnalysis; created_at: Date }>;

  constructor(db: Db) {
    this.coll = db.collection(AI_ANALYSES);
  }

  async get(orgId: string, findingId: string): Promise<CachedAnalysis | null> {
    const d = await this.coll.findOne({ _id: findingId, org_id: orgId });
    return d && { input_hash: d.input_hash, analysis: d.analysis };
  }

  async put(orgId: string, findingId: string, entry: CachedAnalysis, at: Date): Promise<void> {
    const doc = { org_id: orgId, input_hash: entry.input_hash, analysis: entry.analysis, created_at: at };
    await this.coll.replaceOne({ _id: findingId }, doc, { upsert: true }).catch((err: unknown) => {
      if (!isDuplicateKey(err)) throw err; // a concurrent first analysis stored it
    });
  }
}

/**
 * AI credits: one counter per organization and month, `<org>:ai:<YYYY-MM>`, taken by a
 * conditional `$inc` (only while below the plan's limit), so concurrent takes never exceed it.
 */
export class MongoAiCredits implements AiCredits {
  private readonly coll: Collection<{ _id: string; n: number; expires_at: Date }>;

  constructor(db: Db) {
    this.coll = db.collection(AI_CREDITS);
  }

  async used(orgId: string, month: string): Promise<number> {
    return (await this.coll.findOne({ _id: `${orgId}:ai:${month}` }))?.n ?? 0;
  }

  async take(orgId: string, month: string, max: number): Promise<number | undefined> {
    if (max <= 0) return undefined;
    const [year, mon] = month.split("-").map(Number) as [number, number];
    // Kept until the month after it ends: GetAiAnalysis still reports the month's use at its end.
    const expires_at = new Date(Date.UTC(year, mon + 1, 1));
    const filter = { _id: `${orgId}:ai:${month}`, n: { $lt: max } };
    // Every credit taken: the counter exists but is not below max, so the upsert collides and the update matches nothing.
    const doc = await upsertOrUpdate((upsert) =>
      this.coll.findOneAndUpdate(filter, { $inc: { n: 1 }, $setOnInsert: { expires_at } }, { upsert, returnDocument: "after" }),
    );
    return doc?.n;
  }

  async prune(now = new Date()): Promise<number> {
    return (await this.coll.deleteMany({ expires_at: { $lt: now } })).deletedCount;
  }
}
