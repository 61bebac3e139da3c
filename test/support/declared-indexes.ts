import { mergeFieldTypes, processedEventsFieldTypes, processedEventsIndexes, type FieldTypes, type IndexSpec, type ScanAllowance } from "@vulnscan/kit";
import { rateLimitFields, rateLimitIndexes } from "../../gateway/src/rate-limit.js";
import { authFields, authIndexes, authScanAllowances } from "../../services/auth/src/storage/index.js";
import { findingFields, findingIndexes } from "../../services/findings/src/storage/indexes.js";
import { coverageFields, coverageIndexes } from "../../services/findings/src/storage/coverage.js";
import { retestFields, retestIndexes } from "../../services/findings/src/storage/retests.js";
import { grcFields, grcIndexes, grcScanAllowances } from "../../services/grc/src/storage/collections.js";
import { scanAllowances, scanFields, scanIndexes } from "../../services/scan-orchestrator/src/storage/mongo-store.js";
import { webhookFields, webhookIndexes } from "../../services/webhook-dispatcher/src/storage/collections.js";

export interface DeclaredIndexes {
  indexes: IndexSpec[];
  /** Queries that scan on purpose, each with its reason. */
  allowances: ScanAllowance[];
  /** The type class of each field the queries use (FerretDB on PostgreSQL pushes down only these). */
  fields: FieldTypes;
}

/** A service's fields with the kit's (runService declares processedEventsFieldTypes in every service). */
const withKit = (fields: FieldTypes) => mergeFieldTypes(processedEventsFieldTypes, fields);

/**
 * What each process (by the appName it gives the kit's createMongo: the service name) declares:
 * its own index list plus the kit's (runService creates processedEventsIndexes in every service).
 */
export const declaredIndexes: Record<string, DeclaredIndexes> = {
  auth: { indexes: [...processedEventsIndexes, ...authIndexes], allowances: authScanAllowances, fields: withKit(authFields) },
  "scan-orchestrator": { indexes: [...processedEventsIndexes, ...scanIndexes], allowances: scanAllowances, fields: withKit(scanFields) },
  findings: {
    indexes: [...processedEventsIndexes, ...findingIndexes, ...retestIndexes, ...coverageIndexes],
    allowances: [],
    fields: withKit(mergeFieldTypes(findingFields, retestFields, coverageFields)),
  },
  grc: { indexes: [...processedEventsIndexes, ...grcIndexes], allowances: grcScanAllowances, fields: withKit(grcFields) },
  "webhook-dispatcher": { indexes: [...processedEventsIndexes, ...webhookIndexes], allowances: [], fields: withKit(webhookFields) },
  scanner: { indexes: [...processedEventsIndexes], allowances: [], fields: withKit({}) },
  gateway: { indexes: rateLimitIndexes, allowances: [], fields: rateLimitFields },
};
