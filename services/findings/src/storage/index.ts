import { SlotCounter, Topics, type KafkaBus, type Logger } from "@vulnscan/kit";
import type { Db } from "mongodb";
import { MongoAnalysisCache } from "./ai-cache.js";
import { FindingReads } from "./finding-reads.js";
import { FindingStore } from "./finding-store.js";
import { AI_CREDITS } from "./indexes.js";
import { ProcessedDetections } from "./processed-detections.js";

export { findingFields, findingIndexes } from "./indexes.js";

/** Every repository of the findings database; `store` also runs the relay and the rollups' housekeeping. */
export function mongoRepositories(db: Db, kafka: Pick<KafkaBus, "publishRaw" | "publishRawMany">, logger: Logger, eventsTopic: string = Topics.findingEvents) {
  const store = new FindingStore(db, kafka, logger, eventsTopic);
  return {
    store,
    findings: store,
    lists: new FindingReads(store.findings),
    counts: store.rollups,
    processed: new ProcessedDetections(db),
    analyses: new MongoAnalysisCache(db),
    credits: new SlotCounter(db, AI_CREDITS),
  };
}

export type MongoRepositories = ReturnType<typeof mongoRepositories>;
