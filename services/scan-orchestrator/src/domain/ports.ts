import type { ProjectedFields } from "./projection.js";
import type { Page, PageRequest, ScanAnchor, ScanCommand, ScanEvent, ScanPage, ScanRecord, ScanStatusName, ScheduleRecord, Transition } from "./types.js";

/*
 * What the use cases need from the outside. Tenant queries take the organization id; the few
 * that span organizations (watchdog, scheduler) say so in their name.
 */

export interface Limit {
  unlimited: boolean;
  max: number;
}

export type PlanTierName = "startup" | "professional" | "enterprise";

/** The plan facts the orchestrator enforces (from auth's GetPlan). */
export interface PlanFacts {
  tier: PlanTierName;
  concurrentScans: Limit;
  scansPerMonth: Limit;
  /** Largest CIDR range as the smallest IPv4 prefix length allowed (IPv6: prefix - 96). */
  minCidrPrefixLength: number;
  schedulesEnabled: boolean;
}

export interface PlanProvider {
  planOf(orgId: string): Promise<PlanFacts>;
}

export interface ScanFilter {
  status?: ScanStatusName;
  target?: string;
  from?: Date;
  to?: Date;
}

/** What the last report said (the scan's activity record), besides the transitions. */
export interface Volatile {
  phase?: string;
  current_tool?: string;
  last_report_at?: Date;
}

export interface ScanStore {
  /** Stores a new scan with its events and scanner records (one single-document insert). */
  insert(scan: ScanRecord, events: ScanEvent[], commands: ScanCommand[]): Promise<void>;
  /** The scan with its activity record merged in (phase, current_tool, last_report_at). */
  get(orgId: string, scanId: string): Promise<ScanRecord | null>;
  /**
   * Newest first (created_at desc, then _id desc), each with its activity merged in. Without
   * `after`, page `page.page`; with it, the `page.perPage` scans strictly after that one (a range,
   * no skip). `more` tells whether a scan follows the page.
   */
  list(orgId: string, filter: ScanFilter, page: PageRequest, after?: ScanAnchor): Promise<ScanPage>;
  transitions(scanId: string): Promise<Transition[]>;
  /** Transitions of several scans at once (lists). */
  transitionsOf(scanIds: string[]): Promise<Map<string, Transition[]>>;
  /** Inserts a transition with its events and records; false when it already exists. */
  claim(transition: Transition, events: ScanEvent[], commands: ScanCommand[]): Promise<boolean>;
  /** Writes the projection onto the scan document. */
  save(scanId: string, fields: ProjectedFields): Promise<void>;
  /**
   * Writes the scan's activity record. It is a document of its own: FerretDB v1 rewrites a
   * whole document per update, so fields shared with the outbox relay could be lost.
   */
  touch(scanId: string, fields: Volatile): Promise<void>;
  /** Pending and running scans of every organization, by id (= creation order), after `afterId` (watchdog). */
  activeAcrossOrganizations(limit: number, afterId?: string): Promise<ScanRecord[]>;
  /** Publishes what a scan or a transition stored for Kafka; never throws (a relay retries). */
  publishScan(scanId: string): Promise<void>;
  publishTransition(transitionId: string): Promise<void>;
}

export interface ScheduleStore {
  insert(schedule: ScheduleRecord): Promise<void>;
  /** Oldest first. */
  list(orgId: string, page: PageRequest): Promise<Page<ScheduleRecord>>;
  delete(orgId: string, scheduleId: string): Promise<boolean>;
  /** Schedules of every organization due at `now`, earliest first (scheduler). */
  dueAcrossOrganizations(now: Date, limit: number): Promise<ScheduleRecord[]>;
  /** Claims one run of a schedule (unique insert of schedule id + run time); false when taken. */
  claimRun(schedule: ScheduleRecord, runAt: Date, claimedAt: Date): Promise<boolean>;
  /** Gives a claimed run back (it could not be attempted); a later pass claims it again. */
  releaseRun(schedule: ScheduleRecord, runAt: Date): Promise<void>;
  /** When the run was claimed, if it was. */
  runClaimedAt(schedule: ScheduleRecord, runAt: Date): Promise<Date | undefined>;
  /** Records what a claimed run did and moves next_run_at to `next` (one write). */
  finishRun(schedule: ScheduleRecord, runAt: Date, outcome: { scanId?: string; error?: string }, at: Date, next: Date): Promise<void>;
  /** Moves next_run_at from `runAt` to `next` (idempotent: every replica computes the same `next`). */
  advance(scheduleId: string, runAt: Date, next: Date): Promise<void>;
}

/** Exact concurrency slots (the kit's SlotPool). */
export interface ConcurrencySlots {
  acquire(key: string, limit: number, holder: string): Promise<number | undefined>;
  release(key: string, holder: string): Promise<boolean>;
  heldBefore(before: Date, limit?: number): Promise<{ key: string; holder: string }[]>;
}

/** Exact monthly counting (the kit's SlotCounter). */
export interface MonthlyCounter {
  take(key: string, limit: number, expiresAt: Date): Promise<number | undefined>;
  count(key: string, limit: number): Promise<number>;
}

export interface ScanObserver {
  created(scanType: string, source: "api" | "schedule"): void;
  refused(reason: string): void;
  finished(status: string): void;
  redispatched(): void;
  report(kind: string, outcome: "applied" | "ignored"): void;
  scheduleRun(outcome: "created" | "refused" | "skipped"): void;
}

export const noopObserver: ScanObserver = {
  created: () => undefined,
  refused: () => undefined,
  finished: () => undefined,
  redispatched: () => undefined,
  report: () => undefined,
  scheduleRun: () => undefined,
};
