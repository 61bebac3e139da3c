import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { enumName, enumNameIn, enumValue } from "@vulnscan/kit/enums";
import { validationError } from "@vulnscan/kit/errors";
import type { Actor } from "@vulnscan/proto/vulnscan/common/v1/actor_pb.js";
import { PageInfoSchema, type Pagination } from "@vulnscan/proto/vulnscan/common/v1/pagination_pb.js";
import { QuotaSchema, ScanSchema, ScanStatus, ScanType, ScheduleFrequency, ScheduleSchema } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { SCAN_TYPES, type ScanTypeName } from "@vulnscan/scan-contract";
import type { QuotaView } from "../domain/scans.js";
import type { Frequency } from "../domain/schedule-time.js";
import { SCAN_STATUSES, type ActorRecord, type PageRequest, type ScanRecord, type ScanStatusName, type ScheduleRecord } from "../domain/types.js";

/* Proto ⇄ domain. Handlers only map and delegate; validation of values lives in the domain. */

/*
 * Enums by name (the kit's convention): the domain's strings are the proto values' names in
 * lower case. UNSPECIFIED scan type means the default (full); an unknown number is refused.
 */
export const scanTypeFrom = (t: ScanType): ScanTypeName | undefined =>
  t === ScanType.UNSPECIFIED ? undefined : enumNameIn(ScanType, t, SCAN_TYPES, "scan_type");

export const statusFrom = (s: ScanStatus | undefined): ScanStatusName | undefined =>
  s === undefined ? undefined : enumNameIn(ScanStatus, s, SCAN_STATUSES, "status");

/** UNSPECIFIED (or an unknown number) is no frequency: the domain refuses it, naming the field. */
export const frequencyFrom = (f: ScheduleFrequency): Frequency | undefined => (enumName(ScheduleFrequency, f) as Frequency) || undefined;

/** Page 0 means 1, per_page 0 means 20, above 100 means 100 (common.v1.Pagination); negatives are refused. */
export function pageFrom(p: Pagination | undefined): PageRequest {
  const page = p?.page ?? 0;
  const perPage = p?.perPage ?? 0;
  if (page < 0) throw validationError("page", "page must be 1 or more");
  if (perPage < 0) throw validationError("per_page", "per_page must be between 1 and 100");
  return { page: page || 1, perPage: Math.min(perPage || 20, 100) };
}

export function pageInfo(page: PageRequest, total: number) {
  return create(PageInfoSchema, {
    total,
    page: page.page,
    perPage: page.perPage,
    pages: total === 0 ? 0 : Math.ceil(total / page.perPage),
  });
}

export const dateFrom = (t: Timestamp | undefined): Date | undefined => (t ? timestampDate(t) : undefined);

const ts = (d: Date | undefined) => (d ? timestampFromDate(d) : undefined);

export function actorFrom(a: Actor | undefined): ActorRecord | undefined {
  if (!a || (!a.userId && !a.apiKeyId && !a.displayName)) return undefined;
  return { user_id: a.userId, api_key_id: a.apiKeyId, display_name: a.displayName };
}

function actorTo(a: ActorRecord | undefined): MessageInitShape<typeof ScanSchema>["createdBy"] {
  return a ? { userId: a.user_id, apiKeyId: a.api_key_id, displayName: a.display_name } : undefined;
}

export function scanTo(s: ScanRecord) {
  return create(ScanSchema, {
    id: s._id,
    orgId: s.org_id,
    target: s.target,
    scanType: enumValue(ScanType, s.scan_type),
    status: enumValue(ScanStatus, s.status),
    progress: s.progress,
    phase: s.phase,
    currentTool: s.current_tool,
    createdAt: ts(s.created_at),
    startedAt: ts(s.started_at),
    completedAt: ts(s.completed_at),
    phasesCompleted: s.phases_completed,
    phasesRemaining: s.phases_remaining,
    vulnerabilitiesFound: s.counts.total,
    criticalCount: s.counts.critical,
    highCount: s.counts.high,
    mediumCount: s.counts.medium,
    lowCount: s.counts.low,
    infoCount: s.counts.info,
    frameworks: s.frameworks,
    ports: s.ports,
    estimatedDurationSeconds: s.estimated_duration_seconds,
    error: s.error,
    scheduleId: s.schedule_id ?? "",
    createdBy: actorTo(s.created_by),
  });
}

export function scheduleTo(s: ScheduleRecord) {
  return create(ScheduleSchema, {
    id: s._id,
    orgId: s.org_id,
    target: s.target,
    scanType: enumValue(ScanType, s.scan_type),
    frequency: enumValue(ScheduleFrequency, s.frequency),
    // Absent on the other frequencies: create() leaves an undefined optional field unset.
    dayOfWeek: s.day_of_week,
    dayOfMonth: s.day_of_month,
    hour: s.hour,
    timezone: s.timezone,
    nextRunAt: ts(s.next_run_at),
    createdAt: ts(s.created_at),
    frameworks: s.frameworks,
    ports: s.ports,
    lastScanId: s.last_scan_id,
  });
}

export function quotaTo(q: QuotaView) {
  return create(QuotaSchema, {
    plan: q.plan,
    monthlyLimit: q.monthlyLimit,
    usedThisMonth: q.usedThisMonth,
    remaining: q.remaining,
    resetsAt: ts(q.resetsAt),
    unlimited: q.unlimited,
  });
}
