import { errorResponses, input, operation, anySecurity, timestamp } from "../../schemas.js";
import { findingDetail, findingIdParams } from "./resources.js";

/** Route schemas of the findings policy (SLA days, acceptance approval) and of deciding a pending risk acceptance. */

const op = operation({ tags: ["findings"], security: anySecurity });

const days = { type: ["integer", "null"], minimum: 1, maximum: 3650 } as const;
const slaDays = {
  type: "object",
  additionalProperties: false,
  required: ["critical", "high", "medium", "low", "info"],
  description: "Days from detection to the due date per severity; null = no deadline",
  properties: { critical: days, high: days, medium: days, low: days, info: days },
} as const;

const AUTO_RESOLVE =
  "Auto-resolution (default: off): a later completed scan that ran a finding's check against its component, got an answer and did not match resolves the finding with `resolution: not_detected`. A finding whose component the scan did not cover (host down, port closed or filtered, no answer, check not run) stays open; a re-detection reopens as always";

const policy = {
  type: "object",
  required: ["sla_days", "require_acceptance_approval", "auto_resolve", "updated_at", "updated_by", "refresh_state", "refreshed"],
  properties: {
    sla_days: slaDays,
    require_acceptance_approval: { type: "boolean", description: "A move to accepted waits for a second user's approval" },
    auto_resolve: { type: "boolean", description: AUTO_RESOLVE },
    updated_at: { ...timestamp, type: ["string", "null"], description: "null while the defaults apply" },
    updated_by: { type: "string" },
    refresh_state: {
      type: "string",
      enum: ["running", "done"],
      description:
        "The last save's refresh of open and in-progress findings' due dates: `running` while it still works through them in the background, `done` after",
    },
    refreshed: { type: "integer", description: "Due dates that refresh moved so far" },
  },
} as const;

const EXAMPLE = { sla_days: { critical: 7, high: 30, medium: 90, low: 180, info: null }, require_acceptance_approval: true };

export const getPolicy = op("Findings policy: SLA days and acceptance approval", {
  description:
    "The organization's SLA days per severity (defaults: critical 7, high 30, medium 90, low 180, info none), whether risk acceptance needs a second user's approval (default: no), and whether a later scan that covered a finding's check and did not match resolves it (`auto_resolve`, default: no).",
  response: { 200: policy, ...errorResponses(403) },
});

export const putPolicy = op("Replace the findings policy", {
  description:
    "Every open and in-progress finding whose due date comes from the policy gets the new deadline; dates people set are kept. CISA KEV findings take the critical deadline, or KEV's own due date when earlier. The first 200 open findings are refreshed before the answer (`refreshed` counts the due dates moved), so a small organization sees `refresh_state: done`; the rest follow in the background while `refresh_state` is `running` (GET shows the progress). Saving again restarts the refresh with the newer policy.",
  body: input(
    {
      sla_days: slaDays,
      require_acceptance_approval: { type: "boolean" },
      auto_resolve: { type: "boolean", description: `${AUTO_RESOLVE}. Left out: unchanged` },
    },
    { required: ["sla_days", "require_acceptance_approval"], examples: [EXAMPLE] },
  ),
  response: {
    200: policy,
    ...errorResponses(403, 422),
  },
});

export const decideAcceptance = op("Approve or reject a pending risk acceptance", {
  description:
    "For organizations that require approval: a signed-in user other than the one who asked approves (the finding becomes accepted until the acceptance's expires_at) or rejects (the status stays). 409 when no acceptance is pending or it expired before approval; 403 for the requester or an API key.",
  params: findingIdParams,
  body: input(
    { decision: { type: "string", enum: ["approve", "reject"] }, note: { type: "string", maxLength: 2000 } },
    { required: ["decision"], examples: [{ decision: "approve", note: "WAF rule verified" }] },
  ),
  response: { 200: findingDetail, ...errorResponses(403, 404, 409, 422) },
});
