import { assessAll, buildPlan, insightsOf } from "../../intel/analysis.js";
import type { PhaseHandler } from "../types.js";

/**
 * remediation_planning: orders the fixes. Every CVE of one component becomes one upgrade; every
 * other actionable detection its own action; actions are sorted by risk (ai_analysis' scores,
 * computed here if that phase did not run) with a due time per priority. The plan is published
 * as ONE info detection per scan target (template id `remediation-plan`), which findings keeps
 * up to date scan after scan; individual detections keep their own remediation text.
 */
export const remediationPlanning: PhaseHandler = async (ctx) => {
  ctx.setTool("remediation-planner");
  const insights = insightsOf(ctx);
  const assessments =
    insights.assessments ??
    assessAll(
      ctx.detections.filter((d) => d.templateId !== "remediation-plan"),
      ctx.hosts,
    );
  const plan = buildPlan(assessments);
  insights.plan = plan;
  if (!plan.length || ctx.signal.aborted) return;
  const lines = plan.map(
    (a, i) =>
      `${i + 1}. [${a.priority}${a.kev ? ", known exploited" : ""}; within ${a.due}] ${a.action}${a.fixes.length > 1 ? ` — ${a.fixes.length} findings` : ""}`,
  );
  const counts = (p: string) => plan.filter((a) => a.priority === p).length;
  await ctx.report({
    templateId: "remediation-plan",
    title: `Remediation plan: ${plan.length} action${plan.length > 1 ? "s" : ""} for ${ctx.target}`,
    severity: "info",
    cvssScore: 0,
    cvssVector: "",
    cweIds: [],
    cveIds: [],
    tool: "remediation-planner",
    target: ctx.target,
    affectedComponent: ctx.target,
    description: `Actions in order of risk (severity/CVSS, EPSS, CISA KEV, exposure):\n${lines.join("\n")}`,
    impact: `${counts("critical")} critical, ${counts("high")} high, ${counts("medium")} medium and ${counts("low")} low priority actions.`,
    remediation: {
      summary: "Work through the actions from the top; re-scan after each batch.",
      steps: plan.map((a) => `${a.action} (within ${a.due})`),
      codeExample: "",
      references: ["https://www.cisa.gov/known-exploited-vulnerabilities-catalog", "https://www.first.org/epss/"],
    },
    // The plan is derived from the scan's findings, not guessed.
    confidence: "confirmed",
    evidence: {
      request: `analysis of ${assessments.length} detections`,
      response: plan
        .slice(0, 20)
        .map((a) => `${a.score} ${a.priority}: ${a.fixes.map((f) => f.templateId).join(", ")}`)
        .join("\n"),
    },
  });
};
