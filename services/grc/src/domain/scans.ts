import { createHash } from "node:crypto";
import type { Catalogue, ComplianceMap } from "@vulnscan/compliance-catalogue";
import type { Controls } from "./controls.js";
import type { Evidence } from "./evidence.js";
import type { ControlStore, ScanStore } from "./ports.js";
import { controlIdOf } from "./view.js";

export interface ScanCreated {
  orgId: string;
  scanId: string;
  scanType: string;
  target: string;
  frameworks: string[];
  at: Date;
}

export interface ScanCompleted {
  orgId: string;
  scanId: string;
  target: string;
  durationSeconds: number;
  findings: Record<string, number>;
  at: Date;
}

/** One evidence id per scan, so a redelivered scan.completed finds the item it made. */
export const scanEvidenceId = (scanId: string) => `evidence_${createHash("sha256").update(`scan|${scanId}`).digest("hex").slice(0, 28)}`;

/**
 * Compliance scans as evidence. scan.created tells the scan type and frameworks (scan.completed
 * does not carry them), so compliance scans are remembered then; their scan.completed becomes a
 * dated, hashed JSON report on every control the scan's checks test (the catalogue's CWE mapping
 * for its frameworks), and those controls' last_tested_at moves.
 */
export class ComplianceScans {
  constructor(
    private readonly deps: {
      catalogue: Catalogue;
      mapping: ComplianceMap;
      scans: ScanStore;
      controls: Controls;
      controlStore: ControlStore;
      evidence: Evidence;
    },
  ) {}

  async created(s: ScanCreated): Promise<void> {
    if (s.scanType !== "compliance") return;
    await this.deps.scans.remember({ _id: s.scanId, org_id: s.orgId, target: s.target, frameworks: s.frameworks, created_at: s.at });
  }

  async completed(s: ScanCompleted): Promise<boolean> {
    const scan = await this.deps.scans.get(s.scanId);
    if (!scan || scan.org_id !== s.orgId) return false;
    const tested = this.deps.mapping
      .testedRefs(scan.frameworks)
      .flatMap((m) => m.controls.map((ref) => this.deps.catalogue.get(m.name, ref)))
      .filter((c) => c !== undefined)
      .map((c) => ({ id: controlIdOf(s.orgId, c.key), key: c.key, framework: c.framework, ref: c.ref }));
    if (!tested.length) return false;
    const report = {
      kind: "vulnscan compliance scan report",
      scan_id: s.scanId,
      target: scan.target,
      frameworks: scan.frameworks.length ? scan.frameworks : this.deps.catalogue.frameworks.map((f) => f.id),
      completed_at: s.at.toISOString(),
      duration_seconds: s.durationSeconds,
      findings: s.findings,
      controls_tested: tested.map((c) => ({ control_id: c.id, framework: c.framework, ref: c.ref })),
    };
    await this.deps.controlStore.markTested(s.orgId, tested, s.at);
    return this.deps.evidence.fromScan({
      id: scanEvidenceId(s.scanId),
      orgId: s.orgId,
      scanId: s.scanId,
      controlIds: tested.map((c) => c.id),
      name: `compliance-scan-${s.scanId}.json`,
      title: `Compliance scan of ${scan.target}`,
      report: new TextEncoder().encode(`${JSON.stringify(report, null, 2)}\n`),
      at: s.at,
    });
  }
}
