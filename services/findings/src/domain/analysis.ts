import { createHash } from "node:crypto";
import { quotaExceeded } from "@vulnscan/kit/core";
import type { AiAnalysis, AiProvider, AnalysisInput } from "../ai/provider.js";
import type { AiCredits, AnalysisCache, Clock, PlanPort } from "./ports.js";
import type { Triage } from "./triage.js";
import type { FindingDoc } from "./types.js";

/** AI guidance on one finding, paid in monthly credits of the organization's plan. */
export class Analysis {
  constructor(private readonly deps: { triage: Pick<Triage, "get">; ai: AiProvider; cache: AnalysisCache; credits: AiCredits; plans: PlanPort; now: Clock }) {}

  /**
   * An unchanged finding is answered from the cache at no cost. Otherwise one credit of the
   * month is taken first (exact under concurrency), then the provider runs. Unlimited plans are
   * not counted.
   */
  async analyze(orgId: string, id: string): Promise<{ analysis: AiAnalysis; used: number; remaining: number }> {
    const { ai, cache, credits } = this.deps;
    const f = await this.deps.triage.get(orgId, id);
    const input = analysisInput(f);
    const hash = createHash("sha256").update(ai.id).update(JSON.stringify(input)).digest("hex");
    const limit = await this.deps.plans.aiCredits(orgId);
    const now = this.deps.now();
    const month = now.toISOString().slice(0, 7);
    const cached = await cache.get(orgId, id);
    if (cached && cached.input_hash === hash) {
      const usedSoFar = limit.unlimited ? 0 : await credits.used(orgId, month);
      return { analysis: cached.analysis, used: 0, remaining: limit.unlimited ? 0 : Math.max(0, limit.max - usedSoFar) };
    }
    let remaining = 0;
    if (!limit.unlimited) {
      const position = await credits.take(orgId, month, limit.max);
      if (position === undefined) {
        const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
        throw quotaExceeded(
          "AI_QUOTA_EXCEEDED",
          `AI analysis credits for ${month} are used up (${limit.max} per month on this plan)`,
          (nextMonth - now.getTime()) / 1000,
        );
      }
      remaining = limit.max - position;
    }
    const analysis = await ai.analyze(input);
    await cache.put(orgId, id, { input_hash: hash, analysis }, now);
    return { analysis, used: 1, remaining };
  }
}

export function analysisInput(f: FindingDoc): AnalysisInput {
  return {
    finding_id: f._id,
    title: f.title,
    severity: f.severity,
    cvss_score: f.cvss_score,
    cvss_vector: f.cvss_vector,
    epss_score: f.epss_score,
    kev: f.kev,
    cwe_ids: f.cwe_ids,
    cve_ids: f.cve_ids,
    tool: f.tool,
    template_id: f.template_id,
    target: f.target,
    affected_component: f.affected_component,
    description: f.description,
    impact: f.impact,
    remediation_summary: f.remediation.summary,
    remediation_steps: f.remediation.steps,
    references: f.remediation.references,
    evidence_request: f.evidence.request,
    evidence_response: f.evidence.response,
    confidence: f.confidence ?? "",
  };
}
