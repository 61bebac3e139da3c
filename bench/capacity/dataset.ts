// The organization's data, generated deterministically from (organization, sizes, anchor time):
// the same call gives the same ids and documents, so an interrupted seeding resumes and a later
// run finds the ids it measures without reading them back. Documents are built with the
// services' own domain code (newFinding, applyUpdate, fingerprint; the orchestrator's transition
// steps), in the shape their storage writes once every write has settled.
import { createHash } from "node:crypto";
import { phasesFor, SCAN_TYPES, type ScanTypeName } from "@vulnscan/scan-contract";
import { applyUpdate, newFinding } from "../../services/findings/src/domain/changes.js";
import { fingerprint } from "../../services/findings/src/domain/fingerprint.js";
import { SEVERITIES, STATUSES, type Actor, type DetectionFacts, type Severity, type Status } from "../../services/findings/src/domain/types.js";
import type { StoredFinding } from "../../services/findings/src/storage/finding-store.js";
import { DEFAULT_MAX_DURATION_SECONDS } from "../../services/scan-orchestrator/src/config.js";
import { estimateSeconds } from "../../services/scan-orchestrator/src/domain/estimate.js";
import { run, steps } from "../../services/scan-orchestrator/src/domain/transitions.js";
import { zeroCounts, type Counts, type ScanRecord } from "../../services/scan-orchestrator/src/domain/types.js";

export interface DatasetSpec {
  orgId: string;
  findings: number;
  scans: number;
  /** Epoch ms: the newest scan completed just before it; everything spans the 60 days before. */
  anchor: number;
  /** The organization's user, who created the scans and triaged the findings. */
  user: { id: string; email: string };
}

const DAY_MS = 24 * 3600_000;
const WINDOW_MS = 60 * DAY_MS;
const SCAN_MS = 10 * 60_000;
const TARGETS = 100;
const TOOLS = ["nuclei", "nmap", "tls", "headers", "zap"];

/** A uniform number in [0, 1) from (i, salt): a 32-bit integer hash, the same everywhere. */
function uniform(i: number, salt: number): number {
  let x = (Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca6b)) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return (x >>> 0) / 2 ** 32;
}

function pick<T>(u: number, items: readonly T[], weights: readonly number[]): T {
  let acc = 0;
  for (const [k, w] of weights.entries()) {
    acc += w;
    if (u < acc) return items[k]!;
  }
  return items.at(-1)!;
}

/** Severity and status mixes of a scanned estate: mostly low and info, a quarter resolved. */
export const severityOf = (i: number): Severity => pick(uniform(i, 1), SEVERITIES, [0.05, 0.15, 0.3, 0.25, 0.25]);
export const statusOf = (i: number): Status => pick(uniform(i, 2), STATUSES, [0.55, 0.1, 0.25, 0.05, 0.05]);

/** Ids as the kit's newId makes them (`<prefix>_<12 hex ms><16 hex>`), the random part derived from the org and index. */
function idAt(prefix: string, ms: number, spec: DatasetSpec, i: number): string {
  const tail = createHash("sha256").update(`${spec.orgId}:${prefix}:${i}`).digest("hex").slice(0, 16);
  return `${prefix}_${Math.floor(ms).toString(16).padStart(12, "0")}${tail}`;
}

const scanCreatedAt = (spec: DatasetSpec, s: number) => spec.anchor - WINDOW_MS + Math.floor((s * WINDOW_MS) / spec.scans);
const scanOf = (spec: DatasetSpec, i: number) => i % spec.scans;
const targetOf = (s: number) => `host-${s % TARGETS}.capacity.test`;
/** Finding i is the k-th detection of its scan, reported a minute after the scan started, one a second. */
const detectedAt = (spec: DatasetSpec, i: number) => scanCreatedAt(spec, scanOf(spec, i)) + 62_000 + Math.floor(i / spec.scans) * 1000;
const createdAt = (spec: DatasetSpec, i: number) => detectedAt(spec, i) + 1500;

export const findingId = (spec: DatasetSpec, i: number) => idAt("finding", createdAt(spec, i), spec, i);
export const scanId = (spec: DatasetSpec, s: number) => idAt("scan", scanCreatedAt(spec, s), spec, s);

function facts(spec: DatasetSpec, i: number): DetectionFacts {
  const s = scanOf(spec, i);
  const target = targetOf(s);
  const severity = severityOf(i);
  const template = Math.floor(uniform(i, 3) * 400);
  return {
    detection_id: `det_capacity_${i}`,
    org_id: spec.orgId,
    scan_id: scanId(spec, s),
    target,
    template_id: `capacity-check-${template}`,
    title: `Capacity check ${template}: ${severity} issue on ${target}`,
    severity,
    cvss_score: Math.round({ critical: 95, high: 78, medium: 55, low: 30, info: 0 }[severity] + uniform(i, 4) * 5) / 10,
    cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
    cwe_ids: ["CWE-79"],
    cve_ids: uniform(i, 5) < 0.1 ? [`CVE-2024-${10000 + (i % 5000)}`] : [],
    tool: TOOLS[Math.floor(uniform(i, 6) * TOOLS.length)]!,
    affected_component: `https://${target}/path/${i}`,
    description:
      "A realistic amount of description text for a finding, about two hundred characters long, so that the documents have the size they have in production.",
    impact: "An attacker could read or change data they should not.",
    remediation: { summary: "Upgrade the component", steps: ["Upgrade", "Redeploy", "Rescan"], code_example: "", references: ["https://example.test/ref"] },
    evidence: { request: `GET /path/${i} HTTP/1.1\r\nHost: ${target}\r\n\r\n`, response: "HTTP/1.1 200 OK\r\nServer: capacity\r\n\r\n", screenshot_url: null },
    frameworks: [{ name: "pci_dss", controls: ["6.2.4"] }],
    epss_score: Math.round(uniform(i, 7) * 1000) / 1000,
    kev: uniform(i, 8) < 0.02,
    detected_at: new Date(detectedAt(spec, i)),
  };
}

/**
 * Finding i as the findings service stores it: created from its detection (newFinding, rev 1),
 * then, unless open, triaged once by the organization's user (applyUpdate, rev 2), as a PATCH
 * leaves it.
 */
export function findingAt(spec: DatasetSpec, i: number): StoredFinding {
  const f = facts(spec, i);
  const fp = fingerprint(f);
  const created = new Date(createdAt(spec, i));
  const { doc: created1 } = newFinding(f, fp, findingId(spec, i), created);
  let doc: StoredFinding = { ...created1, rev: 1 };
  const status = statusOf(i);
  if (status !== "open") {
    const actor: Actor = { user_id: spec.user.id, api_key_id: "", display_name: spec.user.email };
    const at = new Date(Math.min(created.getTime() + (1 + uniform(i, 9) * 48) * 3600_000, spec.anchor - 1000));
    const change = applyUpdate(doc, { status }, actor, at)!;
    doc = { ...doc, ...change.set, rev: 2 } as StoredFinding;
  }
  return doc;
}

/** What the list totals must say (the rollups' counts), and each scan's findings by severity. */
export interface Expected {
  total: number;
  byStatusSeverity: Record<string, number>;
  perScan: Counts[];
}

export function expected(spec: DatasetSpec): Expected {
  const byStatusSeverity: Record<string, number> = {};
  const perScan = Array.from({ length: spec.scans }, () => zeroCounts());
  for (let i = 0; i < spec.findings; i++) {
    const sev = severityOf(i);
    const key = `${statusOf(i)}|${sev}`;
    byStatusSeverity[key] = (byStatusSeverity[key] ?? 0) + 1;
    const c = perScan[scanOf(spec, i)]!;
    c.total++;
    c[sev]++;
  }
  return { total: spec.findings, byStatusSeverity, perScan };
}

/** Fields the kit's outbox leaves on a document once its events and commands are published. */
const PUBLISHED = { outbox: [], outbox_pending: false, commands: [], commands_pending: false };

/**
 * Scan s as the orchestrator stores it once completed: the document it inserted (request,
 * deadline, estimate) after the transitions its reports made (started, one per phase,
 * completed), each a version, with the last report's phase, tool and time.
 */
export function scanAt(spec: DatasetSpec, s: number, counts: Counts) {
  const type: ScanTypeName = uniform(s, 10) < 0.7 ? "quick" : SCAN_TYPES[1 + Math.floor(uniform(s, 11) * 2)]!;
  const created = new Date(scanCreatedAt(spec, s));
  const maxSeconds = DEFAULT_MAX_DURATION_SECONDS[type];
  const phases = phasesFor(type);
  const scan: ScanRecord = {
    _id: scanId(spec, s),
    org_id: spec.orgId,
    target: targetOf(s),
    scan_type: type,
    frameworks: [],
    ports: "",
    phases,
    estimated_duration_seconds: estimateSeconds(type, 1, undefined, maxSeconds),
    created_by: { user_id: spec.user.id, api_key_id: "", display_name: spec.user.email },
    created_at: created,
    deadline: new Date(created.getTime() + maxSeconds * 1000),
    status: "pending",
    progress: 0,
    phase: "",
    current_tool: "",
    phases_completed: [],
    phases_remaining: phases,
    counts: zeroCounts(),
    error: "",
    attempt: 1,
    attempt_dispatched_at: created,
    version: 0,
  };
  const at = (ms: number) => new Date(created.getTime() + ms);
  const plan = [
    steps.started(at(2000)),
    ...phases.map((phase, k) => steps.phase(phase, Math.floor((100 * (k + 1)) / phases.length), phase === "vulnerability_scanning" ? counts : zeroCounts())),
    steps.completed(at(SCAN_MS)),
  ];
  const done = run({ ...scan, phase: phases[0]! }, plan).scan;
  return { scan: { ...done, last_report_at: at(SCAN_MS), version: plan.length, ...PUBLISHED } };
}
