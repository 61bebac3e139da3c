import type { Logger } from "@vulnscan/kit";
import type { AiProvider } from "../ai/provider.js";
import { Analysis } from "./analysis.js";
import { Exports } from "./exports.js";
import { Ingestion } from "./ingestion.js";
import { Listing } from "./listing.js";
import type { AnalysisCache, Clock, CreditCounter, FindingCounts, FindingLists, FindingRepository, PlanPort, ProcessedDetectionLog } from "./ports.js";
import { Triage } from "./triage.js";

export interface FindingsDeps {
  findings: FindingRepository;
  lists: FindingLists;
  counts: FindingCounts;
  processed: ProcessedDetectionLog;
  analyses: AnalysisCache;
  credits: CreditCounter;
  plans: PlanPort;
  ai: AiProvider;
  logger: Logger;
  now: Clock;
}

/** The use cases of findings, wired to their ports (transport-free: tests drive them without a network). */
export function createFindingsDomain(d: FindingsDeps) {
  const triage = new Triage(d);
  return {
    ingestion: new Ingestion(d),
    triage,
    listing: new Listing(d),
    exports: new Exports(d),
    analysis: new Analysis({ ...d, triage, cache: d.analyses }),
  };
}

export type FindingsDomain = ReturnType<typeof createFindingsDomain>;
