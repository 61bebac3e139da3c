import type { ParsedTarget } from "./target.js";
import type { Page, PageRequest, ScanAnchor, ScanCommand, ScanComparison, ScanEvent, ScanPage, ScanRecord, ScanStatusName, ScheduleRecord } from "./types.js";

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

/**
 * Whether the organization has proved it owns what a scan would touch (issue 29): throws 403
 * TARGET_NOT_VERIFIED or TARGET_VERIFICATION_EXPIRED. A scheduled run re-checks stale proofs first.
 */
export interface TargetGuard {
  guard(orgId: string, target: ParsedTarget, opts: { scheduled: boolean }): Promise<void>;
}

export interface ScanFilter {
  status?: ScanStatusName;
  target?: string;
  from?: Date;
  to?: Date;
}

/** What the last report said: the phase and tool the worker is on, and when it last spoke. */
export interface Activity {
  phase?: string;
  current_tool?: string;
  last_report_at?: Date;
}

export interface ScanStore {
  /** Stores a new scan with its events and scanner records (one single-document insert). */
  insert(scan: ScanRecord, events: ScanEvent[], commands: ScanCommand[]): Promise<void>;
  get(orgId: string, scanId: string): Promise<ScanRecord | null>;
  /**
   * A scan as the API shows it: like `get`, but may be answered from memory while the
   * organization's scans have not changed (never older than a write answered before it). Writes
   * decide on `get`.
   */
  view(orgId: string, scanId: string): Promise<ScanRecord | null>;
  /**
   * Newest first (created_at desc, then _id desc). Without `after`, page `page.page`; with it, the
   * `page.perPage` scans strictly after that one (a range, no skip). `more` tells whether a scan
   * follows the page.
   */
  list(orgId: string, filter: ScanFilter, page: PageRequest, after?: ScanAnchor): Promise<ScanPage>;
  /**
   * Stores `to` with its events and scanner records, in one write, if the scan is still at
   * `from`'s version; false when another writer changed it first.
   */
  transition(from: ScanRecord, to: ScanRecord, events: ScanEvent[], commands: ScanCommand[]): Promise<boolean>;
  /** Records the last report of a running scan's attempt `attempt` (nothing once it ended or moved on). */
  recordActivity(scan: Pick<ScanRecord, "_id" | "org_id" | "attempt">, activity: Activity): Promise<void>;
  /** Pending and running scans of every organization, by id (= creation order), after `afterId` (watchdog). */
  activeAcrossOrganizations(limit: number, afterId?: string): Promise<ScanRecord[]>;
  /** Publishes what a scan stored for Kafka; never throws (a relay retries). */
  publish(scanId: string): Promise<void>;
}

/**
 * Findings' comparison of a scan with an earlier one of its target (issue 28), for scan.completed.
 * `coverage`: the records the scanner sent for the scan's final attempt; findings compares only
 * once it has stored them all (and so every detection before them). Undefined when that did not
 * happen in the implementation's bounded wait or findings could not answer: a scan's completion
 * is never held longer than that, and never fails for it.
 */
export interface ScanComparisons {
  compare(scan: Pick<ScanRecord, "_id" | "org_id">, againstScanId: string, coverage: { attempt: number; records: number }): Promise<ScanComparison | undefined>;
}

export interface ScheduleStore {
  insert(schedule: ScheduleRecord): Promise<void>;
  /** Oldest first. */
  list(orgId: string, page: PageRequest): Promise<Page<ScheduleRecord>>;
  delete(orgId: string, scheduleId: string): Promise<boolean>;
  /** Schedules of every organization due at `now`, earliest first (scheduler). */
  dueAcrossOrganizations(now: Date, limit: number): Promise<ScheduleRecord[]>;
  /**
   * Takes the run due at `runAt` and moves the schedule on to `next`; false when another
   * scheduler took it first, or that run was taken before (a run happens at most once).
   */
  takeRun(scheduleId: string, runAt: Date, next: Date): Promise<boolean>;
  /** Gives a taken run back (it could not be attempted): a later pass takes it again. */
  returnRun(scheduleId: string, runAt: Date, next: Date): Promise<void>;
  /** Moves the schedule on from a run that was taken before and is due again (put back by hand). */
  skipRun(scheduleId: string, runAt: Date, next: Date): Promise<void>;
  /** What a taken run did. */
  recordRun(scheduleId: string, outcome: { scanId?: string; error?: string }, at: Date): Promise<void>;
}

/**
 * The plan limits, exact under any number of concurrent creations: places for pending or
 * running scans, and scans counted per month.
 */
export interface ScanLimits {
  /** Holds one of the organization's `limit` places for the scan; false when all are held. */
  holdPlace(orgId: string, scanId: string, limit: number): Promise<boolean>;
  /** Frees the scan's place (nothing when it holds none). */
  freePlace(orgId: string, scanId: string): Promise<void>;
  /** Every scan holding a place (the watchdog's repair). */
  placesHeld(): Promise<{ orgId: string; scanId: string }[]>;
  /** Counts a scan in the organization's month (`YYYY-MM`); false when `limit` are counted already. */
  countScan(orgId: string, month: string, limit: number): Promise<boolean>;
  scansCounted(orgId: string, month: string): Promise<number>;
}

/**
 * Measured durations of completed scans, per organization and scan type: the latest
 * RECENT_DURATIONS of each (a small running summary, never a query over the scans).
 */
export interface ScanDurations {
  record(orgId: string, scanType: string, seconds: number): Promise<void>;
  /** The latest durations in seconds, oldest first; empty before the first completed scan. */
  recent(orgId: string, scanType: string): Promise<number[]>;
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
