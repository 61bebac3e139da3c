import { assessAll, insightsOf } from "../../intel/analysis.js";
import type { PhaseHandler } from "../types.js";

/**
 * ai_analysis: the built-in deterministic analyst (no network, no model): every detection gets
 * a 0-100 risk score and a priority from its severity/CVSS, EPSS, KEV listing and exposure
 * (internet-facing or internal). The ranking feeds remediation_planning. An LLM-backed analyst
 * belongs to findings' AI guidance (DESIGN.md §3), not to the scan path.
 */
export const aiAnalysis: PhaseHandler = async (ctx) => {
  ctx.setTool("analyst");
  const assessments = assessAll(
    ctx.detections.filter((d) => d.templateId !== "remediation-plan"),
    ctx.hosts,
  );
  insightsOf(ctx).assessments = assessments;
  ctx.log.info(
    {
      scan_id: ctx.scanId,
      assessed: assessments.length,
      critical: assessments.filter((a) => a.priority === "critical").length,
      high: assessments.filter((a) => a.priority === "high").length,
    },
    "risk analysis",
  );
};
