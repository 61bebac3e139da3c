import { Topics, type KafkaBus, type Logger } from "@vulnscan/kit";
import type { Db } from "mongodb";
import { MongoAiCredits, MongoAnalysisCache } from "./ai.js";
import { CachedFindingLists, listVersions } from "./cached-lists.js";
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
  /** LIST_CACHE_MS: list pages kept in memory while nothing changed; 0 reads every page from the database. */
  listCacheMs = 5000,
) {
  const versions = listVersions(db);
  const store = new FindingStore(db, kafka, logger, eventsTopic, versions);
  const reads = new FindingReads(store.findings, {}, now);
  return {
    store,
    findings: store,
    lists: listCacheMs > 0 ? new CachedFindingLists(reads, versions, listCacheMs) : reads,
    counts: store.rollups,
    analyses: new MongoAnalysisCache(db),
    credits: new MongoAiCredits(db),
    policies: new MongoPolicyStore(db),
    slaQueue: new MongoSlaQueue(db),
  };
}
