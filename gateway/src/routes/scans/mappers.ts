import { ScanStatus, ScanType, ScheduleFrequency, type Quota, type Scan, type Schedule } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import type { FromSchema } from "json-schema-to-ts";
import { enumName, enumValue, extend } from "@vulnscan/kit";
import type { Principal } from "../../auth/principal.js";
import { HttpError } from "../../errors.js";
import { actorOf } from "../../rest.js";
import { iso } from "../../schemas.js";
import type { createScan, createSchedule } from "./schemas.js";

/** proto → JSON for the scans routes; enums by name through the kit's enumName/enumValue. */

/**
 * What a scan and a schedule request share: target and ports trimmed, the caller's attestation
 * (refused with the spec's wording when not true), the actor.
 */
export function scanSpecOf(body: FromSchema<typeof createScan.body> | FromSchema<typeof createSchedule.body>, p: Principal) {
  if (body.authorized !== true)
    throw new HttpError(422, "VALIDATION_ERROR", "authorized must be true: only scan targets you are authorized to test", "authorized");
  return {
    orgId: p.orgId,
    target: body.target.trim(),
    scanType: enumValue(ScanType, body.scan_type),
    frameworks: body.frameworks ?? [],
    ports: body.ports?.trim() ?? "",
    authorized: true,
    actor: actorOf(p),
  };
}

export function listItem(s: Scan) {
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

export function detail(s: Scan) {
  return extend(listItem(s), {
    current_tool: s.currentTool,
    ...(s.startedAt ? { started_at: iso(s.startedAt) } : {}),
    phases_completed: s.phasesCompleted,
    phases_remaining: s.phasesRemaining,
    info_count: s.infoCount,
    frameworks: s.frameworks,
    ports: s.ports,
    estimated_duration: s.estimatedDurationSeconds,
    ...(s.error ? { error: s.error } : {}),
  });
}

/** The short answer of `POST /api/v1/scans`. */
export const created = (s: Scan) => ({
  id: s.id,
  target: s.target,
  scan_type: enumName(ScanType, s.scanType),
  status: enumName(ScanStatus, s.status),
  created_at: iso(s.createdAt),
  estimated_duration: s.estimatedDurationSeconds,
});

export function scheduleJson(s: Schedule) {
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

/** An unlimited plan has no limit and nothing remaining: both null. */
export const quotaJson = (q: Quota) => ({
  plan: q.plan,
  monthly_limit: q.unlimited ? null : q.monthlyLimit,
  used_this_month: q.usedThisMonth,
  remaining: q.unlimited ? null : q.remaining,
  resets_at: iso(q.resetsAt),
  unlimited: q.unlimited,
});
