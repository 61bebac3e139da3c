import type { Collection } from "mongodb";
import { withDuration } from "../domain/estimate.js";
import type { ScanDurations } from "../domain/ports.js";

/** `<org_id>|<scan_type>`: the latest measured durations of the organization's completed scans of that type. */
export interface DurationsDoc {
  _id: string;
  org_id: string;
  scan_type: string;
  recent: number[];
  updated_at: Date;
}

/**
 * The estimate's running summary (domain/estimate.ts): one small document per organization and
 * scan type, read by _id when a scan is created and rewritten when one completes. Two completions
 * at the same instant may keep only one of their samples (the later write wins); for an estimate
 * that costs nothing, and it keeps the write a plain upsert by _id on every server.
 */
export class MongoScanDurations implements ScanDurations {
  constructor(private readonly coll: Collection<DurationsDoc>) {}

  async record(orgId: string, scanType: string, seconds: number): Promise<void> {
    const _id = `${orgId}|${scanType}`;
    const recent = withDuration((await this.coll.findOne({ _id }))?.recent ?? [], seconds);
    await this.coll.updateOne({ _id }, { $set: { org_id: orgId, scan_type: scanType, recent, updated_at: new Date() } }, { upsert: true });
  }

  async recent(orgId: string, scanType: string): Promise<number[]> {
    return (await this.coll.findOne({ _id: `${orgId}|${scanType}` }))?.recent ?? [];
  }
}
