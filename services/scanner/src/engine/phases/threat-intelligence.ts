import { insightsOf } from "../../intel/analysis.js";
import type { IntelStore } from "../../intel/store.js";
import type { PhaseHandler } from "../types.js";

/**
 * threat_intelligence: EPSS and CISA KEV for every CVE of the scan. The values are attached to
 * each Detection when it is published (ScanContext.report enriches from the same store; see
 * intel/enrich.ts), so this phase re-checks the scan's detections — filling any that a phase
 * recorded without them — and sums the threat picture up for the analysis and the plan.
 */
export function threatIntelligence(deps: { intel: IntelStore }): PhaseHandler {
  return async (ctx) => {
    ctx.setTool("epss-kev");
    const cves = new Set<string>();
    for (const d of ctx.detections) {
      for (const cve of d.cveIds) {
        cves.add(cve);
        const e = deps.intel.epss(cve);
        if (e && (d.epssScore === undefined || e.epss > d.epssScore)) d.epssScore = e.epss;
        if (deps.intel.kev(cve)) d.kev = true;
      }
    }
    const likely = [...cves].map((cve) => ({ cve, epss: deps.intel.epss(cve)?.epss })).filter((x): x is { cve: string; epss: number } => x.epss !== undefined);
    const threat = {
      cves: cves.size,
      withEpss: likely.length,
      kev: [...cves].filter((c) => deps.intel.kev(c)).sort(),
      likelyExploited: likely.filter((x) => x.epss >= 0.1).sort((a, b) => b.epss - a.epss || a.cve.localeCompare(b.cve)),
    };
    insightsOf(ctx).threat = threat;
    ctx.log.info({ scan_id: ctx.scanId, cves: threat.cves, kev: threat.kev.length, likely_exploited: threat.likelyExploited.length }, "threat intelligence");
  };
}
