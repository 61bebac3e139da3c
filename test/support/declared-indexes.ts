import { processedEventsIndexes, type IndexSpec, type ScanAllowance } from "@vulnscan/kit";
import { rateLimitIndexes } from "../../gateway/src/rate-limit.js";
import { authIndexes, authScanAllowances } from "../../services/auth/src/storage/index.js";
import { findingIndexes } from "../../services/findings/src/storage/indexes.js";
import { grcIndexes, grcScanAllowances } from "../../services/grc/src/storage/collections.js";
import { scanIndexes } from "../../services/scan-orchestrator/src/storage/mongo-store.js";
import { webhookIndexes, webhookScanAllowances } from "../../services/webhook-dispatcher/src/storage/collections.js";

export interface DeclaredIndexes {
  indexes: IndexSpec[];
  /** Queries that scan on purpose, each with its reason. */
  allowances: ScanAllowance[];
}

/**
 * What each process (by the appName it gives the kit's createMongo: the service name) declares:
 * its own index list plus the kit's (runService creates processedEventsIndexes in every service).
 */
export const declaredIndexes: Record<string, DeclaredIndexes> = {
  auth: { indexes: [...processedEventsIndexes, ...authIndexes], allowances: authScanAllowances },
  "scan-orchestrator": { indexes: [...processedEventsIndexes, ...scanIndexes], allowances: [] },
  findings: { indexes: [...processedEventsIndexes, ...findingIndexes], allowances: [] },
  grc: { indexes: [...processedEventsIndexes, ...grcIndexes], allowances: grcScanAllowances },
  "webhook-dispatcher": { indexes: [...processedEventsIndexes, ...webhookIndexes], allowances: webhookScanAllowances },
  scanner: { indexes: [...processedEventsIndexes], allowances: [] },
  gateway: { indexes: rateLimitIndexes, allowances: [] },
};
