import { componentLocation, coverageCheck, hostLevelCheck } from "@vulnscan/kit/core";
import type { Change } from "./changes.js";
import { statusEvents } from "./events.js";
import type { Clock, FindingRepository } from "./ports.js";
import { SYSTEM, type FindingDoc, type Status } from "./types.js";

/*
 * Scan coverage and what follows from it (issue 28): the comparison of two scans and the
 * auto-resolution that never lies. A finding absent from a scan is `fixed` (or auto-resolved as
 * `not_detected`) only when that scan ran the finding's check, to its end, against the
 * finding's component while the component answered; every other absence is `not_covered`
 * with the reason. The scanner sends one coverage record per host and attempt after the
 * attempt's detections (detection.proto), so a scan's detections are stored before its coverage.
 */

/** One scanner coverage record (detection.proto ScanCoverage), stored per scan, attempt and host. */
export interface CoverageDoc {
  _id: string;
  org_id: string;
  scan_id: string;
  attempt: number;
  outcome: "completed" | "failed" | "cancelled" | string;
  started_at: Date;
  target: string;
  address: string;
  alive: boolean;
  host_checks: string[];
  ports: { port: number; outcome: "answered" | "silent" | string; checks: string[] }[];
  recorded_at: Date;
}

export const coverageId = (scanId: string, attempt: number, address: string) => `${scanId}:${attempt}:${address}`;

export type NotCoveredReason = "host_down" | "port_not_open" | "no_answer" | "check_not_run" | "no_coverage";

/** Whether `coverage` (every record of one scan) ran the finding's check on its component, and why not. */
export function judge(
  f: Pick<FindingDoc, "target" | "tool" | "template_id" | "affected_component">,
  coverage: readonly CoverageDoc[],
): { covered: true } | { covered: false; reason: NotCoveredReason } {
  if (!coverage.length) return { covered: false, reason: "no_coverage" };
  const check = coverageCheck(f.tool, f.template_id);
  if (!check) return { covered: false, reason: "check_not_run" };
  const target = f.target.trim().toLowerCase();
  const hosts = coverage.filter((c) => c.target.toLowerCase() === target || c.address === target);
  if (!hosts.length || !hosts.some((h) => h.alive)) return { covered: false, reason: "host_down" };
  if (hostLevelCheck(check)) return hosts.some((h) => h.host_checks.includes(check)) ? { covered: true } : { covered: false, reason: "check_not_run" };
  const port = Number(componentLocation(f.affected_component).port);
  if (!port) return { covered: false, reason: "check_not_run" };
  const ports = hosts.flatMap((h) => h.ports.filter((p) => p.port === port));
  if (!ports.length) return { covered: false, reason: "port_not_open" };
  const answered = ports.filter((p) => p.outcome === "answered");
  if (!answered.length) return { covered: false, reason: "no_answer" };
  return answered.some((p) => p.checks.includes(check)) ? { covered: true } : { covered: false, reason: "check_not_run" };
}

export const DIFF_BUCKETS = ["new", "fixed", "regressed", "unchanged", "not_covered"] as const;
export type DiffBucketName = (typeof DIFF_BUCKETS)[number];

/** What a comparison needs of a finding. */
export type DiffFinding = Pick<
  FindingDoc,
  "_id" | "title" | "severity" | "status" | "target" | "affected_component" | "template_id" | "tool" | "scan_ids" | "regressed_in" | "severity_rank"
>;

export interface DiffItem {
  finding: DiffFinding;
  reason?: NotCoveredReason;
}

export type ScanDiff = Record<DiffBucketName, DiffItem[]> & { coverage_recorded: boolean };

/**
 * The findings of `newer` against those of `older`. Seen in both: unchanged; seen only in the
 * newer: regressed when the newer scan's detection reopened a resolved finding, else new; seen
 * only in the older: fixed when the newer scan covered its check on its component, else
 * not_covered with the reason. Each bucket is most severe first.
 */
export function diffScans(input: { newerScanId: string; newer: DiffFinding[]; older: DiffFinding[]; coverage: readonly CoverageDoc[] }): ScanDiff {
  const out: ScanDiff = { new: [], fixed: [], regressed: [], unchanged: [], not_covered: [], coverage_recorded: input.coverage.length > 0 };
  const olderIds = new Set(input.older.map((f) => f._id));
  const newerIds = new Set(input.newer.map((f) => f._id));
  for (const f of input.newer) {
    if (olderIds.has(f._id)) out.unchanged.push({ finding: f });
    else if ((f.regressed_in ?? []).includes(input.newerScanId)) out.regressed.push({ finding: f });
    else out.new.push({ finding: f });
  }
  for (const f of input.older) {
    if (newerIds.has(f._id)) continue;
    const j = judge(f, input.coverage);
    if (j.covered) out.fixed.push({ finding: f });
    else out.not_covered.push({ finding: f, reason: j.reason });
  }
  const order = (a: DiffItem, b: DiffItem) => a.finding.severity_rank - b.finding.severity_rank || (a.finding._id < b.finding._id ? -1 : 1);
  for (const b of DIFF_BUCKETS) out[b].sort(order);
  return out;
}

/** Statuses auto-resolution may end: a person's false_positive or accepted is theirs to change. */
const RESOLVABLE: readonly Status[] = ["open", "in_progress"];

/**
 * Auto-resolution of one finding by one completed scan's coverage of its host, or null: only an
 * open or in-progress finding the scan did not detect, last seen before the scan started (an
 * older scan's coverage read late says nothing about a newer detection), whose check the scan
 * covered on its component.
 */
export function autoResolution(f: FindingDoc, scanId: string, coverage: readonly CoverageDoc[], now: Date): Change | null {
  if (!RESOLVABLE.includes(f.status) || f.scan_ids.includes(scanId)) return null;
  const started = Math.min(...coverage.map((c) => c.started_at.getTime()));
  if (!(f.last_seen_at.getTime() < started)) return null;
  if (!judge(f, coverage).covered) return null;
  const set: Change["set"] = {
    status: "resolved",
    resolved_at: now,
    resolution_minutes: Math.max(0, Math.round((now.getTime() - f.detected_at.getTime()) / 60_000)),
    resolution: "not_detected",
    updated_at: now,
    history: [
      ...f.history,
      { action: "status_changed", from: f.status, to: "resolved", user: SYSTEM, timestamp: now },
      { action: "not_detected", from: null, to: scanId, user: SYSTEM, timestamp: now },
    ],
  };
  return { set, events: statusEvents({ ...f, ...set } as FindingDoc, f.status, "resolved", SYSTEM, now) };
}

/** Storage of coverage records and the reads a comparison and auto-resolution make (storage/coverage.ts). */
export interface CoverageStore {
  /** Stores one record (a redelivery replaces it with itself). */
  put(doc: CoverageDoc): Promise<void>;
  /** Every record of one scan of the organization. */
  ofScan(orgId: string, scanId: string): Promise<CoverageDoc[]>;
  /** The findings a scan detected, with what a comparison needs. */
  scanFindings(orgId: string, scanId: string): Promise<DiffFinding[]>;
  /** Ids of the organization's open and in-progress findings on one host. */
  activeOnTarget(orgId: string, target: string): Promise<string[]>;
}

/** Whether an organization auto-resolves (its findings policy). */
export interface AutoResolvePolicy {
  autoResolve(orgId: string): Promise<boolean>;
}

export const DIFF_LIMIT_MAX = 500;

export class ScanDiffs {
  constructor(private readonly deps: { coverage: CoverageStore; findings: FindingRepository; policy: AutoResolvePolicy; now: Clock }) {}

  /**
   * The comparison of two scans of the organization (the caller checked both exist and share a
   * target). With `when`: null until this service holds `when.records` coverage records of the
   * newer scan's attempt `when.attempt` (the scanner sends them after the attempt's detections,
   * so the detections are stored by then). The coverage is read before the findings for that.
   */
  async diff(orgId: string, scanId: string, againstId: string, when?: { attempt: number; records: number }): Promise<ScanDiff | null> {
    const coverage = await this.deps.coverage.ofScan(orgId, scanId);
    if (when && coverage.filter((c) => c.attempt === when.attempt).length < when.records) return null;
    const [newer, older] = await Promise.all([this.deps.coverage.scanFindings(orgId, scanId), this.deps.coverage.scanFindings(orgId, againstId)]);
    return diffScans({ newerScanId: scanId, newer, older, coverage });
  }

  /**
   * Stores one coverage record; when its attempt completed and the organization auto-resolves,
   * resolves what it proves gone on its host. Returns the ids resolved.
   */
  async record(doc: CoverageDoc): Promise<string[]> {
    await this.deps.coverage.put(doc);
    if (doc.outcome !== "completed" || !(await this.deps.policy.autoResolve(doc.org_id))) return [];
    const ids = await this.deps.coverage.activeOnTarget(doc.org_id, doc.target);
    if (!ids.length) return [];
    const now = this.deps.now();
    // The decision on the state each write landed on (a conflicting write asks again).
    const decided = new Map<string, boolean>();
    const changed = await this.deps.findings.change(doc.org_id, ids, (f) => {
      const c = autoResolution(f, doc.scan_id, [doc], now);
      decided.set(f._id, c !== null);
      return c;
    });
    const resolved: string[] = [];
    for (const [id, res] of changed) {
      if (res instanceof Error) throw res;
      if (res && decided.get(id)) resolved.push(id);
    }
    return resolved;
  }
}
