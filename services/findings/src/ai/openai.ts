import { z } from "zod";
import { analyze, kindOf } from "./analyst.js";
import { contradictions } from "./consistency.js";
import { exposureOf } from "./facts.js";
import type { AiAnalysis, AiProvider, AnalysisInput } from "./provider.js";

const answerSchema = z.object({
  risk_assessment: z.string().min(1).max(4000),
  attack_scenarios: z.array(z.string().min(1).max(1000)).min(1).max(10),
  remediation_priority: z.enum(["immediate", "high", "medium", "low"]),
  recommended_actions: z.array(z.string().min(1).max(1000)).min(1).max(20),
});

const SYSTEM_PROMPT = [
  "You are an application security analyst. You get one vulnerability finding (`finding`: its facts as the scanner reported them) and the analysis our rules wrote for it (`builtin_analysis`).",
  "Rewrite the analysis for a security engineer deciding what to do: clearer, more concrete, keeping every specific command, file, directive, version and link of `builtin_analysis`.",
  "Use only the facts given. Do not change the category or kind of problem (`kind`): a misconfiguration is fixed by changing settings, never by upgrading to a fixed release;",
  "a vulnerability of a software version is fixed by an upgrade or the vendor's mitigation, never by requiring authentication. Do not mention a CVE the finding does not name;",
  "do not say it is known exploited unless `kev` is true; do not say it is reachable from the internet when `exposure` is internal.",
  "Markdown is allowed inside strings (inline code for commands and files). Answer with a JSON object only:",
  '{"risk_assessment": string, "attack_scenarios": string[], "remediation_priority": "immediate"|"high"|"medium"|"low", "recommended_actions": string[]}.',
].join(" ");

/**
 * An OpenAI-compatible chat-completions endpoint (`AI_PROVIDER_URL`, `AI_API_KEY`, `AI_MODEL`),
 * grounded on the built-in analysis: the prompt carries the finding's facts and what the rules
 * said; the answer must have the same JSON shape and contradict none of the facts
 * (consistency.ts). An answer that fails either is refused and the built-in analysis is
 * returned instead, marked `builtin_fallback` with the reason. Priority, category and playbook
 * stay with the rules, so a model can neither downgrade a KEV finding nor name a playbook that
 * does not exist. A transport failure (status, timeout) fails the request: the caller reports
 * the provider unavailable rather than caching a fallback for an unchanged finding.
 */
export class OpenAiCompatibleProvider implements AiProvider {
  readonly id: string;

  constructor(private readonly opts: { url: string; apiKey: string; model: string; timeoutMs: number; fetch?: typeof fetch }) {
    this.id = `openai-compatible:${opts.model}`;
  }

  async analyze(input: AnalysisInput): Promise<AiAnalysis> {
    const rules = analyze(input);
    const kind = kindOf(input);
    const { source: _s, source_detail: _d, ...builtin_analysis } = rules;
    const content = await this.complete({ finding: input, kind, exposure: exposureOf(input), builtin_analysis });
    const refused = (why: string): AiAnalysis => ({ ...rules, source: "builtin_fallback", source_detail: `${this.id}: answer refused (${why})` });

    let answer: z.infer<typeof answerSchema>;
    try {
      answer = answerSchema.parse(JSON.parse(content));
    } catch {
      return refused("not the expected JSON object");
    }
    const wrong = contradictions(input, kind, answer);
    if (wrong.length) return refused(`contradicts the finding: ${wrong[0]!.slice(0, 300)}`);
    return {
      ...answer,
      remediation_priority: rules.remediation_priority,
      automation_available: rules.automation_available,
      ansible_playbook_id: rules.ansible_playbook_id,
      category: rules.category,
      source: "model",
      source_detail: this.id,
    };
  }

  private async complete(user: unknown): Promise<string> {
    const f = this.opts.fetch ?? fetch;
    const res = await f(`${this.opts.url.replace(/\/$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${this.opts.apiKey}` },
      body: JSON.stringify({
        model: this.opts.model,
        temperature: 0,
        response_format: { type: "json_object" },
        messages: [
          { role: "system", content: SYSTEM_PROMPT },
          { role: "user", content: JSON.stringify(user) },
        ],
      }),
      signal: AbortSignal.timeout(this.opts.timeoutMs),
    });
    if (!res.ok) throw new Error(`AI provider answered ${res.status}`);
    const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    return body.choices?.[0]?.message?.content ?? "";
  }
}
