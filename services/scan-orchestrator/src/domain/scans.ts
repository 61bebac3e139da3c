import { decodeCursor, encodeCursor, invalidState, notFound, quotaExceeded, validationError } from "@vulnscan/kit/core";
import { phasesFor, SCAN_TYPES, type ScanTypeName } from "@vulnscan/scan-contract";
import { estimateSeconds, measuredEstimate } from "./estimate.js";
import { parseFrameworks } from "./frameworks.js";
import { Lifecycle } from "./lifecycle.js";
import { monthKey, startOfNextMonth } from "./month.js";
import { parsePorts, portCount } from "./port-spec.js";
import type { PlanFacts, PlanProvider, PlanTierName, ScanDurations, ScanFilter, ScanLimits, ScanObserver, ScanStore, TargetGuard } from "./ports.js";
import { checkRangeSize, hostCount, parseTarget, type ParsedTarget, type TargetPolicy } from "./target.js";
import { steps } from "./transitions.js";
import { isTerminal, zeroCounts, type ActorRecord, type PageRequest, type ScanAnchor, type ScanRecord } from "./types.js";

export interface ScanListPage {
  items: ScanRecord[];
  total: number;
  /** The page served (its number comes from the cursor when one was given). */
  page: PageRequest;
  /** Cursor of the next page; empty on the last one. */
  nextCursor: string;
}

/**
 * What a cursor is bound to: the organization, the filters and the one order scans are listed in.
 * A cursor of another organization or of other filters is refused (its hash differs).
 */
export function scanListDescription(orgId: string, f: ScanFilter) {
  return { list: "scans", org_id: orgId, status: f.status, target: f.target, from: f.from?.getTime(), to: f.to?.getTime(), order: "created_at desc, _id desc" };
}

/** A decoded scans cursor; its key must be a date (a hand-made cursor with another key is not ours). */
function anchorOf(c: ReturnType<typeof decodeCursor>): { page: number; after: ScanAnchor } {
  if (!(c.anchor.key instanceof Date)) throw validationError("cursor", "cursor is not a cursor this API issued");
  return { page: c.page, after: { createdAt: c.anchor.key, id: c.anchor.id } };
}

/** Retry-After of CONCURRENT_SCAN_LIMIT: the shortest scan runs minutes, so polling faster gains nothing. */
export const CONCURRENT_RETRY_AFTER_SECONDS = 30;

export interface ScanSettings {
  /** Per type: the scan fails when it runs longer (its deadline). */
  maxDurationSeconds: Record<ScanTypeName, number>;
}

export interface CreateScanInput {
  orgId: string;
  target: string;
  /** Undefined means the default, full. */
  scanType?: ScanTypeName;
  frameworks: string[];
  ports: string;
  authorized: boolean;
  actor?: ActorRecord;
  scheduleId?: string;
}

export interface QuotaView {
  plan: PlanTierName;
  unlimited: boolean;
  monthlyLimit: number;
  usedThisMonth: number;
  remaining: number;
  resetsAt: Date;
}

/** The largest number a Limit's max can be; counting an unlimited plan uses it as the limit. */
const UNLIMITED = 2_147_483_647;

/** A scan request that passed validation, before quota. */
export interface ValidScanRequest {
  target: ParsedTarget;
  scanType: ScanTypeName;
  frameworks: string[];
  ports: string;
  portCount: number | undefined;
}

/** Checks that need no plan and no network: authorized, target syntax, type, frameworks, ports. */
export function validateScanRequest(input: {
  target: string;
  scanType?: ScanTypeName;
  frameworks: string[];
  ports: string;
  authorized: boolean;
}): ValidScanRequest {
  if (input.authorized !== true) {
    throw validationError("authorized", "You must confirm that you are authorized to scan this target (authorized: true)");
  }
  const target = parseTarget(input.target);
  const scanType = input.scanType ?? "full";
  if (!SCAN_TYPES.includes(scanType)) throw validationError("scan_type", `scan_type must be one of ${SCAN_TYPES.join(", ")}`);
  const frameworks = parseFrameworks(input.frameworks);
  const ports = parsePorts(input.ports);
  return { target, scanType, frameworks, ports: ports.text, portCount: portCount(ports) };
}

/** The plan's range cap, then the operator's policy (special-purpose ranges, allowlist, DNS). */
export async function checkTarget(target: ParsedTarget, plan: PlanFacts, policy: TargetPolicy): Promise<void> {
  checkRangeSize(target, plan.minCidrPrefixLength);
  await policy.check(target);
}

/** What taking a scan request needs, for a scan now and for a schedule alike. */
export interface RequestDeps {
  plans: PlanProvider;
  policy: TargetPolicy;
  /** Verified targets (issue 29), after the policy: what may be scanned at all comes first. */
  targets: TargetGuard;
  observer: ScanObserver;
  now: () => Date;
}

export class ScanUseCases {
  readonly lifecycle: Lifecycle;

  constructor(
    private readonly deps: RequestDeps & {
      store: ScanStore;
      limits: ScanLimits;
      durations: ScanDurations;
      settings: ScanSettings;
      newScanId: () => string;
    },
  ) {
    this.lifecycle = new Lifecycle(deps.store, deps.limits, deps.observer, deps.durations);
  }

  /**
   * Validates, holds a place among the plan's concurrent scans then counts the scan in the month
   * (both exact under concurrency: guarded `$inc`s), stores the pending scan with its scan.created event and first job, then
   * publishes them. A refused monthly quota frees the place again.
   */
  async create(input: CreateScanInput, plan?: PlanFacts): Promise<ScanRecord> {
    const { deps } = this;
    const req = validateScanRequest(input);
    plan ??= await deps.plans.planOf(input.orgId);
    await checkTarget(req.target, plan, deps.policy);
    await deps.targets.guard(input.orgId, req.target, { scheduled: input.scheduleId !== undefined });

    const now = deps.now();
    const scanId = deps.newScanId();
    const concurrent = plan.concurrentScans;
    if (!concurrent.unlimited && !(await deps.limits.holdPlace(input.orgId, scanId, concurrent.max))) {
      deps.observer.refused("concurrency");
      // When a place frees is not known (a scan runs minutes): Retry-After says when asking again is worth it.
      throw quotaExceeded(
        "CONCURRENT_SCAN_LIMIT",
        `Concurrent scan limit reached: your plan allows ${concurrent.max} pending or running scan${concurrent.max === 1 ? "" : "s"} at a time`,
        CONCURRENT_RETRY_AFTER_SECONDS,
      );
    }
    try {
      const monthly = plan.scansPerMonth;
      // Unlimited plans are counted too, so used_this_month is true for them.
      if (!(await deps.limits.countScan(input.orgId, monthKey(now), monthly.unlimited ? UNLIMITED : monthly.max))) {
        deps.observer.refused("monthly_quota");
        throw quotaExceeded(
          "SCAN_QUOTA_EXCEEDED",
          `Monthly scan quota exhausted: your plan allows ${monthly.max} scans per month; it resets at ${startOfNextMonth(now).toISOString()}`,
          (startOfNextMonth(now).getTime() - now.getTime()) / 1000,
        );
      }
      const maxSeconds = deps.settings.maxDurationSeconds[req.scanType];
      // The organization's recent scans of this type when there are any; the formula otherwise.
      const fallback = estimateSeconds(req.scanType, hostCount(req.target), req.portCount, maxSeconds);
      const estimate = measuredEstimate(await deps.durations.recent(input.orgId, req.scanType), fallback, maxSeconds);
      const scan: ScanRecord = {
        _id: scanId,
        org_id: input.orgId,
        target: req.target.raw,
        scan_type: req.scanType,
        frameworks: req.frameworks,
        ports: req.ports,
        phases: phasesFor(req.scanType),
        estimated_duration_seconds: estimate,
        ...(input.scheduleId ? { schedule_id: input.scheduleId } : {}),
        ...(input.actor ? { created_by: input.actor } : {}),
        created_at: now,
        deadline: new Date(now.getTime() + maxSeconds * 1000),
        status: "pending",
        progress: 0,
        phase: "",
        current_tool: "",
        phases_completed: [],
        phases_remaining: phasesFor(req.scanType),
        counts: zeroCounts(),
        error: "",
        attempt: 1,
        attempt_dispatched_at: now,
        version: 0,
      };
      await deps.store.insert(scan, [{ type: "scan.created", scan }], [{ kind: "job", scan, attempt: 1, phases: scan.phases, at: now }]);
      deps.observer.created(scan.scan_type, input.scheduleId ? "schedule" : "api");
      await deps.store.publish(scan._id);
      return scan;
    } catch (err) {
      if (!concurrent.unlimited) await deps.limits.freePlace(input.orgId, scanId);
      throw err;
    }
  }

  async get(orgId: string, scanId: string): Promise<ScanRecord> {
    // A kept scan may answer (ScanStore.view); a change decided on it is version-checked, and re-read with `get` when it lost.
    const scan = await this.deps.store.view(orgId, scanId);
    if (!scan) throw notFound("Scan");
    return scan;
  }

  /**
   * A page of the list, newest first: by number (a skip), or after a cursor (a range after the
   * previous page's last scan, so deep pages cost what the first does and scans created while a
   * client walks the list do not shift its pages). Each page but the last carries the cursor of
   * the next; a cursor carries the page number it leads to, and `page` is ignored beside it.
   */
  async list(orgId: string, filter: ScanFilter, page: PageRequest, cursor = ""): Promise<ScanListPage> {
    const list = scanListDescription(orgId, filter);
    const from = cursor ? anchorOf(decodeCursor(cursor, list)) : undefined;
    const p = from ? { ...page, page: from.page } : page;
    const found = await this.deps.store.list(orgId, filter, p, from?.after);
    const last = found.items.at(-1);
    const nextCursor = last && found.more ? encodeCursor(list, p.page + 1, { key: last.created_at, id: last._id }) : "";
    return { total: found.total, items: found.items, page: p, nextCursor };
  }

  /** Pending or running → cancelled, once, even when a completion races it. */
  async cancel(orgId: string, scanId: string): Promise<ScanRecord> {
    const scan = await this.get(orgId, scanId);
    const { ignored, scan: after } = await this.lifecycle.change(scan, (s) =>
      isTerminal(s.status) ? { ignored: `Scan is already ${s.status}` } : { steps: [steps.cancelled(this.deps.now())] },
    );
    if (ignored) throw invalidState(ignored);
    return after;
  }

  async quota(orgId: string): Promise<QuotaView> {
    const plan = await this.deps.plans.planOf(orgId);
    const now = this.deps.now();
    const monthly = plan.scansPerMonth;
    const counted = await this.deps.limits.scansCounted(orgId, monthKey(now));
    const used = Math.min(counted, monthly.unlimited ? UNLIMITED : Math.max(monthly.max, 0));
    return {
      plan: plan.tier,
      unlimited: monthly.unlimited,
      monthlyLimit: monthly.unlimited ? 0 : monthly.max,
      usedThisMonth: used,
      remaining: monthly.unlimited ? 0 : Math.max(monthly.max - used, 0),
      resetsAt: startOfNextMonth(now),
    };
  }
}
