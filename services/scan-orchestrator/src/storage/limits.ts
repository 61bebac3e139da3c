import { allowScan, type FieldTypes, type ScanAllowance, upsertOrUpdate } from "@vulnscan/kit";
import type { Collection, Db, Filter, UpdateFilter } from "mongodb";
import type { ScanLimits } from "../domain/ports.js";

/**
 * `<org_id>`: the scans holding a place, and how many (the guard compares the count). The document
 * exists only while a place is held: it is deleted when its count returns to 0.
 */
interface PlacesDoc {
  _id: string;
  holders: string[];
  count: number;
}

/** `<org_id>:<YYYY-MM>`: scans counted in the month. */
interface MonthDoc {
  _id: string;
  count: number;
}

/** The repair pass reads the whole collection: it holds only the organizations with places held. */
export const placesScanAllowances = (collection: string): ScanAllowance[] => [
  allowScan(
    collection,
    {},
    "the watchdog's repair pass reads every place held: the collection holds only organizations with a scan holding a place (a document is deleted when its count returns to 0)",
  ),
];

export const placesFields = (collection: string): FieldTypes => ({ [collection]: { _id: "string", holders: "string[]", count: "number" } });

/** A guarded update of a document keyed by a deterministic `_id`, created by the first caller: true when the guard held. */
async function guardedUpsert<T extends { _id: string }>(coll: Collection<T>, filter: Filter<T>, update: UpdateFilter<T>): Promise<boolean> {
  const r = await upsertOrUpdate((upsert) => coll.updateOne(filter, update, { upsert }));
  return r.modifiedCount + r.upsertedCount === 1;
}

/**
 * The plan limits on MongoDB, each one document updated atomically: an organization's places
 * (`holders` and their `count`, guarded by `count < limit`) and its monthly counts (`count < limit`).
 */
export class MongoScanLimits implements ScanLimits {
  private readonly places: Collection<PlacesDoc>;
  private readonly months: Collection<MonthDoc>;

  constructor(db: Db, collections: { places: string; months: string }) {
    this.places = db.collection<PlacesDoc>(collections.places);
    this.months = db.collection<MonthDoc>(collections.months);
  }

  async holdPlace(orgId: string, scanId: string, limit: number): Promise<boolean> {
    if (limit <= 0) return false;
    return guardedUpsert(this.places, { _id: orgId, count: { $lt: limit }, holders: { $ne: scanId } }, { $push: { holders: scanId }, $inc: { count: 1 } });
  }

  async freePlace(orgId: string, scanId: string): Promise<void> {
    // Guarded by membership, so freeing twice (a repair racing the end) counts once.
    await this.places.updateOne({ _id: orgId, holders: scanId }, { $pull: { holders: scanId }, $inc: { count: -1 } });
    // A hold racing this either came first (the count is not 0) or upserts a new document after it.
    await this.places.deleteOne({ _id: orgId, count: 0 });
  }

  async placesHeld(): Promise<{ orgId: string; scanId: string }[]> {
    const docs = await this.places.find({}).toArray();
    return docs.flatMap((d) => d.holders.map((scanId) => ({ orgId: d._id, scanId })));
  }

  async countScan(orgId: string, month: string, limit: number): Promise<boolean> {
    if (limit <= 0) return false;
    return guardedUpsert(this.months, { _id: `${orgId}:${month}`, count: { $lt: limit } }, { $inc: { count: 1 } });
  }

  async scansCounted(orgId: string, month: string): Promise<number> {
    return (await this.months.findOne({ _id: `${orgId}:${month}` }))?.count ?? 0;
  }
}
