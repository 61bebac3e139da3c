import type { ComplianceMap } from "../../intel/compliance.js";
import type { IntelStore } from "../../intel/store.js";
import type { Template } from "../../templates-engine/schema.js";
import type { Phase, PhaseHandler } from "../types.js";
import { aiAnalysis } from "./ai-analysis.js";
import { cloudAnalysis } from "./cloud-analysis.js";
import { complianceMapping } from "./compliance-mapping.js";
import { correlation } from "./correlation.js";
import { discovery } from "./discovery.js";
import { enumeration } from "./enumeration.js";
import { remediationPlanning } from "./remediation-planning.js";
import { reporting } from "./reporting.js";
import { threatIntelligence } from "./threat-intelligence.js";
import { vulnerabilityScanning } from "./vulnerability-scanning.js";
import { webAnalysis } from "./web-analysis.js";

export interface EngineDeps {
  templates: Template[];
  intel: IntelStore;
  compliance: ComplianceMap;
  /** Template checks in flight at once per scan. */
  templateConcurrency?: number;
}

/** One handler per phase; the runner calls those a job lists, in the job's order. */
export function buildPhaseHandlers(deps: EngineDeps): Record<Phase, PhaseHandler> {
  return {
    discovery,
    enumeration,
    vulnerability_scanning: vulnerabilityScanning({
      templates: deps.templates,
      intel: deps.intel,
      ...(deps.templateConcurrency ? { concurrency: deps.templateConcurrency } : {}),
    }),
    web_analysis: webAnalysis,
    cloud_analysis: cloudAnalysis,
    threat_intelligence: threatIntelligence({ intel: deps.intel }),
    correlation: correlation({ templates: deps.templates }),
    compliance_mapping: complianceMapping({ compliance: deps.compliance }),
    ai_analysis: aiAnalysis,
    remediation_planning: remediationPlanning,
    reporting,
  };
}
