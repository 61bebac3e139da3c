import { CURSOR_DESCRIPTION, cursorEnvelopeSchema, cursorQueryProp, pageQueryProperties } from "../../rest.js";
import { anySecurity, errorResponses, timestamp, idParams, dateOrTimestamp, operation, input } from "../../schemas.js";
import {
  commentSchema,
  filterQueryProps,
  findingDetail,
  findingIdParams,
  findingListItem,
  scanFindingItem,
  FORMATS,
  PRIORITIES,
  SEVERITIES,
  STATUSES,
  strings,
} from "./resources.js";

/** What a move to accepted carries (required with status accepted, refused without it). */
const acceptanceInput = {
  type: "object",
  additionalProperties: false,
  required: ["expires_at", "justification"],
  description:
    "Required with `status: accepted`: until when (at most 365 days ahead) and why. With approval required by the organization the status waits for a second user (see /acceptance/decision)",
  properties: {
    expires_at: { type: "string", format: "date-time" },
    justification: { type: "string", minLength: 1, maxLength: 2000 },
  },
} as const;

/** Each findings route's schema: what ajv validates, what the handler's types derive from, what OpenAPI shows. */

const op = operation({ tags: ["findings"], security: anySecurity });

export const listFindings = op("List findings", {
  description: `Filters combine with AND. \`search\` finds findings whose title, affected component, CVE ids or template id contain every word given (\`search=redis auth\`), through an index. \`sort=severity&order=desc\` puts critical first; ties are newest first. ${CURSOR_DESCRIPTION}`,
  querystring: input({ ...pageQueryProperties, ...filterQueryProps, cursor: cursorQueryProp }),
  response: { 200: cursorEnvelopeSchema(findingListItem), ...errorResponses(403, 422) },
});

const counts = (keys: readonly string[]) =>
  ({ type: "object", required: [...keys], properties: Object.fromEntries(keys.map((s) => [s, { type: "integer" }])) }) as const;

export const findingStats = op("Finding statistics", {
  description: "`from_date`/`to_date` bound the detection time (from inclusive, to exclusive). Trends count the last 7 days within those filters.",
  querystring: input({
    from_date: { ...dateOrTimestamp, description: "RFC 3339 date or date-time (inclusive)" },
    to_date: { ...dateOrTimestamp, description: "RFC 3339 date or date-time (exclusive)" },
    target: { type: "string", minLength: 1, maxLength: 253 },
  }),
  response: {
    200: {
      type: "object",
      required: ["total", "by_severity", "by_status", "by_tool", "trends", "sla"],
      properties: {
        total: { type: "integer" },
        by_severity: counts(SEVERITIES),
        by_status: counts(STATUSES),
        by_tool: { type: "object", additionalProperties: { type: "integer" } },
        trends: {
          type: "object",
          required: ["new_this_week", "resolved_this_week", "average_resolution_days"],
          properties: {
            new_this_week: { type: "integer" },
            resolved_this_week: { type: "integer" },
            average_resolution_days: { type: "number", description: "Mean days from detection to resolution over resolved findings; 0 when none" },
          },
        },
        sla: {
          type: "object",
          required: ["breached", "at_risk"],
          description: "Open and in-progress findings past their due date, and in its last 20 %, right now (added to the spec's fields)",
          properties: { breached: { type: "integer" }, at_risk: { type: "integer" } },
        },
      },
    },
    ...errorResponses(403, 422),
  },
});

export const exportFindings = op("Export findings (CSV, JSON or PDF)", {
  description:
    "Takes the list filters and sort. Streamed as an attachment: CSV (one row per finding, formula-like cells prefixed with `'`), JSON (an array of finding details), PDF (a report with summary, severity chart and table).",
  produces: ["text/csv", "application/json", "application/pdf"],
  querystring: input({ format: { type: "string", enum: FORMATS, default: "csv" }, ...filterQueryProps }),
  response: {
    200: {
      description: "The file, as an attachment named findings-<date>.<format>",
      content: {
        "text/csv": { schema: { type: "string" } },
        "application/json": { schema: { type: "array", items: findingDetail } },
        "application/pdf": { schema: { type: "string", format: "binary" } },
      },
    },
    ...errorResponses(403, 422),
  },
});

export const bulkUpdate = op("Bulk status/notes update (up to 1000 findings)", {
  description: "Each finding succeeds or fails on its own; ids that do not exist in your organization are reported as NOT_FOUND.",
  body: input(
    {
      finding_ids: { type: "array", minItems: 1, maxItems: 1000, items: { type: "string", minLength: 1, maxLength: 128 } },
      update: {
        type: "object",
        additionalProperties: false,
        minProperties: 1,
        properties: { status: { type: "string", enum: STATUSES }, notes: { type: "string", maxLength: 10_000 }, acceptance: acceptanceInput },
      },
    },
    {
      required: ["finding_ids", "update"],
      examples: [{ finding_ids: ["finding_01JD8N3Q7WX4K2", "finding_01JD8N3R2B5M9T"], update: { status: "resolved", notes: "Patched in release 4.2" } }],
    },
  ),
  response: {
    200: {
      type: "object",
      required: ["updated", "failed"],
      properties: {
        updated: { type: "integer" },
        failed: {
          type: "array",
          items: {
            type: "object",
            required: ["finding_id", "error_code", "detail"],
            properties: { finding_id: { type: "string" }, error_code: { type: "string" }, detail: { type: "string" } },
          },
        },
      },
    },
    ...errorResponses(403, 422),
  },
});

export const getFinding = op("Finding detail with comments and history", {
  description:
    "Everything known about one finding: description, impact, remediation steps, evidence, framework mappings, comments and the history of every change.",
  params: findingIdParams,
  response: { 200: findingDetail, ...errorResponses(403, 404) },
});

export const updateFinding = op("Update status, assignee, priority, due date or notes", {
  description:
    "Every change is recorded in the finding's history with your name. `null` clears assignee, priority or due_date (a cleared due date goes back to the organization's SLA policy; a date you set is kept through severity changes). `status: accepted` requires `acceptance` (expiry and justification).",
  params: findingIdParams,
  body: input(
    {
      status: { type: "string", enum: STATUSES },
      assignee: { type: ["string", "null"], maxLength: 320 },
      priority: { type: ["string", "null"], enum: [...PRIORITIES, null] },
      due_date: { type: ["string", "null"], format: "date-time" },
      notes: { type: "string", maxLength: 10_000 },
      acceptance: acceptanceInput,
    },
    { examples: [{ status: "in_progress", assignee: "dev@acme.example", priority: "high", due_date: "2026-12-11T17:00:00Z" }] },
  ),
  response: {
    200: {
      type: "object",
      required: ["id", "status", "assignee", "updated_at"],
      properties: { id: { type: "string" }, status: { type: "string", enum: STATUSES }, assignee: { type: ["string", "null"] }, updated_at: timestamp },
    },
    ...errorResponses(403, 404, 422),
  },
});

export const addComment = op("Add a comment", {
  description: "Adds a comment in your name (the API key's name for keys) and records it in the finding's history.",
  params: findingIdParams,
  body: input({ text: { type: "string", minLength: 1, maxLength: 10_000 } }, { required: ["text"] }),
  response: { 201: commentSchema, ...errorResponses(403, 404, 422) },
});

export const aiAnalysis = op("AI remediation guidance", {
  description:
    "Costs one credit of the plan's monthly AI credits (Startup 50, Professional 500, Enterprise 5000); asking again about an unchanged finding is free. Used up: 429 AI_QUOTA_EXCEEDED. `ansible_playbook_id` names a playbook under ansible/playbooks/ when `automation_available`. The prose fields are CommonMark (inline code for files, directives and commands).",
  params: findingIdParams,
  response: {
    200: {
      type: "object",
      required: ["finding_id", "ai_analysis", "ai_credits_used"],
      properties: {
        finding_id: { type: "string" },
        ai_analysis: {
          type: "object",
          required: ["risk_assessment", "attack_scenarios", "remediation_priority", "recommended_actions", "automation_available", "ansible_playbook_id"],
          properties: {
            risk_assessment: { type: "string" },
            attack_scenarios: strings,
            remediation_priority: { type: "string", enum: ["immediate", "high", "medium", "low"] },
            recommended_actions: strings,
            automation_available: { type: "boolean" },
            ansible_playbook_id: { type: "string" },
            category: {
              type: "string",
              description: "The one category the finding was classified in, from the check that produced it (e.g. unauthenticated-service, vulnerable-version)",
            },
            source: {
              type: "string",
              enum: ["builtin", "model", "builtin_fallback"],
              description:
                "Which path wrote the analysis: the built-in rules, the configured model, or the built-in rules after the model's answer was refused",
            },
            source_detail: { type: "string", description: "The provider's id; for builtin_fallback also why the model's answer was refused" },
          },
        },
        ai_credits_used: { type: "integer", description: "Credits this request used: 1, or 0 when answered from cache" },
        ai_credits_remaining: { type: "integer", description: "Credits left this month (0 on unlimited plans)" },
      },
    },
    ...errorResponses(403, 404, "AI_QUOTA_EXCEEDED"),
  },
});

export const scanFindings = operation({ tags: ["scans", "findings"], security: anySecurity })("Findings of one scan", {
  description: "Every finding the scan detected (including ones first found by an earlier scan), in detection order.",
  params: idParams("scan_id"),
  querystring: input({
    severity: { type: "string", enum: SEVERITIES },
    status: { type: "string", enum: ["open", "in_progress", "resolved", "false_positive"] },
  }),
  response: {
    200: {
      type: "object",
      required: ["items", "total"],
      properties: {
        items: {
          type: "array",
          items: scanFindingItem,
        },
        total: { type: "integer" },
      },
    },
    ...errorResponses(403, 404, 422),
  },
});
