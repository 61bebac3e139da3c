import type { DetectionDraft } from "../types.js";
import { baseScore, severityOf } from "../cvss.js";

/*
 * A check's fixed facts (what it is, why it matters, how to fix it) kept apart from what one
 * run found (where, with which request and response). `detection` joins the two, computing
 * score and severity from the vector so every finding of a check is rated the same way.
 * The built-in checks' facts are data: services/scanner/checks/*.yaml (see ../catalogue.ts).
 */

export interface CheckDef {
  templateId: string;
  title: string;
  vector: string;
  cweIds: string[];
  tool: string;
  description: string;
  impact: string;
  remediation: DetectionDraft["remediation"];
  /** Inventory-style checks report `info` whatever the vector says. */
  info?: boolean;
}

export interface Found {
  target: string;
  affectedComponent: string;
  evidence: { request: string; response: string };
  /** Run-specific detail appended to the check's description. */
  detail?: string;
  cveIds?: string[];
}

export function detection(def: CheckDef, found: Found): DetectionDraft {
  const cvssScore = baseScore(def.vector);
  return {
    templateId: def.templateId,
    title: def.title,
    severity: def.info ? "info" : severityOf(cvssScore),
    cvssScore,
    cvssVector: def.vector,
    cweIds: def.cweIds,
    cveIds: found.cveIds ?? [],
    tool: def.tool,
    target: found.target,
    affectedComponent: found.affectedComponent,
    description: found.detail ? `${def.description} ${found.detail}` : def.description,
    impact: def.impact,
    remediation: def.remediation,
    evidence: { request: found.evidence.request.slice(0, 4096), response: found.evidence.response.slice(0, 4096) },
    // Built-in checks read the weakness itself (a header, an algorithm list, a certificate).
    confidence: "confirmed",
  };
}
