import type { PlanProvider, ScanComparisons, ScanDurations, ScanLimits, ScanObserver, ScanStore, ScheduleStore, TargetGuard } from "./ports.js";
import { ReportUseCase } from "./reports.js";
import { ScanUseCases, type ScanSettings } from "./scans.js";
import { ScheduleUseCases } from "./schedules.js";
import type { TargetPolicy } from "./target.js";
import { Watchdog } from "./watchdog.js";

export interface DomainSettings extends ScanSettings {
  redispatchAfterMs: number;
  maxAttempts: number;
}

export interface ScanDomain {
  scans: ScanUseCases;
  schedules: ScheduleUseCases;
  reports: ReportUseCase;
  watchdog: Watchdog;
}

/** The use cases over their ports; compose.ts passes Mongo/Kafka/auth, unit tests pass fakes. */
export function createScanDomain(deps: {
  scanStore: ScanStore;
  scheduleStore: ScheduleStore;
  plans: PlanProvider;
  policy: TargetPolicy;
  targets: TargetGuard;
  limits: ScanLimits;
  durations: ScanDurations;
  observer: ScanObserver;
  /** Findings' comparisons for scan.completed; none: events carry no comparison. */
  comparisons?: ScanComparisons;
  settings: DomainSettings;
  now: () => Date;
  newId: (prefix: string) => string;
}): ScanDomain {
  const scans = new ScanUseCases({
    store: deps.scanStore,
    plans: deps.plans,
    policy: deps.policy,
    targets: deps.targets,
    limits: deps.limits,
    durations: deps.durations,
    observer: deps.observer,
    settings: deps.settings,
    now: deps.now,
    newScanId: () => deps.newId("scan"),
  });
  const schedules = new ScheduleUseCases({
    store: deps.scheduleStore,
    scans,
    plans: deps.plans,
    policy: deps.policy,
    targets: deps.targets,
    observer: deps.observer,
    now: deps.now,
    newScheduleId: () => deps.newId("schedule"),
  });
  const reports = new ReportUseCase(deps.scanStore, scans.lifecycle, { maxAttempts: deps.settings.maxAttempts }, deps.observer, deps.now, deps.comparisons);
  const watchdog = new Watchdog({
    store: deps.scanStore,
    lifecycle: scans.lifecycle,
    limits: deps.limits,
    settings: { redispatchAfterMs: deps.settings.redispatchAfterMs, maxAttempts: deps.settings.maxAttempts },
    now: deps.now,
  });
  return { scans, schedules, reports, watchdog };
}
