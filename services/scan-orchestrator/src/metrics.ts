import { counter } from "@vulnscan/kit/metrics";
import type { Registry } from "prom-client";
import type { ScanObserver } from "./domain/ports.js";

/** The orchestrator's own metrics (snake_case, counters end in _total). */
export function scanObserver(registry: Registry): ScanObserver {
  const created = counter(registry, "scans_created_total", "Scans accepted, by type and source (api or schedule)", ["scan_type", "source"]);
  const refused = counter(registry, "scans_refused_total", "Scan creations refused by a plan limit, by reason (concurrency, monthly_quota)", ["reason"]);
  const finished = counter(registry, "scans_finished_total", "Scans that reached a terminal status, by status", ["status"]);
  const redispatched = counter(registry, "scan_redispatches_total", "Jobs dispatched again (attempt + 1) after a silent or crashed worker");
  const reports = counter(registry, "scan_reports_total", "Scanner reports consumed, by kind and outcome (applied, ignored)", ["kind", "outcome"]);
  const scheduleRuns = counter(registry, "schedule_runs_total", "Due schedule runs, by outcome (created, refused, skipped: another replica ran it)", [
    "outcome",
  ]);
  return {
    created: (scanType, source) => created.inc({ scan_type: scanType, source }),
    refused: (reason) => refused.inc({ reason }),
    finished: (status) => finished.inc({ status }),
    redispatched: () => redispatched.inc(),
    report: (kind, outcome) => reports.inc({ kind, outcome }),
    scheduleRun: (outcome) => scheduleRuns.inc({ outcome }),
  };
}
