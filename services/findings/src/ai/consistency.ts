import type { Kind } from "./classify.js";
import { type Exposure, exposureOf } from "./facts.js";
import type { AiAnalysis, AnalysisInput } from "./provider.js";

/*
 * Statements that contradict a finding's facts. The built-in analyst is tested to make none of
 * them over the whole catalogue, and a model's answer that makes one is refused (openai.ts).
 * The rules are phrasings, so they catch the usual wording, not every possible one: they are
 * a guard against the known failure (advice for another kind of problem), not a proof.
 */

interface Rule {
  /** Why a statement matching it is wrong for this finding. */
  why: string;
  applies(f: { input: AnalysisInput; kind: Kind; exposure: Exposure }): boolean;
  pattern: RegExp;
}

const NEGATED = /\b(not|no|never|without|isn't|is not|nor)\b/i;

const RULES: Rule[] = [
  {
    why: "recommends a software upgrade for a configuration problem",
    applies: ({ kind }) => kind === "misconfiguration",
    pattern:
      /\b(fixed|patched) (release|version|build)\b|\bupgrade (the component|to (a|the) (fixed|patched|latest|newer))\b|\b(apply|install) (the )?(vendor'?s? )?(security )?patch(es)?\b|\bpatch or mitigate\b|known vulnerabilit(y|ies) of this version|version banners? once patched/i,
  },
  {
    why: "recommends authentication or file removal for a flaw of the software version",
    applies: ({ kind }) => kind === "vulnerability",
    pattern:
      /\b(require|enable|turn on) (authentication|a password|credentials)\b|\brequirepass\b|\bprotected-mode\b|\bremove the exposed files?\b|\brotate every secret\b/i,
  },
  {
    why: "claims the finding is in CISA's Known Exploited Vulnerabilities catalogue, which it is not",
    applies: ({ input }) => !input.kev,
    pattern: /\b(listed|included|appears) in (the )?(CISA'?s? )?(KEV|Known Exploited)\b|\bexploited in the wild\b|\bactively exploited\b/i,
  },
  {
    why: "says the component is reachable from the internet, but its address is internal",
    applies: ({ exposure }) => exposure === "internal",
    pattern:
      /\b(reachable|exposed|accessible|open) (from|to|on) the (public )?internet\b|\binternet-facing\b|\bpublicly (reachable|accessible|exposed)\b|\banyone on the internet\b/i,
  },
];

const CVE = /\bCVE-\d{4}-\d{4,}\b/gi;

/** Every statement of the analysis that contradicts the finding, with the reason. */
export function contradictions(
  input: AnalysisInput,
  kind: Kind,
  analysis: Pick<AiAnalysis, "risk_assessment" | "attack_scenarios" | "recommended_actions">,
): string[] {
  const exposure = exposureOf(input);
  const statements = [...analysis.risk_assessment.split(/(?<=\.)\s+/), ...analysis.attack_scenarios, ...analysis.recommended_actions];
  const known = new Set([input.title, input.template_id, input.description, ...input.cve_ids].join(" ").toUpperCase().match(CVE) ?? []);
  const found: string[] = [];
  for (const s of statements) {
    for (const r of RULES)
      if (r.applies({ input, kind, exposure }) && r.pattern.test(s) && !(r.why.includes("Known Exploited") && NEGATED.test(s))) found.push(`${r.why}: "${s}"`);
    for (const cve of s.toUpperCase().match(CVE) ?? []) if (!known.has(cve)) found.push(`names ${cve}, which the finding does not: "${s}"`);
  }
  return found;
}
