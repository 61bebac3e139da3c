import { isDuplicateKey } from "@vulnscan/kit";
import type { Collection, Db } from "mongodb";
import type { AiAnalysis } from "../ai/provider.js";
import type { AnalysisCache, CachedAnalysis } from "../domain/ports.js";
import { AI_ANALYSES } from "./indexes.js";

export interface AiCacheDoc {
  _id: string;
  org_id: string;
  input_hash: string;
  analysis: AiAnalysis;
  created_at: Date;
}

/** The last analysis per finding (`_id` = finding id: a point read, then the org checked). */
export class MongoAnalysisCache implements AnalysisCache {
  private readonly coll: Collection<AiCacheDoc>;

  constructor(db: Db) {
    this.coll = db.collection<AiCacheDoc>(AI_ANALYSES);
  }

  async get(orgId: string, findingId: string): Promise<CachedAnalysis | null> {
    const d = await this.coll.findOne({ _id: findingId });
    return d && d.org_id === orgId ? { input_hash: d.input_hash, analysis: d.analysis } : null;
  }

  async put(orgId: string, findingId: string, entry: CachedAnalysis, at: Date): Promise<void> {
    try {
      await this.coll.replaceOne(
        { _id: findingId },
        { org_id: orgId, input_hash: entry.input_hash, analysis: entry.analysis, created_at: at },
        { upsert: true },
      );
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // a concurrent first analysis stored it
    }
  }
}
