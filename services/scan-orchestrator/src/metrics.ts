import { Counter, type Registry } from "prom-client";
import type { ScanObserver } from "./domain/ports.js";

/** The orchestrator's own metrics (snake_case, counters end in _total). */
export function scanObserver(registry: Registry): ScanObserver {
  const created = new Counter({
    name: "scans_created_total",
    help: "Scans accepted, by type and source (api or schedule)",
    labelNames: ["scan_type", "source"],
    registers: [registry],
  });
  const refused = new Counter({
    name: "scans_refused_total",
    help: "Scan creations refused by a plan limit, by reason (concurrency, monthly_quota)",
    labelNames: ["reason"],
    registers: [registry],
  });
  const finished = new Counter({
    name: "scans_finished_total",
    help: "Scans that reached a terminal status, by status",
    labelNames: ["status"],
    registers: [registry],
  });
  const redispatched = new Counter({
    name: "scan_redispatches_total",
    help: "Jobs dispatched again (attempt + 1) after a silent or crashed worker",
    registers: [registry],
  });
  const reports = new Counter({
    name: "scan_reports_total",
    help: "Scanner reports consumed, by kind and outcome (applied, ignored)",
    labelNames: ["kind", "outcome"],
    registers: [registry],
  });
  const scheduleRuns = new Counter({
    name: "schedule_runs_total",
    help: "Due schedule runs, by outcome (created, refused, skipped: another replica ran it)",
    labelNames: ["outcome"],
    registers: [registry],
  });
  return {
    created: (scanType, source) => created.inc({ scan_type: scanType, source }),
    refused: (reason) => refused.inc({ reason }),
    finished: (status) => finished.inc({ status }),
    redispatched: () => redispatched.inc(),
    report: (kind, outcome) => reports.inc({ kind, outcome }),
    scheduleRun: (outcome) => scheduleRuns.inc({ outcome }),
  };
}
