import { envelopeSchema, pageQueryProperties } from "../../rest.js";
import { anySecurity, errorResponses, input, operation, timestamp } from "../../schemas.js";
import { findingIdParams } from "./resources.js";

/** Route schemas of retesting one finding (issue 28). */

const op = operation({ tags: ["findings"], security: anySecurity });

export const RETEST_VERDICTS = ["fixed", "still_vulnerable", "inconclusive"] as const;
export const INCONCLUSIVE_REASONS = ["unreachable", "timeout", "refused"] as const;

export const retestSchema = {
  type: "object",
  required: [
    "id",
    "finding_id",
    "status",
    "verdict",
    "reason",
    "detail",
    "check",
    "evidence",
    "requested_by",
    "requested_at",
    "completed_at",
    "finding_status",
  ],
  properties: {
    id: { type: "string", description: "`retest_<id>`" },
    finding_id: { type: "string" },
    status: { type: "string", enum: ["pending", "completed"], description: "`pending` while the scanner runs the check; `completed` once it has a verdict" },
    verdict: {
      type: ["string", "null"],
      enum: [...RETEST_VERDICTS, null],
      description:
        "`fixed`: the check ran, the component answered and the check no longer matched (the finding is resolved as `verified_fixed`). `still_vulnerable`: the check matched again; `evidence` is the fresh one. `inconclusive`: no verdict (see `reason`); the finding's status is never changed. null while pending",
    },
    reason: {
      type: ["string", "null"],
      enum: [...INCONCLUSIVE_REASONS, null],
      description:
        "Why a retest was inconclusive: `unreachable` (no route, host down, name not resolved, outside the allowed networks), `timeout` (no answer in time, or no scanner reported before the deadline), `refused` (the port refused the connection); null otherwise",
    },
    detail: { type: "string", description: "What was done and seen" },
    check: {
      type: "object",
      required: ["template_id", "tool", "affected_component", "port"],
      description: "The one check that ran, and where",
      properties: { template_id: { type: "string" }, tool: { type: "string" }, affected_component: { type: "string" }, port: { type: "integer" } },
    },
    evidence: {
      type: "object",
      required: ["request", "response"],
      properties: { request: { type: "string" }, response: { type: "string" } },
    },
    requested_by: { type: "string" },
    requested_at: timestamp,
    completed_at: { ...timestamp, type: ["string", "null"] },
    finding_status: { type: ["string", "null"], description: "The finding's status after the verdict; null while pending" },
  },
} as const;

const EXAMPLE = {
  id: "retest_01JD7Q3W6XK2M8S4B9ZC5T1V0E",
  finding_id: "finding_01JD7P9Y2F6G3H4J5K6L7M8N9P",
  status: "completed",
  verdict: "fixed",
  reason: null,
  detail: "The check git-repository-exposure ran against http://10.77.0.2:80/.git/; http nginx 1.24.0 answered and the check no longer matched.",
  check: { template_id: "git-repository-exposure", tool: "templates", affected_component: "http://10.77.0.2:80/.git/", port: 80 },
  evidence: { request: "retest of git-repository-exposure on 10.77.0.2:80", response: "service: http nginx 1.24.0" },
  requested_by: "ana@example.com",
  requested_at: "2026-11-27T20:41:02.118Z",
  completed_at: "2026-11-27T20:41:02.731Z",
  finding_status: "resolved",
};

export const requestRetest = op("Retest one finding", {
  description:
    "Runs only the check that produced the finding (its template, TLS, SSH, web, datastore or version-match check) against its component, on the scanner pool, and answers at once with the pending retest (202); poll `GET /api/v1/findings/{finding_id}/retests` for the verdict (typically within seconds). `fixed` resolves the finding with `resolution: verified_fixed` and a history entry (events `finding.retested`, `vulnerability.status_changed`, `vulnerability.resolved`); a verified fix is also recorded as dated evidence on the controls the finding maps to. `inconclusive` never changes the status.\n\nBudget: retests are counted apart from scans, ten per monthly scan of the plan (Startup 250, Professional 1500, Enterprise unlimited), one running retest per finding (400 INVALID_STATE while one is pending). Findings whose check cannot run on its own (port inventories, correlation notes, plans) or whose component names no port answer 400 INVALID_STATE.",
  params: findingIdParams,
  response: {
    202: {
      ...retestSchema,
      required: [...retestSchema.required, "remaining_this_month"],
      properties: {
        ...retestSchema.properties,
        remaining_this_month: { type: ["integer", "null"], description: "Retests left this month; null when unlimited" },
      },
      examples: [{ ...EXAMPLE, status: "pending", verdict: null, detail: "", completed_at: null, finding_status: null, remaining_this_month: 249 }],
    },
    ...errorResponses(403, 404, "INVALID_STATE", "RETEST_QUOTA_EXCEEDED"),
  },
});

export const listRetests = op("Retests of one finding", {
  description: "The finding's retests, newest first, in the spec's pagination envelope.",
  params: findingIdParams,
  querystring: input(pageQueryProperties),
  response: {
    200: { ...envelopeSchema(retestSchema), examples: [{ items: [EXAMPLE], total: 1, page: 1, per_page: 20, pages: 1 }] },
    ...errorResponses(403, 404, 422),
  },
});
