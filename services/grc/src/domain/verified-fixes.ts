import { createHash } from "node:crypto";
import type { Catalogue } from "@vulnscan/compliance-catalogue";
import type { Evidence } from "./evidence.js";
import type { ControlStore } from "./ports.js";
import { controlIdOf } from "./view.js";

export interface VerifiedFix {
  orgId: string;
  findingId: string;
  retestId: string;
  title: string;
  severity: string;
  target: string;
  affectedComponent: string;
  templateId: string;
  requestedBy: string;
  frameworks: { name: string; controls: string[] }[];
  at: Date;
}

/** One evidence id per retest, so a redelivered finding.retested finds the item it made. */
export const retestEvidenceId = (retestId: string) => `evidence_${createHash("sha256").update(`retest|${retestId}`).digest("hex").slice(0, 28)}`;

/**
 * A retest that verified a fix (finding.retested, verdict fixed) becomes dated evidence on every
 * control the finding maps to: a small JSON record of what was re-checked, where and when, hashed
 * and stored like a compliance scan's report, and those controls' last_tested_at moves.
 */
export class VerifiedFixes {
  constructor(private readonly deps: { catalogue: Catalogue; controlStore: ControlStore; evidence: Evidence }) {}

  async fixed(v: VerifiedFix): Promise<boolean> {
    const controls = v.frameworks
      .flatMap((m) => m.controls.map((ref) => this.deps.catalogue.get(m.name, ref)))
      .filter((c) => c !== undefined)
      .map((c) => ({ id: controlIdOf(v.orgId, c.key), key: c.key, framework: c.framework, ref: c.ref }));
    if (!controls.length) return false;
    const record = {
      kind: "vulnscan verified fix",
      finding_id: v.findingId,
      retest_id: v.retestId,
      title: v.title,
      severity: v.severity,
      target: v.target,
      affected_component: v.affectedComponent,
      check: v.templateId,
      verdict: "fixed",
      verified_at: v.at.toISOString(),
      requested_by: v.requestedBy,
      controls: controls.map((c) => ({ control_id: c.id, framework: c.framework, ref: c.ref })),
    };
    await this.deps.controlStore.markTested(v.orgId, controls, v.at);
    return this.deps.evidence.fromScan({
      id: retestEvidenceId(v.retestId),
      orgId: v.orgId,
      scanId: v.retestId,
      source: "retest",
      controlIds: controls.map((c) => c.id),
      name: `verified-fix-${v.findingId}-${v.retestId}.json`,
      title: `Verified fix: ${v.title} on ${v.affectedComponent}`,
      report: new TextEncoder().encode(`${JSON.stringify(record, null, 2)}\n`),
      at: v.at,
    });
  }
}
