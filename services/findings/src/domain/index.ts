import type { Logger } from "@vulnscan/kit/core";
import type { AiProvider } from "../ai/provider.js";
import { Analysis } from "./analysis.js";
import { Exports } from "./exports.js";
import { Ingestion } from "./ingestion.js";
import { Listing } from "./listing.js";
import type { AiCredits, AnalysisCache, Clock, ExportWriters, FindingCounts, FindingLists, FindingRepository, PlanPort } from "./ports.js";
import { Retests, type RetestBudget, type RetestPlans, type RetestStore } from "./retest.js";
import { Policies, SlaUpkeep, slaRepository, type PolicyStore, type SlaQueue } from "./sla-upkeep.js";
import { Triage } from "./triage.js";

export interface FindingsDeps {
  findings: FindingRepository;
  lists: FindingLists;
  counts: FindingCounts;
  analyses: AnalysisCache;
  credits: AiCredits;
  plans: PlanPort;
  ai: AiProvider;
  writers: ExportWriters;
  logger: Logger;
  now: Clock;
  /** SLA policy and upkeep (domain/sla.ts, domain/acceptance.ts). */
  policies: PolicyStore;
  slaQueue: SlaQueue;
  /** Open findings a policy refresh takes per batch (default REFRESH_BATCH; tests use less). */
  policyRefreshBatch?: number;
  /** Retests of one finding (domain/retest.ts). */
  retests: RetestStore;
  retestBudget: RetestBudget;
  retestPlans: RetestPlans;
}

/** The use cases of findings, wired to their ports (transport-free: tests drive them without a network). */
export function createFindingsDomain(deps: FindingsDeps) {
  // Every write goes through the SLA upkeep, whichever use case makes it.
  const d = { ...deps, findings: slaRepository(deps.findings, deps.policies) };
  const triage = new Triage(d);
  return {
    ingestion: new Ingestion(d),
    triage,
    listing: new Listing(d),
    exports: new Exports(d),
    analysis: new Analysis({ ...d, triage, cache: d.analyses }),
    policies: new Policies({ ...d, queue: d.slaQueue, ...(deps.policyRefreshBatch ? { refreshBatch: deps.policyRefreshBatch } : {}) }),
    upkeep: new SlaUpkeep({ ...d, queue: d.slaQueue }),
    retests: new Retests(d),
  };
}

export type FindingsDomain = ReturnType<typeof createFindingsDomain>;
