import type { AnyBulkWriteOperation, Db } from "mongodb";
import { searchFields } from "../domain/search.js";
import type { StoredFinding } from "./finding-store.js";
import { listVersions } from "./cached-lists.js";
import { FINDINGS } from "./indexes.js";

const BATCH = 500;

/**
 * Fills the `search` filter's fields (domain/search.ts) on one organization's findings: findings
 * stored before search existed have none until their next detection (operator CLI: `npm run
 * admin -- index-search --org ORG_ID`, once after upgrading). Each write is conditional on the
 * revision read, so a finding changed meanwhile keeps what its own change wrote.
 */
export async function indexSearch(db: Db, org: string): Promise<{ findings: number; updated: number }> {
  const coll = db.collection<StoredFinding>(FINDINGS);
  const projection = { title: 1, affected_component: 1, cve_ids: 1, template_id: 1, search_text: 1, search_keys: 1, rev: 1 };
  const rows = await coll.find({ org_id: org }, { projection }).toArray();
  let updated = 0;
  for (let at = 0; at < rows.length; at += BATCH) {
    const ops: AnyBulkWriteOperation<StoredFinding>[] = [];
    for (const r of rows.slice(at, at + BATCH)) {
      const fields = searchFields({
        title: r.title ?? "",
        affected_component: r.affected_component ?? "",
        cve_ids: r.cve_ids ?? [],
        template_id: r.template_id ?? "",
      });
      if (r.search_text === fields.search_text && r.search_keys?.length === fields.search_keys.length) continue;
      ops.push({ updateOne: { filter: { _id: r._id, rev: r.rev ?? { $exists: false } } as never, update: { $set: fields } } });
    }
    if (ops.length > 0) updated += (await coll.bulkWrite(ops, { ordered: false })).modifiedCount;
  }
  if (updated > 0) await listVersions(db).bump([org]); // search lists kept in memory read again
  return { findings: rows.length, updated };
}
