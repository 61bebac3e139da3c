import { Topics, type KafkaBus, type Logger } from "@vulnscan/kit";
import type { Db } from "mongodb";
import { MongoAiCredits, MongoAnalysisCache } from "./ai.js";
import { CachedCounts, CachedFindingLists, CachedFindings, listVersions } from "./cached-lists.js";
import { FindingReads } from "./finding-reads.js";
import { FindingStore } from "./finding-store.js";
import { MongoPolicyStore, MongoSlaQueue } from "./sla-store.js";

export { FINDINGS, findingFields, findingIndexes } from "./indexes.js";

/** Every repository of the findings database; `counts.recover` and `credits.prune` are the housekeeping. */
export function mongoRepositories(
  db: Db,
  kafka: Pick<KafkaBus, "publishRawMany">,
  logger: Logger,
  eventsTopic: string = Topics.findingEvents,
  now: () => Date = () => new Date(),
  /** LIST_CACHE_MS: details, list pages and totals kept in memory while nothing changed; 0 reads every one from the database. */
  listCacheMs = 5000,
) {
  const versions = listVersions(db);
  const store = new FindingStore(db, kafka, logger, eventsTopic, versions);
  const reads = new FindingReads(store.findings, {}, now);
  const cached = listCacheMs > 0;
  return {
    store,
    // Details, pages and totals kept by the organization's version (cached-lists.ts); writes always read the stored finding.
    findings: cached ? new CachedFindings(store, versions, listCacheMs) : store,
    lists: cached ? new CachedFindingLists(reads, versions, listCacheMs) : reads,
    counts: cached ? new CachedCounts(store.rollups, versions, listCacheMs) : store.rollups,
    analyses: new MongoAnalysisCache(db),
    credits: new MongoAiCredits(db),
    policies: new MongoPolicyStore(db),
    slaQueue: new MongoSlaQueue(db),
  };
}
