import { z } from "zod";
import { analyze } from "./analyst.js";
import { PLAYBOOK_IDS } from "./playbooks.js";
import type { AiAnalysis, AiProvider, AnalysisInput } from "./provider.js";

const answerSchema = z.object({
  risk_assessment: z.string().min(1).max(4000),
  attack_scenarios: z.array(z.string().max(1000)).max(10),
  remediation_priority: z.enum(["immediate", "high", "medium", "low"]),
  recommended_actions: z.array(z.string().max(1000)).max(20),
});

const SYSTEM_PROMPT = [
  "You are an application security analyst. Given one vulnerability finding as JSON, answer with a JSON object:",
  '{"risk_assessment": string, "attack_scenarios": string[], "remediation_priority": "immediate"|"high"|"medium"|"low", "recommended_actions": string[]}.',
  "Base the priority on CVSS, EPSS, the CISA KEV flag and exposure. Be concrete and brief. Answer with the JSON object only.",
].join(" ");

/**
 * An OpenAI-compatible chat-completions endpoint (`AI_PROVIDER_URL`, `AI_API_KEY`, `AI_MODEL`).
 * The model writes the prose; the playbook choice stays with the built-in rules, so a model can
 * never name a playbook that does not exist. An answer that is not the expected JSON fails the
 * request (the caller reports it as unavailable) rather than returning something unchecked.
 */
export class OpenAiCompatibleProvider implements AiProvider {
  readonly id: string;

  constructor(private readonly opts: { url: string; apiKey: string; model: string; timeoutMs: number; fetch?: typeof fetch }) {
    this.id = `openai-compatible:${opts.model}`;
  }

  async analyze(input: AnalysisInput): Promise<AiAnalysis> {
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
          { role: "user", content: JSON.stringify(input) },
        ],
      }),
      signal: AbortSignal.timeout(this.opts.timeoutMs),
    });
    if (!res.ok) throw new Error(`AI provider answered ${res.status}`);
    const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    const content = body.choices?.[0]?.message?.content ?? "";
    const answer = answerSchema.parse(JSON.parse(content));
    const rules = analyze(input);
    const playbook = PLAYBOOK_IDS.includes(rules.ansible_playbook_id) ? rules.ansible_playbook_id : "";
    return { ...answer, automation_available: playbook !== "", ansible_playbook_id: playbook };
  }
}
