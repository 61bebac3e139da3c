import ipaddr from "ipaddr.js";
import type { DetectionDraft, Host, ScanContext, Severity } from "../engine/types.js";

/*
 * The built-in, deterministic analyst (DESIGN.md §3 "AI guidance": no network, same input → same
 * output). It ranks detections by severity/CVSS, exploit likelihood (EPSS), known exploitation
 * (CISA KEV) and exposure (internet-facing or internal address), and turns the ranking into an
 * ordered remediation plan.
 */

export type Priority = "critical" | "high" | "medium" | "low";

export interface RiskAssessment {
  detection: DetectionDraft;
  /** 0-100 */
  score: number;
  priority: Priority;
  exposure: "internet" | "internal";
  reasons: string[];
}

const SEVERITY_BASE: Record<Severity, number> = { critical: 9.5, high: 8, medium: 5.5, low: 2.5, info: 0 };

/** Whether an address is reachable from the internet (public unicast) rather than private, loopback, link-local... */
export function isPublicAddress(address: string): boolean {
  try {
    let a = ipaddr.parse(address);
    if (a.kind() === "ipv6" && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
    return a.range() === "unicast";
  } catch {
    return false;
  }
}

/** Exposure of a detection's target: the address of the host it names (or the target itself). */
export function exposureOf(target: string, hosts: Host[]): "internet" | "internal" {
  const host = hosts.find((h) => h.address === target || h.hostname === target);
  return isPublicAddress(host?.address ?? target) ? "internet" : "internal";
}

export function assessRisk(d: DetectionDraft, exposure: "internet" | "internal"): RiskAssessment {
  const reasons: string[] = [];
  const cvss = d.cvssScore > 0 ? d.cvssScore : SEVERITY_BASE[d.severity];
  let score = cvss * 8; // up to 80 from severity
  reasons.push(d.cvssScore > 0 ? `CVSS ${d.cvssScore.toFixed(1)} (${d.severity})` : `severity ${d.severity}`);
  if (d.kev) {
    score += 20;
    reasons.push("listed in CISA's Known Exploited Vulnerabilities catalogue");
  }
  if (d.epssScore !== undefined) {
    score += 10 * d.epssScore;
    if (d.epssScore >= 0.1) reasons.push(`EPSS ${(d.epssScore * 100).toFixed(1)}% probability of exploitation in the next 30 days`);
  }
  if (d.severity !== "info") {
    if (exposure === "internet") {
      score += 5;
      reasons.push("reachable from the internet");
    } else {
      score -= 5;
      reasons.push("on an internal address");
    }
  }
  score = Math.max(0, Math.min(100, Math.round(score)));
  let priority: Priority = score >= 80 ? "critical" : score >= 55 ? "high" : score >= 30 ? "medium" : "low";
  // Known exploitation of anything above low severity is never left for later.
  if (d.kev && d.severity !== "info" && d.severity !== "low" && (priority === "medium" || priority === "low")) priority = "high";
  return { detection: d, score, priority, exposure, reasons };
}

export function assessAll(detections: DetectionDraft[], hosts: Host[]): RiskAssessment[] {
  return detections
    .map((d) => assessRisk(d, exposureOf(d.target, hosts)))
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.detection.templateId.localeCompare(b.detection.templateId) ||
        a.detection.affectedComponent.localeCompare(b.detection.affectedComponent),
    );
}

export interface PlanAction {
  priority: Priority;
  score: number;
  /** What to do, e.g. "Upgrade OpenSSH 7.2p2 on 10.0.0.5:22". */
  action: string;
  /** Due within, from today. */
  due: string;
  fixes: { templateId: string; title: string; affectedComponent: string }[];
  kev: boolean;
}

const DUE: Record<Priority, string> = { critical: "7 days", high: "30 days", medium: "90 days", low: "180 days" };

/**
 * Groups actionable detections into actions: every CVE matched on one component becomes one
 * upgrade; every other detection is its own action (its remediation summary). Ordered by the
 * highest risk score in the action.
 */
export function buildPlan(assessments: RiskAssessment[]): PlanAction[] {
  const groups = new Map<string, RiskAssessment[]>();
  for (const a of assessments) {
    if (a.detection.severity === "info") continue;
    const key =
      a.detection.tool === "cve-match" ? `upgrade\u0000${a.detection.affectedComponent}` : `${a.detection.templateId}\u0000${a.detection.affectedComponent}`;
    const list = groups.get(key);
    if (list) list.push(a);
    else groups.set(key, [a]);
  }
  const actions: PlanAction[] = [];
  for (const [key, list] of groups) {
    const top = list.reduce((a, b) => (b.score > a.score ? b : a));
    const kev = list.some((a) => a.detection.kev);
    const action = key.startsWith("upgrade\u0000")
      ? `Upgrade ${top.detection.affectedComponent} (fixes ${list.length} known CVE${list.length > 1 ? "s" : ""})`
      : `${top.detection.remediation.summary.replace(/\.$/, "")} — ${top.detection.affectedComponent}`;
    actions.push({
      priority: top.priority,
      score: top.score,
      action,
      due: kev ? "14 days (known exploited)" : DUE[top.priority],
      fixes: list.map((a) => ({ templateId: a.detection.templateId, title: a.detection.title, affectedComponent: a.detection.affectedComponent })),
      kev,
    });
  }
  return actions.sort((a, b) => b.score - a.score || a.action.localeCompare(b.action));
}

export interface ThreatSummary {
  cves: number;
  withEpss: number;
  kev: string[];
  /** CVEs with EPSS ≥ 0.1, highest first. */
  likelyExploited: { cve: string; epss: number }[];
}

export interface ComplianceSummary {
  frameworks: { name: string; controls: { control: string; detections: number }[] }[];
}

export interface ScanSummary {
  total: number;
  bySeverity: Record<Severity, number>;
  byTool: Record<string, number>;
  kev: number;
  topRisks: { title: string; affectedComponent: string; priority: Priority; score: number }[];
}

/** What the later phases learn about one scan, for the phases after them (kept per ScanContext). */
export interface ScanInsights {
  threat?: ThreatSummary;
  correlations: string[];
  compliance?: ComplianceSummary;
  assessments?: RiskAssessment[];
  plan?: PlanAction[];
  summary?: ScanSummary;
}

const insights = new WeakMap<ScanContext, ScanInsights>();

export function insightsOf(ctx: ScanContext): ScanInsights {
  let i = insights.get(ctx);
  if (!i) {
    i = { correlations: [] };
    insights.set(ctx, i);
  }
  return i;
}
