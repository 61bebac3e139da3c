import type { Client } from "@connectrpc/connect";
import {
  ScanService,
  ScanStatus,
  ScanType,
  ScheduleFrequency,
  type Scan,
  type Schedule,
} from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { FULL_PHASES as PHASES, SCAN_TYPES } from "@vulnscan/scan-contract";
import type { FastifyPluginAsync } from "fastify";
import { principalOf } from "../auth/guard.js";
import { HttpError } from "../errors.js";
import { actorOf, CURSOR_DESCRIPTION, cursorEnvelope, cursorEnvelopeSchema, cursorQueryProp, envelope, envelopeSchema, pageQueryProperties, tsOf } from "../rest.js";
import { enumName, enumValue } from "@vulnscan/kit";
import { anySecurity, errorResponses, iso, timestamp } from "../schemas.js";

const FRAMEWORKS = ["soc2", "iso27001", "pci_dss", "hipaa", "gdpr", "nist_csf", "nist_800_53", "cis_controls"] as const;

const countProps = {
  vulnerabilities_found: { type: "integer" },
  critical_count: { type: "integer" },
  high_count: { type: "integer" },
  medium_count: { type: "integer" },
  low_count: { type: "integer" },
} as const;

const scanListItem = {
  type: "object",
  required: ["id", "target", "scan_type", "status", "progress", "phase", "created_at", ...Object.keys(countProps)],
  properties: {
    id: { type: "string", description: "`scan_<id>`" },
    target: { type: "string" },
    scan_type: { type: "string", enum: SCAN_TYPES },
    status: { type: "string", enum: ["pending", "running", "completed", "failed", "cancelled"] },
    progress: { type: "integer", minimum: 0, maximum: 100 },
    phase: { type: "string", description: "Current phase; `complete` when finished; empty while pending" },
    created_at: timestamp,
    completed_at: { ...timestamp, description: "Present once completed" },
    ...countProps,
  },
} as const;

const scanDetail = {
  type: "object",
  required: [...scanListItem.required, "current_tool", "phases_completed", "phases_remaining"],
  properties: {
    ...scanListItem.properties,
    current_tool: { type: "string" },
    started_at: timestamp,
    phases_completed: { type: "array", items: { type: "string", enum: PHASES } },
    phases_remaining: { type: "array", items: { type: "string", enum: PHASES } },
    info_count: { type: "integer" },
    frameworks: { type: "array", items: { type: "string" } },
    ports: { type: "string" },
    estimated_duration: { type: "integer", description: "Seconds, estimated at creation" },
    error: { type: "string", description: "Why the scan failed or was cancelled" },
  },
} as const;

const scheduleSchema = {
  type: "object",
  required: ["id", "target", "scan_type", "frequency", "hour", "timezone", "next_run_at", "created_at"],
  properties: {
    id: { type: "string", description: "`schedule_<id>`" },
    target: { type: "string" },
    scan_type: { type: "string", enum: SCAN_TYPES },
    frequency: { type: "string", enum: ["daily", "weekly", "monthly"] },
    day_of_week: { type: "integer", minimum: 0, maximum: 6, description: "Weekly only; 0 = Sunday" },
    day_of_month: { type: "integer", minimum: 1, maximum: 28, description: "Monthly only" },
    hour: { type: "integer", minimum: 0, maximum: 23 },
    timezone: { type: "string", description: "IANA time zone name" },
    frameworks: { type: "array", items: { type: "string" } },
    ports: { type: "string" },
    next_run_at: timestamp,
    last_scan_id: { type: "string" },
    created_at: timestamp,
  },
} as const;

const scanIdParams = { type: "object", required: ["scan_id"], properties: { scan_id: { type: "string", maxLength: 128 } } } as const;

function listItem(s: Scan) {
  const status = enumName(ScanStatus, s.status);
  return {
    id: s.id,
    target: s.target,
    scan_type: enumName(ScanType, s.scanType),
    status,
    progress: s.progress,
    phase: s.phase,
    created_at: iso(s.createdAt),
    // The spec shows completed_at "once completed".
    ...(status === "completed" ? { completed_at: iso(s.completedAt) } : {}),
    vulnerabilities_found: s.vulnerabilitiesFound,
    critical_count: s.criticalCount,
    high_count: s.highCount,
    medium_count: s.mediumCount,
    low_count: s.lowCount,
  };
}

function detail(s: Scan) {
  return {
    ...listItem(s),
    current_tool: s.currentTool,
    ...(s.startedAt ? { started_at: iso(s.startedAt) } : {}),
    phases_completed: s.phasesCompleted,
    phases_remaining: s.phasesRemaining,
    info_count: s.infoCount,
    frameworks: s.frameworks,
    ports: s.ports,
    estimated_duration: s.estimatedDurationSeconds,
    ...(s.error ? { error: s.error } : {}),
  };
}

function scheduleJson(s: Schedule) {
  return {
    id: s.id,
    target: s.target,
    scan_type: enumName(ScanType, s.scanType),
    frequency: enumName(ScheduleFrequency, s.frequency),
    ...(s.dayOfWeek !== undefined ? { day_of_week: s.dayOfWeek } : {}),
    ...(s.dayOfMonth !== undefined ? { day_of_month: s.dayOfMonth } : {}),
    hour: s.hour,
    timezone: s.timezone,
    frameworks: s.frameworks,
    ports: s.ports,
    next_run_at: iso(s.nextRunAt),
    ...(s.lastScanId ? { last_scan_id: s.lastScanId } : {}),
    created_at: iso(s.createdAt),
  };
}

const targetProp = { type: "string", minLength: 1, maxLength: 253, description: "Domain, IPv4/IPv6 address or CIDR range" } as const;
const portsProp = { type: "string", maxLength: 1024, description: 'Ports and ranges, e.g. "22,80,443,8000-8100"; default: common ports' } as const;
const frameworksProp = { type: "array", maxItems: 8, uniqueItems: true, items: { type: "string", enum: FRAMEWORKS } } as const;

/** Scans, quota and schedules (spec "Scans"), served by scan-orchestrator. */
export const scanRoutes =
  (scans: Client<typeof ScanService>): FastifyPluginAsync =>
  async (app) => {
    app.post(
      "/api/v1/scans",
      {
        config: { permission: "write:scans" },
        schema: {
          tags: ["scans"],
          summary: "Start a scan",
          security: anySecurity,
          body: {
            type: "object",
            additionalProperties: false,
            required: ["target", "authorized"],
            properties: {
              target: targetProp,
              scan_type: { type: "string", enum: SCAN_TYPES, default: "full" },
              frameworks: frameworksProp,
              ports: portsProp,
              authorized: { type: "boolean", description: "Attestation that you are authorized to scan the target; must be true" },
            },
          },
          response: {
            201: {
              type: "object",
              required: ["id", "target", "scan_type", "status", "created_at", "estimated_duration"],
              properties: {
                id: { type: "string" },
                target: { type: "string" },
                scan_type: { type: "string", enum: SCAN_TYPES },
                status: { type: "string", enum: ["pending"] },
                created_at: timestamp,
                estimated_duration: { type: "integer", description: "Seconds" },
              },
            },
            ...errorResponses(403, 422),
          },
        },
      },
      async (req, reply) => {
        const body = req.body as { target: string; scan_type: string; frameworks?: string[]; ports?: string; authorized: boolean };
        if (body.authorized !== true) throw new HttpError(422, "VALIDATION_ERROR", "authorized must be true: only scan targets you are authorized to test", "authorized");
        const { scan } = await scans.createScan({
          orgId: principalOf(req).orgId,
          target: body.target.trim(),
          scanType: enumValue(ScanType, body.scan_type),
          frameworks: body.frameworks ?? [],
          ports: body.ports?.trim() ?? "",
          authorized: true,
          actor: actorOf(principalOf(req)),
        });
        return reply.code(201).send({
          id: scan!.id,
          target: scan!.target,
          scan_type: enumName(ScanType, scan!.scanType),
          status: enumName(ScanStatus, scan!.status),
          created_at: iso(scan!.createdAt),
          estimated_duration: scan!.estimatedDurationSeconds,
        });
      },
    );

    app.get(
      "/api/v1/scans",
      {
        config: { permission: "read:scans" },
        schema: {
          tags: ["scans"],
          summary: "List scans, newest first",
          description: "Filters combine with AND; ties in created_at are ordered by id. " + CURSOR_DESCRIPTION,
          security: anySecurity,
          querystring: {
            type: "object",
            additionalProperties: false,
            properties: {
              ...pageQueryProperties,
              status: { type: "string", enum: ["pending", "running", "completed", "failed", "cancelled"] },
              target: { type: "string", maxLength: 253 },
              from_date: { ...timestamp, description: "Scans created at or after" },
              to_date: { ...timestamp, description: "Scans created before" },
              cursor: cursorQueryProp,
            },
          },
          response: { 200: cursorEnvelopeSchema(scanListItem), ...errorResponses(403, 422) },
        },
      },
      async (req) => {
        const q = req.query as { page: number; per_page: number; status?: string; target?: string; from_date?: string; to_date?: string; cursor?: string };
        const res = await scans.listScans({
          orgId: principalOf(req).orgId,
          pagination: { page: q.page, perPage: q.per_page },
          status: q.status ? enumValue(ScanStatus, q.status) : undefined,
          target: q.target,
          fromDate: tsOf(q.from_date),
          toDate: tsOf(q.to_date),
          cursor: q.cursor ?? "",
        });
        return cursorEnvelope(res.scans.map(listItem), res.pageInfo, res.nextCursor);
      },
    );

    app.get(
      "/api/v1/scans/quota",
      {
        config: { permission: "read:scans" },
        schema: {
          tags: ["scans"],
          summary: "Scan quota of the current month",
          security: anySecurity,
          response: {
            200: {
              type: "object",
              required: ["plan", "monthly_limit", "used_this_month", "remaining", "resets_at"],
              properties: {
                plan: { type: "string", enum: ["startup", "professional", "enterprise"] },
                monthly_limit: { type: ["integer", "null"], description: "null when the plan is unlimited" },
                used_this_month: { type: "integer" },
                remaining: { type: ["integer", "null"], description: "null when the plan is unlimited" },
                resets_at: timestamp,
                unlimited: { type: "boolean" },
              },
            },
            ...errorResponses(403),
          },
        },
      },
      async (req) => {
        const { quota } = await scans.getQuota({ orgId: principalOf(req).orgId });
        return {
          plan: quota!.plan,
          monthly_limit: quota!.unlimited ? null : quota!.monthlyLimit,
          used_this_month: quota!.usedThisMonth,
          remaining: quota!.unlimited ? null : quota!.remaining,
          resets_at: iso(quota!.resetsAt),
          unlimited: quota!.unlimited,
        };
      },
    );

    app.post(
      "/api/v1/scans/schedules",
      {
        config: { permission: "write:scans" },
        schema: {
          tags: ["schedules"],
          summary: "Create a recurring scan (Professional and Enterprise)",
          security: anySecurity,
          body: {
            type: "object",
            additionalProperties: false,
            required: ["target", "frequency", "hour", "timezone"],
            properties: {
              target: targetProp,
              scan_type: { type: "string", enum: SCAN_TYPES, default: "full" },
              frequency: { type: "string", enum: ["daily", "weekly", "monthly"] },
              day_of_week: { type: "integer", minimum: 0, maximum: 6, description: "Required for weekly; 0 = Sunday" },
              day_of_month: { type: "integer", minimum: 1, maximum: 28, description: "Required for monthly" },
              hour: { type: "integer", minimum: 0, maximum: 23 },
              timezone: { type: "string", minLength: 1, maxLength: 64, description: "IANA name, e.g. Europe/Berlin" },
              frameworks: frameworksProp,
              ports: portsProp,
              authorized: { type: "boolean", default: true, description: "Attestation recorded for every run; false is refused" },
            },
          },
          response: { 201: scheduleSchema, ...errorResponses(403, 422) },
        },
      },
      async (req, reply) => {
        const b = req.body as {
          target: string; scan_type: string; frequency: string; day_of_week?: number; day_of_month?: number;
          hour: number; timezone: string; frameworks?: string[]; ports?: string; authorized: boolean;
        };
        if (b.authorized !== true) throw new HttpError(422, "VALIDATION_ERROR", "authorized must be true: only scan targets you are authorized to test", "authorized");
        const { schedule } = await scans.createSchedule({
          orgId: principalOf(req).orgId,
          target: b.target.trim(),
          scanType: enumValue(ScanType, b.scan_type),
          frequency: enumValue(ScheduleFrequency, b.frequency),
          dayOfWeek: b.day_of_week,
          dayOfMonth: b.day_of_month,
          hour: b.hour,
          timezone: b.timezone,
          frameworks: b.frameworks ?? [],
          ports: b.ports?.trim() ?? "",
          authorized: true,
          actor: actorOf(principalOf(req)),
        });
        return reply.code(201).send(scheduleJson(schedule!));
      },
    );

    app.get(
      "/api/v1/scans/schedules",
      {
        config: { permission: "read:scans" },
        schema: {
          tags: ["schedules"],
          summary: "List schedules",
          security: anySecurity,
          querystring: { type: "object", additionalProperties: false, properties: pageQueryProperties },
          response: { 200: envelopeSchema(scheduleSchema), ...errorResponses(403, 422) },
        },
      },
      async (req) => {
        const q = req.query as { page: number; per_page: number };
        const res = await scans.listSchedules({ orgId: principalOf(req).orgId, pagination: { page: q.page, perPage: q.per_page } });
        return envelope(res.schedules.map(scheduleJson), res.pageInfo);
      },
    );

    app.delete(
      "/api/v1/scans/schedules/:schedule_id",
      {
        config: { permission: "write:scans" },
        schema: {
          tags: ["schedules"],
          summary: "Delete a schedule (scans it created are kept)",
          security: anySecurity,
          params: { type: "object", required: ["schedule_id"], properties: { schedule_id: { type: "string", maxLength: 128 } } },
          response: {
            200: { type: "object", required: ["id", "status", "message"], properties: { id: { type: "string" }, status: { type: "string", enum: ["deleted"] }, message: { type: "string" } } },
            ...errorResponses(403, 404),
          },
        },
      },
      async (req) => {
        const { schedule_id } = req.params as { schedule_id: string };
        await scans.deleteSchedule({ orgId: principalOf(req).orgId, scheduleId: schedule_id });
        return { id: schedule_id, status: "deleted", message: "Schedule deleted" };
      },
    );

    app.get(
      "/api/v1/scans/:scan_id",
      {
        config: { permission: "read:scans" },
        schema: {
          tags: ["scans"],
          summary: "Scan detail with live progress",
          security: anySecurity,
          params: scanIdParams,
          response: { 200: scanDetail, ...errorResponses(403, 404) },
        },
      },
      async (req) => {
        const { scan_id } = req.params as { scan_id: string };
        const { scan } = await scans.getScan({ orgId: principalOf(req).orgId, scanId: scan_id });
        return detail(scan!);
      },
    );

    app.delete(
      "/api/v1/scans/:scan_id",
      {
        config: { permission: "write:scans" },
        schema: {
          tags: ["scans"],
          summary: "Cancel a pending or running scan",
          description: "A finished scan answers 400 INVALID_STATE.",
          security: anySecurity,
          params: scanIdParams,
          response: {
            200: { type: "object", required: ["id", "status", "message"], properties: { id: { type: "string" }, status: { type: "string", enum: ["cancelled"] }, message: { type: "string" } } },
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (req) => {
        const { scan_id } = req.params as { scan_id: string };
        const res = await scans.cancelScan({ orgId: principalOf(req).orgId, scanId: scan_id, actor: actorOf(principalOf(req)) });
        return { id: res.scan!.id, status: enumName(ScanStatus, res.scan!.status), message: res.message || "Scan cancelled" };
      },
    );
  };
