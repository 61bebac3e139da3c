import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { z } from "zod";
import { playbookFor } from "./playbooks.js";
import type { AiAnalysis, AiProvider, AnalysisInput } from "./provider.js";

/*
 * The built-in analyst: deterministic rules over the facts a finding carries (CWE, CVE, CVSS
 * base score and vector, EPSS, CISA KEV, exposure, component). Same input, same output; no
 * network. Its priority rule, most urgent first:
 *   immediate  listed in KEV, or EPSS ≥ 0.5, or CVSS ≥ 9 reachable from the network
 *   high       CVSS ≥ 7, or EPSS ≥ 0.1, or critical/high severity
 *   medium     CVSS ≥ 4, or medium severity
 *   low        everything else
 */

const Category = z.object({
  name: z.string().min(1),
  cwes: z.array(z.string().regex(/^CWE-\d+$/)),
  words: z.array(z.string().min(1)),
  scenarios: z.array(z.string().min(1)).min(1),
  actions: z.array(z.string().min(1)).min(1),
});
type Category = z.infer<typeof Category>;

/** The categories are data (data/analyst-categories.json), so wording changes need no code change. */
const { categories: CATEGORIES, generic: GENERIC } = z
  .object({ categories: z.array(Category).min(1), generic: Category })
  .parse(JSON.parse(readFileSync(new URL("../../data/analyst-categories.json", import.meta.url), "utf8")));

/** Exposure from the CVSS attack vector and the target's address. */
export function exposureOf(input: Pick<AnalysisInput, "cvss_vector" | "target">): "internet" | "internal" | "adjacent" | "local" {
  const av = /AV:([NALP])/.exec(input.cvss_vector)?.[1];
  if (av === "L" || av === "P") return "local";
  if (av === "A") return "adjacent";
  const host = input.target.replace(/\/\d+$/, "");
  const v = isIP(host);
  if (v === 4 && /^(10\.|127\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.)/.test(host)) return "internal";
  if (v === 6 && /^(::1$|fc|fd|fe80)/i.test(host)) return "internal";
  return "internet";
}

export function priorityOf(input: AnalysisInput): AiAnalysis["remediation_priority"] {
  const exposure = exposureOf(input);
  const epss = input.epss_score ?? 0;
  if (input.kev || epss >= 0.5 || (input.cvss_score >= 9 && (exposure === "internet" || exposure === "internal"))) return "immediate";
  if (input.cvss_score >= 7 || epss >= 0.1 || input.severity === "critical" || input.severity === "high") return "high";
  if (input.cvss_score >= 4 || input.severity === "medium") return "medium";
  return "low";
}

function categoriesOf(input: AnalysisInput, text: string): Category[] {
  const cwes = new Set(input.cwe_ids.map((c) => c.toUpperCase()));
  const found = CATEGORIES.filter((c) => c.cwes.some((w) => cwes.has(w)) || c.words.some((w) => text.includes(w)));
  return found.length ? found.slice(0, 2) : [GENERIC];
}

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

export function analyze(input: AnalysisInput): AiAnalysis {
  const text = `${input.title} ${input.template_id} ${input.affected_component} ${input.description}`.toLowerCase();
  const cwes = new Set(input.cwe_ids.map((c) => c.toUpperCase()));
  const exposure = exposureOf(input);
  const priority = priorityOf(input);
  const cats = categoriesOf(input, text);
  const playbook = playbookFor({ text, cwes });

  const facts: string[] = [
    `${input.severity[0]?.toUpperCase() ?? ""}${input.severity.slice(1)} severity ${cats[0]!.name} (CVSS ${input.cvss_score.toFixed(1)}) in ${input.affected_component || input.target}.`,
  ];
  facts.push(
    exposure === "internet"
      ? "The component is reachable from the internet, so any attacker can try it."
      : exposure === "internal"
        ? "The component is on an internal address; an attacker needs a foothold in the network first."
        : exposure === "adjacent"
          ? "Exploitation needs access to the same network segment."
          : "Exploitation needs local access to the host.",
  );
  if (input.kev) facts.push("It is listed in CISA's Known Exploited Vulnerabilities catalogue: it is being exploited in the wild.");
  if (input.epss_score !== null) {
    facts.push(`EPSS estimates a ${pct(input.epss_score)} probability of exploitation in the next 30 days.`);
  }
  if (input.cve_ids.length) facts.push(`Tracked as ${input.cve_ids.join(", ")}.`);
  if (input.cwe_ids.length) facts.push(`Weakness class: ${input.cwe_ids.join(", ")}.`);
  facts.push(`Remediation priority: ${priority}.`);

  const actions: string[] = [];
  if (priority === "immediate")
    actions.push(
      input.kev
        ? "Patch or mitigate now: CISA BOD 22-01 expects KEV entries fixed within weeks at most"
        : "Patch or mitigate now, ahead of normal change windows",
    );
  if (input.remediation_summary) actions.push(input.remediation_summary);
  actions.push(...input.remediation_steps);
  for (const c of cats) actions.push(...c.actions);
  if (playbook) actions.push(`Run the Ansible playbook ${playbook.id}: it ${playbook.does}`);
  if (exposure === "internet" && priority !== "low") actions.push("Until fixed, restrict access to the component with a firewall or allow-list");
  actions.push(`Re-scan ${input.target} to confirm the finding is gone, then mark it resolved`);

  return {
    risk_assessment: facts.join(" "),
    attack_scenarios: [...new Set(cats.flatMap((c) => c.scenarios))],
    remediation_priority: priority,
    recommended_actions: [...new Set(actions.map((a) => a.trim()).filter(Boolean))],
    automation_available: playbook !== undefined,
    ansible_playbook_id: playbook?.id ?? "",
  };
}

export class BuiltinAnalyst implements AiProvider {
  readonly id = "builtin-analyst-v1";
  async analyze(input: AnalysisInput): Promise<AiAnalysis> {
    return analyze(input);
  }
}
