import { upsertOrUpdate } from "@vulnscan/kit";
import type { Collection, Db, Document } from "mongodb";
import { MAX_PORTS, type InventoryStore, type LastScan, type PortsSeen, type SeenPortRecord } from "../domain/inventory.js";
import type { TargetRecord } from "../domain/targets-types.js";
import { clean } from "./documents.js";
import { InventoryCollections, TargetCollections } from "./targets.js";

/* Target inventories (issue 29): the collections and their indexes are declared with the targets' (storage/targets.ts). */

interface ScanDoc {
  _id: string;
  org_id: string;
  last_scan: LastScan;
}

export class MongoInventoryStore implements InventoryStore {
  private readonly targets: Collection<Document & { _id: string }>;
  private readonly scans: Collection<ScanDoc>;
  private readonly portsOf: Collection<SeenPortRecord>;

  constructor(db: Db) {
    this.targets = db.collection(TargetCollections.targets);
    this.scans = db.collection<ScanDoc>(InventoryCollections.scans);
    this.portsOf = db.collection<SeenPortRecord>(InventoryCollections.ports);
  }

  async targetsOf(orgId: string): Promise<TargetRecord[]> {
    const docs = await this.targets
      .find({ org_id: orgId }, { projection: { outbox: 0, outbox_pending: 0 } })
      .limit(1000)
      .toArray();
    return docs.map((d) => clean<TargetRecord>(d)!);
  }

  async recordScanEnd(orgId: string, targetIds: string[], scan: LastScan): Promise<void> {
    await Promise.all(
      targetIds.map((id) =>
        // A later scan already there: the filter misses, the upsert's insert meets the existing id, and the plain update changes nothing.
        upsertOrUpdate((upsert) =>
          this.scans.updateOne({ _id: id, org_id: orgId, "last_scan.ended_at": { $lt: scan.ended_at } }, { $set: { last_scan: scan } }, { upsert }),
        ),
      ),
    );
  }

  async recordPorts(targetId: string, seen: PortsSeen): Promise<void> {
    for (const s of seen.services) {
      const _id = `${targetId}|${seen.address}|${s.port}`;
      const sighting = {
        $min: { first_seen_at: seen.seen_at },
        $max: { last_seen_at: seen.seen_at },
        $setOnInsert: { org_id: seen.org_id, target_id: targetId, address: seen.address, port: s.port },
      };
      await upsertOrUpdate((upsert) => this.portsOf.updateOne({ _id }, sighting, { upsert }));
      // What the port runs is the latest sighting's: a late, older one does not overwrite it.
      await this.portsOf.updateOne(
        { _id, last_seen_at: seen.seen_at },
        { $set: { host: seen.host, transport: s.transport, service: s.service, product: s.product, last_scan_id: seen.scan_id } },
      );
    }
  }

  async lastScan(orgId: string, targetId: string): Promise<LastScan | undefined> {
    return (await this.scans.findOne({ _id: targetId, org_id: orgId }))?.last_scan;
  }

  async ports(orgId: string, targetId: string): Promise<SeenPortRecord[]> {
    const docs = await this.portsOf.find({ org_id: orgId, target_id: targetId }).sort({ address: 1, port: 1 }).limit(MAX_PORTS).toArray();
    return docs.map((d) => clean<SeenPortRecord>(d)!);
  }

  async forget(orgId: string, targetId: string): Promise<void> {
    await Promise.all([this.scans.deleteOne({ _id: targetId, org_id: orgId }), this.portsOf.deleteMany({ org_id: orgId, target_id: targetId })]);
  }
}
