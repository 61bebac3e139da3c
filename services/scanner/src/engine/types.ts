import type { Logger } from "@vulnscan/kit";
import { FULL_PHASES, type PhaseName, type ScanTypeName, type SeverityName } from "@vulnscan/scan-contract";
import type { EgressGuard } from "../net/egress.js";

/*
 * The scan engine's shared vocabulary. A scan runs phases in order over one ScanContext; each
 * phase reads what earlier phases learned (hosts, services) and reports detections as it finds
 * them. Phases reach the network only through src/net (egress-checked, address-pinned).
 */

/** The phases of a full scan, in order: one list, owned by the orchestrator that plans scans. */
export const PHASES = FULL_PHASES;
export type Phase = PhaseName;

export type ScanType = ScanTypeName;
export type Severity = SeverityName;

export interface Host {
  /** IP address, the unit every check connects to. */
  address: string;
  /** The domain name when the target was one (used for Host headers, SNI and finding targets). */
  hostname?: string;
  alive: boolean;
  /** Cloud attribution from published ranges, e.g. provider "aws", region "eu-west-1". */
  provider?: string;
  region?: string;
}

export interface Service {
  host: string;
  hostname?: string;
  port: number;
  /** TLS seen on the port (HTTPS, SMTPS, ...). */
  tls: boolean;
  /** Identified protocol: http, ssh, ftp, smtp, redis, mysql, mongodb, memcached, elasticsearch, ... */
  name?: string;
  product?: string;
  version?: string;
  /** First bytes the service sent or answered (evidence). */
  banner?: string;
  /** CPE 2.3 name when product and version are known, for CVE matching. */
  cpe?: string;
}

/**
 * How far a detection can be trusted without checking it by hand: `confirmed` when the check
 * observed the weakness itself (a file served, an algorithm offered, a login accepted);
 * `version_match` when only a version range matched (a banner, a Server header);
 * `version_match_unverified_backport` when the version matched but the distribution revision the
 * service shows could not be resolved against the distribution's fixed versions, so a backported
 * fix may be installed. Never used to raise a severity.
 */
export type Confidence = "confirmed" | "version_match" | "version_match_unverified_backport";

/** Highest first: folding keeps the strongest evidence any detector had. */
export const CONFIDENCE_ORDER: readonly Confidence[] = ["confirmed", "version_match", "version_match_unverified_backport"];

export interface DetectionDraft {
  /** Check or template id; becomes the finding's template_id and part of its de-duplication key. */
  templateId: string;
  title: string;
  severity: Severity;
  cvssScore: number;
  cvssVector: string;
  cweIds: string[];
  cveIds: string[];
  /** Tool name shown on the finding (our engine's module, e.g. "portscan", "templates", "tls"). */
  tool: string;
  /** Host (name or address) the issue is on. */
  target: string;
  /** What is affected, e.g. "nginx 1.18.0 on 10.0.0.5:443" or a URL. */
  affectedComponent: string;
  description: string;
  impact: string;
  remediation: { summary: string; steps: string[]; codeExample: string; references: string[] };
  evidence: { request: string; response: string };
  confidence: Confidence;
  epssScore?: number;
  kev?: boolean;
  /** The earliest CISA KEV due date among its CVEs (findings' SLA deadline when earlier than the policy's). */
  kevDueDate?: Date;
  frameworks?: { name: string; controls: string[] }[];
}

/** What a job asks for: which scan of which organization, and what to scan how. */
export interface ScanRequest {
  scanId: string;
  orgId: string;
  target: string;
  scanType: ScanType;
  /** Ports to probe, exactly as requested (or the default list). */
  ports: number[];
  frameworks: string[];
}

export interface ScanContext extends ScanRequest {
  signal: AbortSignal;
  guard: EgressGuard;
  log: Logger;
  hosts: Host[];
  services: Service[];
  /** Every detection reported so far in this scan (later phases enrich and correlate). */
  detections: DetectionDraft[];
  setTool(tool: string): void;
  /** Publishes a detection now (detections leave as they are found) and records it in `detections`. */
  report(draft: DetectionDraft): Promise<void>;
  /**
   * Records that a check ran to its end against a service (`port`) or on the host itself (no
   * port): the scan's coverage (kit/coverage.ts check ids). A check cut short is not recorded,
   * so a later comparison calls its findings not covered rather than fixed. Absent in contexts
   * that keep no coverage (retests, tests).
   */
  covered?(address: string, port: number | undefined, check: string): void;
}

export type PhaseHandler = (ctx: ScanContext) => Promise<void>;
