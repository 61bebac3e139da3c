import { assessAll, insightsOf } from "../../intel/analysis.js";
import type { PhaseHandler, Severity } from "../types.js";

/**
 * reporting: the scan's summary (totals per severity and tool, KEV count, top risks), logged
 * and kept for the worker. The orchestrator builds scan.completed from the per-phase counts of
 * the ScanReports, so no new detection is needed here.
 */
export const reporting: PhaseHandler = async (ctx) => {
  ctx.setTool("reporter");
  const insights = insightsOf(ctx);
  const bySeverity: Record<Severity, number> = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  const byTool: Record<string, number> = {};
  for (const d of ctx.detections) {
    bySeverity[d.severity]++;
    byTool[d.tool] = (byTool[d.tool] ?? 0) + 1;
  }
  const ranked = insights.assessments ?? assessAll(ctx.detections, ctx.hosts);
  insights.summary = {
    total: ctx.detections.length,
    bySeverity,
    byTool,
    kev: ctx.detections.filter((d) => d.kev).length,
    topRisks: ranked
      .filter((a) => a.detection.severity !== "info")
      .slice(0, 5)
      .map((a) => ({ title: a.detection.title, affectedComponent: a.detection.affectedComponent, priority: a.priority, score: a.score })),
  };
  ctx.log.info({ scan_id: ctx.scanId, ...insights.summary }, "scan summary");
};
