import { insightsOf } from "../../intel/analysis.js";
import { FRAMEWORK_IDS, type ComplianceMap } from "../../intel/compliance.js";
import type { PhaseHandler } from "../types.js";

/**
 * compliance_mapping: CWE → framework controls (@vulnscan/compliance-catalogue), for the
 * job's frameworks or all eight. Each Detection carries its mapping from the moment it is
 * published (ScanContext.report attaches it; see intel/enrich.ts); this phase fills any
 * detection still without one and sums up, per framework, which controls the scan's
 * detections bear on — what grc turns into control status.
 */
export function complianceMapping(deps: { compliance: ComplianceMap }): PhaseHandler {
  return async (ctx) => {
    ctx.setTool("compliance-mapper");
    const wanted = ctx.frameworks.length ? FRAMEWORK_IDS.filter((f) => ctx.frameworks.includes(f)) : [...FRAMEWORK_IDS];
    const counts = new Map<string, Map<string, number>>(wanted.map((f) => [f, new Map()]));
    for (const d of ctx.detections) {
      d.frameworks ??= deps.compliance.map(d.cweIds, d.cveIds, ctx.frameworks);
      for (const fw of d.frameworks) {
        const controls = counts.get(fw.name);
        if (!controls) continue;
        for (const c of fw.controls) controls.set(c, (controls.get(c) ?? 0) + 1);
      }
    }
    const summary = {
      frameworks: [...counts].map(([name, controls]) => ({
        name,
        controls: [...controls]
          .map(([control, detections]) => ({ control, detections }))
          .sort((a, b) => b.detections - a.detections || a.control.localeCompare(b.control)),
      })),
    };
    insightsOf(ctx).compliance = summary;
    ctx.log.info({ scan_id: ctx.scanId, frameworks: summary.frameworks.map((f) => `${f.name}:${f.controls.length}`) }, "compliance mapping");
  };
}
