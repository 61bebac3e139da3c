import { Readable } from "node:stream";
import type { Client } from "@connectrpc/connect";
import {
  ExportFormat,
  FindingService,
  FindingSortField,
  FindingStatus,
  Priority,
  Severity,
  SortOrder,
  type Comment,
  FindingFilterSchema,
  type Finding,
} from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import type { ScanService } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { FastifyPluginAsync } from "fastify";
import { principalOf } from "../auth/guard.js";
import { HttpError } from "../errors.js";
import { actorOf, CURSOR_DESCRIPTION, cursorEnvelope, cursorEnvelopeSchema, cursorQueryProp, pageQueryProperties, tsOf } from "../rest.js";
import { enumName, enumValue } from "@vulnscan/kit";
import { anySecurity, errorResponses, iso, timestamp } from "../schemas.js";

const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
const STATUSES = ["open", "in_progress", "resolved", "false_positive", "accepted"] as const;
const PRIORITIES = ["critical", "high", "medium", "low"] as const;
const FORMATS = ["csv", "json", "pdf"] as const;
/** An export streams for as long as it takes; the usual upstream deadline would cut it. */
const EXPORT_TIMEOUT_MS = 60 * 60_000;

const findingIdParams = { type: "object", required: ["finding_id"], properties: { finding_id: { type: "string", minLength: 1, maxLength: 128 } } } as const;
const strings = { type: "array", items: { type: "string" } } as const;

const listItemProps = {
  id: { type: "string", description: "`finding_<id>`" },
  title: { type: "string" },
  severity: { type: "string", enum: SEVERITIES },
  status: { type: "string", enum: STATUSES },
  cvss_score: { type: "number" },
  epss_score: { type: ["number", "null"], description: "EPSS probability 0–1; null when unknown" },
  target: { type: "string" },
  affected_component: { type: "string" },
  tool: { type: "string", description: "Detection tool" },
  template_id: { type: "string", description: "Check (template) id of the tool" },
  cve_ids: strings,
  cwe_ids: strings,
  scan_id: { type: "string", description: "The scan that first detected it" },
  detected_at: timestamp,
} as const;

const findingListItem = {
  type: "object",
  required: [...Object.keys(listItemProps), "frameworks"],
  properties: { ...listItemProps, frameworks: { ...strings, description: "Framework ids the finding maps to" } },
} as const;

const commentSchema = {
  type: "object",
  required: ["id", "finding_id", "user", "text", "created_at"],
  properties: {
    id: { type: "string", description: "`comment_<id>`" },
    finding_id: { type: "string" },
    user: { type: "string", description: "Author: the user's email, or the API key's name" },
    text: { type: "string" },
    created_at: timestamp,
  },
} as const;

const findingDetail = {
  type: "object",
  required: [...Object.keys(listItemProps), "frameworks", "cvss_vector", "description", "impact", "remediation", "evidence", "comments", "history"],
  properties: {
    ...listItemProps,
    frameworks: {
      type: "array",
      items: { type: "object", required: ["name", "controls"], properties: { name: { type: "string" }, controls: strings } },
    },
    cvss_vector: { type: "string" },
    kev: { type: "boolean", description: "Listed in CISA's Known Exploited Vulnerabilities catalogue" },
    description: { type: "string" },
    impact: { type: "string" },
    remediation: {
      type: "object",
      required: ["summary", "steps", "code_example", "references"],
      properties: { summary: { type: "string" }, steps: strings, code_example: { type: "string" }, references: strings },
    },
    evidence: {
      type: "object",
      required: ["request", "response", "screenshot_url"],
      properties: { request: { type: "string" }, response: { type: "string" }, screenshot_url: { type: ["string", "null"] } },
    },
    comments: { type: "array", items: { type: "object", required: ["id", "user", "text", "created_at"], properties: { id: { type: "string" }, user: { type: "string" }, text: { type: "string" }, created_at: timestamp } } },
    history: {
      type: "array",
      items: {
        type: "object",
        required: ["action", "from", "to", "user", "timestamp"],
        properties: {
          action: { type: "string", description: "created, status_changed, reopened, assignee_changed, priority_changed, due_date_changed, notes_changed, commented" },
          from: { type: ["string", "null"] },
          to: { type: "string" },
          user: { type: "string", description: "`system` for automatic changes" },
          timestamp,
        },
      },
    },
    assignee: { type: "string" },
    priority: { type: ["string", "null"], enum: [...PRIORITIES, null] },
    due_date: { type: ["string", "null"], format: "date-time" },
    notes: { type: "string" },
    last_seen_at: timestamp,
    created_at: timestamp,
    updated_at: timestamp,
  },
} as const;

const filterQueryProps = {
  severity: { type: "string", enum: SEVERITIES },
  status: { type: "string", enum: STATUSES },
  scan_id: { type: "string", minLength: 1, maxLength: 128 },
  target: { type: "string", minLength: 1, maxLength: 253, description: "Exact target" },
  tool: { type: "string", minLength: 1, maxLength: 64 },
  cve: { type: "string", minLength: 1, maxLength: 64, description: "A CVE id (case-insensitive)" },
  sort: { type: "string", enum: ["severity", "created_at", "cvss_score"], default: "created_at" },
  order: { type: "string", enum: ["asc", "desc"], default: "desc" },
} as const;

interface FilterQuery {
  severity?: string;
  status?: string;
  scan_id?: string;
  target?: string;
  tool?: string;
  cve?: string;
  sort: string;
  order: string;
}

function filterOf(q: FilterQuery): MessageInitShape<typeof FindingFilterSchema> {
  const f: MessageInitShape<typeof FindingFilterSchema> = {};
  if (q.severity) f.severity = enumValue(Severity, q.severity);
  if (q.status) f.status = enumValue(FindingStatus, q.status);
  if (q.scan_id) f.scanId = q.scan_id;
  if (q.target) f.target = q.target;
  if (q.tool) f.tool = q.tool;
  if (q.cve) f.cve = q.cve;
  return f;
}

const sortOf = (q: FilterQuery) => ({ sort: enumValue(FindingSortField, q.sort), order: enumValue(SortOrder, q.order) });

function listItem(f: Finding) {
  return {
    id: f.id,
    title: f.title,
    severity: enumName(Severity, f.severity),
    status: enumName(FindingStatus, f.status),
    cvss_score: f.cvssScore,
    epss_score: f.epssScore ?? null,
    target: f.target,
    affected_component: f.affectedComponent,
    tool: f.tool,
    template_id: f.templateId,
    cve_ids: f.cveIds,
    cwe_ids: f.cweIds,
    scan_id: f.scanId,
    detected_at: iso(f.detectedAt),
    frameworks: f.frameworks.map((m) => m.name),
  };
}

function detail(f: Finding) {
  return {
    ...listItem(f),
    frameworks: f.frameworks.map((m) => ({ name: m.name, controls: m.controls })),
    cvss_vector: f.cvssVector,
    kev: f.kev,
    description: f.description,
    impact: f.impact,
    remediation: {
      summary: f.remediation?.summary ?? "",
      steps: f.remediation?.steps ?? [],
      code_example: f.remediation?.codeExample ?? "",
      references: f.remediation?.references ?? [],
    },
    evidence: { request: f.evidence?.request ?? "", response: f.evidence?.response ?? "", screenshot_url: f.evidence?.screenshotUrl ?? null },
    comments: f.comments.map((c) => ({ id: c.id, user: c.user, text: c.text, created_at: iso(c.createdAt) })),
    history: f.history.map((h) => ({ action: h.action, from: h.from ?? null, to: h.to, user: h.user, timestamp: iso(h.timestamp) })),
    assignee: f.assignee,
    priority: f.priority === Priority.UNSPECIFIED ? null : enumName(Priority, f.priority),
    due_date: iso(f.dueDate) ?? null,
    notes: f.notes,
    last_seen_at: iso(f.lastSeenAt),
    created_at: iso(f.createdAt),
    updated_at: iso(f.updatedAt),
  };
}

const commentJson = (c: Comment) => ({ id: c.id, finding_id: c.findingId, user: c.user, text: c.text, created_at: iso(c.createdAt) });

const listEnvelopeSchema = cursorEnvelopeSchema(findingListItem);

/** An ISO 8601 query value (date or date-time) or a 422 naming the parameter. */
function dateParam(value: string | undefined, field: string) {
  if (value === undefined) return undefined;
  const d = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(d.getTime())) throw new HttpError(422, "VALIDATION_ERROR", `${field} must be an ISO 8601 date or timestamp`, field);
  return tsOf(d.toISOString());
}

/**
 * Findings (spec "Findings") and a scan's findings, served by the findings service. When the
 * scans client is given, `GET /api/v1/scans/{scan_id}/findings` first checks the scan exists in
 * the caller's organization (404 otherwise), as findings_service.proto asks.
 */
export const findingsRoutes =
  (findings: Client<typeof FindingService>, opts: { scans?: Pick<Client<typeof ScanService>, "getScan"> } = {}): FastifyPluginAsync =>
  async (app) => {
    app.get(
      "/api/v1/findings",
      {
        config: { permission: "read:findings" },
        schema: {
          tags: ["findings"],
          summary: "List findings",
          description:
            "Filters combine with AND. `sort=severity&order=desc` puts critical first; ties are newest first. " + CURSOR_DESCRIPTION,
          security: anySecurity,
          querystring: { type: "object", additionalProperties: false, properties: { ...pageQueryProperties, ...filterQueryProps, cursor: cursorQueryProp } },
          response: { 200: listEnvelopeSchema, ...errorResponses(403, 422) },
        },
      },
      async (req) => {
        const q = req.query as FilterQuery & { page: number; per_page: number; cursor?: string };
        const res = await findings.listFindings({
          orgId: principalOf(req).orgId,
          pagination: { page: q.page, perPage: q.per_page },
          filter: filterOf(q),
          ...sortOf(q),
          cursor: q.cursor ?? "",
        });
        return cursorEnvelope(res.findings.map(listItem), res.pageInfo, res.nextCursor);
      },
    );

    app.get(
      "/api/v1/findings/stats",
      {
        config: { permission: "read:findings" },
        schema: {
          tags: ["findings"],
          summary: "Finding statistics",
          description: "`from_date`/`to_date` bound the detection time (from inclusive, to exclusive). Trends count the last 7 days within those filters.",
          security: anySecurity,
          querystring: {
            type: "object",
            additionalProperties: false,
            properties: {
              from_date: { type: "string", maxLength: 40, description: "ISO 8601" },
              to_date: { type: "string", maxLength: 40, description: "ISO 8601" },
              target: { type: "string", minLength: 1, maxLength: 253 },
            },
          },
          response: {
            200: {
              type: "object",
              required: ["total", "by_severity", "by_status", "by_tool", "trends"],
              properties: {
                total: { type: "integer" },
                by_severity: { type: "object", required: [...SEVERITIES], properties: Object.fromEntries(SEVERITIES.map((s) => [s, { type: "integer" }])) },
                by_status: { type: "object", required: [...STATUSES], properties: Object.fromEntries(STATUSES.map((s) => [s, { type: "integer" }])) },
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
              },
            },
            ...errorResponses(403, 422),
          },
        },
      },
      async (req) => {
        const q = req.query as { from_date?: string; to_date?: string; target?: string };
        const s = await findings.getStats({
          orgId: principalOf(req).orgId,
          fromDate: dateParam(q.from_date, "from_date"),
          toDate: dateParam(q.to_date, "to_date"),
          target: q.target,
        });
        return {
          total: s.total,
          by_severity: { critical: s.bySeverity?.critical ?? 0, high: s.bySeverity?.high ?? 0, medium: s.bySeverity?.medium ?? 0, low: s.bySeverity?.low ?? 0, info: s.bySeverity?.info ?? 0 },
          by_status: {
            open: s.byStatus?.open ?? 0,
            in_progress: s.byStatus?.inProgress ?? 0,
            resolved: s.byStatus?.resolved ?? 0,
            false_positive: s.byStatus?.falsePositive ?? 0,
            accepted: s.byStatus?.accepted ?? 0,
          },
          by_tool: s.byTool,
          trends: {
            new_this_week: s.trends?.newThisWeek ?? 0,
            resolved_this_week: s.trends?.resolvedThisWeek ?? 0,
            average_resolution_days: s.trends?.averageResolutionDays ?? 0,
          },
        };
      },
    );

    app.get(
      "/api/v1/findings/export",
      {
        config: { permission: "read:findings" },
        schema: {
          tags: ["findings"],
          summary: "Export findings (CSV, JSON or PDF)",
          description:
            "Takes the list filters and sort. Streamed as an attachment: CSV (one row per finding, formula-like cells prefixed with `'`), JSON (an array of finding details), PDF (a report with summary, severity chart and table).",
          security: anySecurity,
          produces: ["text/csv", "application/json", "application/pdf"],
          querystring: {
            type: "object",
            additionalProperties: false,
            properties: { format: { type: "string", enum: FORMATS, default: "csv" }, ...filterQueryProps },
          },
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
        },
      },
      async (req, reply) => {
        const q = req.query as FilterQuery & { format: string };
        const abort = new AbortController();
        reply.raw.on("close", () => {
          if (!reply.raw.writableFinished) abort.abort();
        });
        const stream = findings.exportFindings(
          { orgId: principalOf(req).orgId, format: enumValue(ExportFormat, q.format), filter: filterOf(q), ...sortOf(q) },
          { timeoutMs: EXPORT_TIMEOUT_MS, signal: abort.signal },
        );
        const it = stream[Symbol.asyncIterator]();
        // The first message carries the metadata; a refused export fails here, before any byte is sent.
        const first = await it.next();
        if (first.done) throw new HttpError(500, "INTERNAL_ERROR", "Internal server error");
        const head = first.value;
        async function* bytes() {
          if (head.chunk.length) yield Buffer.from(head.chunk);
          for (;;) {
            const next = await it.next();
            if (next.done) return;
            if (next.value.chunk.length) yield Buffer.from(next.value.chunk);
          }
        }
        return reply
          .header("content-type", head.contentType)
          .header("content-disposition", `attachment; filename="${head.filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`)
          .send(Readable.from(bytes()));
      },
    );

    app.post(
      "/api/v1/findings/bulk",
      {
        config: { permission: "write:findings" },
        schema: {
          tags: ["findings"],
          summary: "Bulk status/notes update (up to 1000 findings)",
          description: "Each finding succeeds or fails on its own; ids that do not exist in your organization are reported as NOT_FOUND.",
          security: anySecurity,
          body: {
            type: "object",
            additionalProperties: false,
            required: ["finding_ids", "update"],
            properties: {
              finding_ids: { type: "array", minItems: 1, maxItems: 1000, items: { type: "string", minLength: 1, maxLength: 128 } },
              update: {
                type: "object",
                additionalProperties: false,
                minProperties: 1,
                properties: { status: { type: "string", enum: STATUSES }, notes: { type: "string", maxLength: 10_000 } },
              },
            },
          },
          response: {
            200: {
              type: "object",
              required: ["updated", "failed"],
              properties: {
                updated: { type: "integer" },
                failed: {
                  type: "array",
                  items: { type: "object", required: ["finding_id", "error_code", "detail"], properties: { finding_id: { type: "string" }, error_code: { type: "string" }, detail: { type: "string" } } },
                },
              },
            },
            ...errorResponses(403, 422),
          },
        },
      },
      async (req) => {
        const body = req.body as { finding_ids: string[]; update: { status?: string; notes?: string } };
        const p = principalOf(req);
        const res = await findings.bulkUpdate(
          {
            orgId: p.orgId,
            findingIds: body.finding_ids,
            ...(body.update.status !== undefined ? { status: enumValue(FindingStatus, body.update.status) } : {}),
            ...(body.update.notes !== undefined ? { notes: body.update.notes } : {}),
            actor: actorOf(p),
          },
          { timeoutMs: 120_000 },
        );
        return { updated: res.updated, failed: res.failed.map((f) => ({ finding_id: f.findingId, error_code: f.errorCode, detail: f.detail })) };
      },
    );

    app.get(
      "/api/v1/findings/:finding_id",
      {
        config: { permission: "read:findings" },
        schema: {
          tags: ["findings"],
          summary: "Finding detail with comments and history",
          security: anySecurity,
          params: findingIdParams,
          response: { 200: findingDetail, ...errorResponses(403, 404) },
        },
      },
      async (req) => {
        const { finding_id } = req.params as { finding_id: string };
        const { finding } = await findings.getFinding({ orgId: principalOf(req).orgId, findingId: finding_id });
        return detail(finding!);
      },
    );

    app.patch(
      "/api/v1/findings/:finding_id",
      {
        config: { permission: "write:findings" },
        schema: {
          tags: ["findings"],
          summary: "Update status, assignee, priority, due date or notes",
          description: "Every change is recorded in the finding's history with your name. `null` clears assignee, priority or due_date.",
          security: anySecurity,
          params: findingIdParams,
          body: {
            type: "object",
            additionalProperties: false,
            properties: {
              status: { type: "string", enum: STATUSES },
              assignee: { type: ["string", "null"], maxLength: 320 },
              priority: { type: ["string", "null"], enum: [...PRIORITIES, null] },
              due_date: { type: ["string", "null"], format: "date-time" },
              notes: { type: "string", maxLength: 10_000 },
            },
          },
          response: {
            200: {
              type: "object",
              required: ["id", "status", "assignee", "updated_at"],
              properties: { id: { type: "string" }, status: { type: "string", enum: STATUSES }, assignee: { type: ["string", "null"] }, updated_at: timestamp },
            },
            ...errorResponses(403, 404, 422),
          },
        },
      },
      async (req) => {
        const { finding_id } = req.params as { finding_id: string };
        const body = (req.body ?? {}) as { status?: string; assignee?: string | null; priority?: string | null; due_date?: string | null; notes?: string };
        const p = principalOf(req);
        const res = await findings.updateFinding({
          orgId: p.orgId,
          findingId: finding_id,
          ...(body.status !== undefined ? { status: enumValue(FindingStatus, body.status) } : {}),
          ...(body.assignee !== undefined ? { assignee: body.assignee ?? "" } : {}),
          ...(body.priority !== undefined ? { priority: body.priority === null ? Priority.UNSPECIFIED : enumValue(Priority, body.priority) } : {}),
          ...(typeof body.due_date === "string" ? { dueDate: tsOf(body.due_date) } : {}),
          clearDueDate: body.due_date === null,
          ...(body.notes !== undefined ? { notes: body.notes } : {}),
          actor: actorOf(p),
        });
        const f = res.finding!;
        return { id: f.id, status: enumName(FindingStatus, f.status), assignee: f.assignee || null, updated_at: iso(f.updatedAt) };
      },
    );

    app.post(
      "/api/v1/findings/:finding_id/comments",
      {
        config: { permission: "write:findings" },
        schema: {
          tags: ["findings"],
          summary: "Add a comment",
          security: anySecurity,
          params: findingIdParams,
          body: { type: "object", additionalProperties: false, required: ["text"], properties: { text: { type: "string", minLength: 1, maxLength: 10_000 } } },
          response: { 201: commentSchema, ...errorResponses(403, 404, 422) },
        },
      },
      async (req, reply) => {
        const { finding_id } = req.params as { finding_id: string };
        const p = principalOf(req);
        const res = await findings.addComment({ orgId: p.orgId, findingId: finding_id, text: (req.body as { text: string }).text, actor: actorOf(p) });
        return reply.code(201).send(commentJson(res.comment!));
      },
    );

    app.get(
      "/api/v1/findings/:finding_id/ai-analysis",
      {
        config: { permission: "read:findings" },
        schema: {
          tags: ["findings"],
          summary: "AI remediation guidance",
          description:
            "Costs one credit of the plan's monthly AI credits (Startup 50, Professional 500, Enterprise 5000); asking again about an unchanged finding is free. Used up: 429 AI_QUOTA_EXCEEDED. `ansible_playbook_id` names a playbook under ansible/playbooks/ when `automation_available`.",
          security: anySecurity,
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
                  },
                },
                ai_credits_used: { type: "integer", description: "Credits this request used: 1, or 0 when answered from cache" },
                ai_credits_remaining: { type: "integer", description: "Credits left this month (0 on unlimited plans)" },
              },
            },
            ...errorResponses(403, 404),
          },
        },
      },
      async (req) => {
        const { finding_id } = req.params as { finding_id: string };
        const p = principalOf(req);
        const res = await findings.getAiAnalysis({ orgId: p.orgId, findingId: finding_id, actor: actorOf(p) }, { timeoutMs: 60_000 });
        const a = res.aiAnalysis!;
        return {
          finding_id: res.findingId,
          ai_analysis: {
            risk_assessment: a.riskAssessment,
            attack_scenarios: a.attackScenarios,
            remediation_priority: a.remediationPriority,
            recommended_actions: a.recommendedActions,
            automation_available: a.automationAvailable,
            ansible_playbook_id: a.ansiblePlaybookId,
          },
          ai_credits_used: res.aiCreditsUsed,
          ai_credits_remaining: res.aiCreditsRemaining,
        };
      },
    );

    app.get(
      "/api/v1/scans/:scan_id/findings",
      {
        config: { permission: "read:findings" },
        schema: {
          tags: ["scans", "findings"],
          summary: "Findings of one scan",
          description: "Every finding the scan detected (including ones first found by an earlier scan), in detection order.",
          security: anySecurity,
          params: { type: "object", required: ["scan_id"], properties: { scan_id: { type: "string", minLength: 1, maxLength: 128 } } },
          querystring: {
            type: "object",
            additionalProperties: false,
            properties: { severity: { type: "string", enum: SEVERITIES }, status: { type: "string", enum: ["open", "in_progress", "resolved", "false_positive"] } },
          },
          response: {
            200: {
              type: "object",
              required: ["items", "total"],
              properties: {
                items: {
                  type: "array",
                  items: {
                    type: "object",
                    required: ["id", "title", "severity", "cvss_score", "status", "tool", "affected_component", "description", "remediation", "cve_ids", "detected_at"],
                    properties: {
                      id: { type: "string" },
                      title: { type: "string" },
                      severity: { type: "string", enum: SEVERITIES },
                      cvss_score: { type: "number" },
                      status: { type: "string", enum: STATUSES },
                      tool: { type: "string" },
                      affected_component: { type: "string" },
                      description: { type: "string" },
                      remediation: { type: "string", description: "Remediation summary" },
                      cve_ids: strings,
                      detected_at: timestamp,
                    },
                  },
                },
                total: { type: "integer" },
              },
            },
            ...errorResponses(403, 404, 422),
          },
        },
      },
      async (req) => {
        const { scan_id } = req.params as { scan_id: string };
        const q = req.query as { severity?: string; status?: string };
        const orgId = principalOf(req).orgId;
        if (opts.scans) await opts.scans.getScan({ orgId, scanId: scan_id });
        const res = await findings.listScanFindings({
          orgId,
          scanId: scan_id,
          ...(q.severity ? { severity: enumValue(Severity, q.severity) } : {}),
          ...(q.status ? { status: enumValue(FindingStatus, q.status) } : {}),
        });
        return {
          items: res.findings.map((f) => ({
            id: f.id,
            title: f.title,
            severity: enumName(Severity, f.severity),
            cvss_score: f.cvssScore,
            status: enumName(FindingStatus, f.status),
            tool: f.tool,
            affected_component: f.affectedComponent,
            description: f.description,
            remediation: f.remediation?.summary ?? "",
            cve_ids: f.cveIds,
            detected_at: iso(f.detectedAt),
          })),
          total: res.total,
        };
      },
    );
  };
