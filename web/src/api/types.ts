// The API's shapes as the console reads them, from the contract: the operation types are the
// TypeScript client library's (clients/typescript/src/schema.ts, scripts/clients.ts) and enums.ts
// the choices read from the same OpenAPI document (scripts/web-types.ts); both are checked fresh
// by `npm test`. This file only names them.
import type { CONFIDENCES, FINDING_STATUSES, SETTABLE_CONTROL_STATUSES, SEVERITIES } from "./enums.js";
import type { operations } from "../../../clients/typescript/src/schema.js";

export * from "./enums.js";

/** The JSON body an operation answers with `status` (200 unless said). */
type Ok<Op extends keyof operations, Status extends number = 200> = operations[Op]["responses"] extends {
  [S in Status]: { content: { "application/json": infer T } };
}
  ? T
  : never;
type Item<T> = T extends { items: (infer I)[] } ? I : never;

export type Severity = (typeof SEVERITIES)[number];
export type FindingStatus = (typeof FINDING_STATUSES)[number];
export type Confidence = (typeof CONFIDENCES)[number];

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
  next_cursor?: string | null;
}

export type Scan = Item<Ok<"listScans">>;
export type ScanDetail = Ok<"getScan">;
/** GET /api/v1/scans/{scan_id}/diff: the scan compared with an earlier one of its target (issue 28). */
export type ScanDiff = Ok<"diffScan">;
export type Quota = Ok<"getScanQuota">;
export type Finding = Item<Ok<"listFindings">>;
export type FindingDetail = Ok<"getFinding">;
/** One retest of a finding (issue 28): POST /api/v1/findings/{id}/retest answers it pending; the list shows its verdict. */
export type Retest = Item<Ok<"listFindingRetests">>;
export type RetestStarted = Ok<"retestFinding", 202>;
/** GET /api/v1/findings/stats: counts per severity, status and tool, and the week's movement. */
export type Stats = Ok<"getFindingStats">;
export type Trends = Stats["trends"];
type Analysis = Ok<"getFindingAiAnalysis">;
/**
 * The gateway always sends `ai_analysis.source` (gateway/src/routes/findings: builtin, model or
 * builtin_fallback), but its schema does not list it as required; the console relies on it.
 */
export type AiAnalysis = Analysis & { ai_analysis: { source: NonNullable<Analysis["ai_analysis"]["source"]> } };
/** A key as listed; `key` (the secret) only in the answer that created it. */
export type ApiKey = Item<Ok<"listApiKeys">> & Partial<Pick<Ok<"createApiKey", 201>, "key">>;
export type Session = Item<Ok<"listSessions">>;
export type Webhook = Ok<"getWebhook">;
export type Delivery = Item<Ok<"listWebhookDeliveries">>;
/** POST /api/v1/webhooks/{id}/test: one synchronous attempt. */
export type WebhookTest = Ok<"testWebhook">;
export type Control = Item<Ok<"listControls">>;
export type ControlDetail = Ok<"getControl">;
export type FrameworkScore = Item<Ok<"listFrameworks">>;
export type Evidence = Ok<"getEvidence">;
export type SettableControlStatus = (typeof SETTABLE_CONTROL_STATUSES)[number];
