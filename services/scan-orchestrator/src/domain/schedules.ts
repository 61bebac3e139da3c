import { DomainError, forbidden, notFound, validationError } from "@vulnscan/kit/core";
import type { ScheduleStore } from "./ports.js";
import { isValidTimeZone, nextRunAt, type Frequency } from "./schedule-time.js";
import { checkTarget, validateScanRequest, type CreateScanInput, type RequestDeps, type ScanUseCases } from "./scans.js";
import type { Page, PageRequest, ScheduleRecord } from "./types.js";

export const FREQUENCIES: readonly Frequency[] = ["daily", "weekly", "monthly"];

/** A scan request (without a schedule id: the schedule is being made) and when to repeat it. */
export interface CreateScheduleInput extends Omit<CreateScanInput, "scheduleId"> {
  /** Undefined when the request gave none (or an unknown value). */
  frequency?: Frequency;
  dayOfWeek?: number;
  dayOfMonth?: number;
  hour: number;
  /** Empty means UTC. */
  timezone: string;
}

export const schedulesNotInPlan = () => forbidden("Schedules require the Professional or Enterprise plan", "PLAN_UPGRADE_REQUIRED");

const isInt = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n);

export class ScheduleUseCases {
  constructor(
    private readonly deps: RequestDeps & {
      store: ScheduleStore;
      scans: ScanUseCases;
      newScheduleId: () => string;
    },
  ) {}

  async create(input: CreateScheduleInput): Promise<ScheduleRecord> {
    const plan = await this.deps.plans.planOf(input.orgId);
    if (!plan.schedulesEnabled) throw schedulesNotInPlan();
    const req = validateScanRequest(input);
    const frequency = input.frequency;
    if (!frequency || !FREQUENCIES.includes(frequency)) {
      throw validationError("frequency", `frequency must be one of ${FREQUENCIES.join(", ")}`);
    }
    if (frequency === "weekly") {
      if (!isInt(input.dayOfWeek) || input.dayOfWeek < 0 || input.dayOfWeek > 6) {
        throw validationError("day_of_week", "day_of_week is required for weekly schedules: 0 (Sunday) to 6 (Saturday)");
      }
    } else if (input.dayOfWeek !== undefined) {
      throw validationError("day_of_week", "day_of_week applies to weekly schedules only");
    }
    if (frequency === "monthly") {
      if (!isInt(input.dayOfMonth) || input.dayOfMonth < 1 || input.dayOfMonth > 28) {
        throw validationError("day_of_month", "day_of_month is required for monthly schedules: 1 to 28");
      }
    } else if (input.dayOfMonth !== undefined) {
      throw validationError("day_of_month", "day_of_month applies to monthly schedules only");
    }
    if (!isInt(input.hour) || input.hour < 0 || input.hour > 23) throw validationError("hour", "hour must be 0 to 23");
    const timezone = input.timezone.trim() || "UTC";
    if (!isValidTimeZone(timezone)) {
      throw validationError("timezone", `Unknown time zone "${input.timezone}": use an IANA name such as Europe/Berlin`);
    }
    await checkTarget(req.target, plan, this.deps.policy);
    await this.deps.targets.guard(input.orgId, req.target, { scheduled: false });

    const now = this.deps.now();
    const recurrence = {
      frequency,
      hour: input.hour,
      timezone,
      ...(frequency === "weekly" ? { day_of_week: input.dayOfWeek } : {}),
      ...(frequency === "monthly" ? { day_of_month: input.dayOfMonth } : {}),
    };
    const schedule: ScheduleRecord = {
      _id: this.deps.newScheduleId(),
      org_id: input.orgId,
      target: req.target.raw,
      scan_type: req.scanType,
      ...recurrence,
      frameworks: req.frameworks,
      ports: req.ports,
      ...(input.actor ? { created_by: input.actor } : {}),
      created_at: now,
      next_run_at: nextRunAt(recurrence, now),
      last_scan_id: "",
      last_error: "",
    };
    await this.deps.store.insert(schedule);
    return schedule;
  }

  list(orgId: string, page: PageRequest): Promise<Page<ScheduleRecord>> {
    return this.deps.store.list(orgId, page);
  }

  async delete(orgId: string, scheduleId: string): Promise<void> {
    if (!(await this.deps.store.delete(orgId, scheduleId))) throw notFound("Schedule");
  }

  /**
   * Runs every due schedule once. A run is taken by moving the schedule's next_run_at from the
   * run's time to the next one (a conditional update), so two replicas, or a restart, never run
   * it twice; the taker creates the scan through the same use case as the API (same policy, quota
   * and concurrency). next_run_at moves past now, so a service that was down for days runs each
   * schedule once, not once per missed slot. A crash after the take loses that run, never doubles it.
   */
  async runDue(limit = 100): Promise<{ created: number; refused: number; failed: number }> {
    const { store, observer } = this.deps;
    let created = 0;
    let refused = 0;
    let failed = 0;
    const now = this.deps.now();
    for (const schedule of await store.dueAcrossOrganizations(now, limit)) {
      const runAt = schedule.next_run_at;
      const next = nextRunAt(schedule, new Date(Math.max(now.getTime(), runAt.getTime())));
      if (!(await store.takeRun(schedule._id, runAt, next))) {
        observer.scheduleRun("skipped");
        await store.skipRun(schedule._id, runAt, next);
        continue;
      }
      let outcome: { scanId?: string; error?: string };
      try {
        outcome = await this.runOnce(schedule);
      } catch {
        // Not the request's fault (auth or database unreachable): give the run back so a later
        // pass runs it.
        await store.returnRun(schedule._id, runAt, next);
        failed++;
        continue;
      }
      await store.recordRun(schedule._id, outcome, this.deps.now());
      if (outcome.scanId) created++;
      else refused++;
    }
    return { created, refused, failed };
  }

  private async runOnce(schedule: ScheduleRecord): Promise<{ scanId?: string; error?: string }> {
    try {
      const plan = await this.deps.plans.planOf(schedule.org_id);
      if (!plan.schedulesEnabled) throw schedulesNotInPlan();
      const scan = await this.deps.scans.create(
        {
          orgId: schedule.org_id,
          target: schedule.target,
          scanType: schedule.scan_type,
          frameworks: schedule.frameworks,
          ports: schedule.ports,
          authorized: true, // attested when the schedule was created, recorded for every run
          scheduleId: schedule._id,
        },
        plan,
      );
      this.deps.observer.scheduleRun("created");
      return { scanId: scan._id };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      this.deps.observer.scheduleRun("refused");
      return { error: `${err.errorCode}: ${err.message}` };
    }
  }
}
