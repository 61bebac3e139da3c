import type { DetectionDraft } from "../engine/types.js";
import type { ComplianceMap } from "./compliance.js";
import type { IntelStore } from "./store.js";

export interface EnrichDeps {
  intel: IntelStore;
  compliance: ComplianceMap;
  /** The job's framework ids; empty means every framework. */
  frameworks: readonly string[];
}

/**
 * Completes a detection before it is published: EPSS (the highest score among its CVEs), the
 * CISA KEV flag (any of its CVEs listed) and framework controls (from its CWEs and CVEs,
 * restricted to the job's frameworks). Done at publish time, so every Detection record is
 * complete the first time it is sent: no second, enriched copy that findings would have to
 * merge and that the per-phase finding counts would count twice. A value the reporting phase
 * already set is kept.
 */
export function enrichDetection(d: DetectionDraft, deps: EnrichDeps): DetectionDraft {
  const cves = [...new Set(d.cveIds.map((c) => c.toUpperCase()))];
  let epss = d.epssScore;
  let kev = d.kev ?? false;
  let kevDue = d.kevDueDate;
  for (const cve of cves) {
    const e = deps.intel.epss(cve);
    if (e && (epss === undefined || e.epss > epss)) epss = e.epss;
    const k = deps.intel.kev(cve);
    if (k) kev = true;
    const due = k?.dueDate ? new Date(`${k.dueDate}T00:00:00Z`) : undefined;
    if (due && !Number.isNaN(due.getTime()) && (!kevDue || due < kevDue)) kevDue = due;
  }
  const frameworks = d.frameworks
    ? d.frameworks.filter((f) => !deps.frameworks.length || deps.frameworks.includes(f.name))
    : deps.compliance.map(d.cweIds, cves, deps.frameworks);
  return { ...d, cveIds: cves, ...(epss !== undefined ? { epssScore: epss } : {}), kev, ...(kevDue ? { kevDueDate: kevDue } : {}), frameworks };
}
