import { readFileSync } from "node:fs";
import { z } from "zod";
import { PLAYBOOK_IDS } from "./playbooks.js";
import type { AnalysisInput } from "./provider.js";

/*
 * One category per finding, from the check that produced it. Words matched anywhere in a
 * finding's text used to collect several categories (a Redis finding whose evidence said
 * "redis_version" also got the "outdated component" advice), so the order here is strict and
 * the first rule that answers decides:
 *   1. the template id (the scanner's check; built-in checks carry their template's id),
 *   2. a CVE id on the finding: a flaw of the software (`vulnerable-version`), whichever engine
 *      found it (a TLS check for Heartbleed is not a TLS configuration problem),
 *   3. the longest template id prefix (`cve:`, `tls-cert-`),
 *   4. the engine (tool: `cve-match`, `tls`, `ssh`, ...),
 *   5. the first CWE some category lists,
 *   6. words of the title only (never description or evidence), as a last resort,
 *   7. `generic`.
 */

export const KINDS = ["misconfiguration", "vulnerability", "informational"] as const;
export type Kind = (typeof KINDS)[number];

const Category = z.strictObject({
  id: z.string().regex(/^[a-z][a-z-]*$/),
  name: z.string().min(1),
  kind: z.enum(KINDS),
  templates: z.array(z.string().min(1)),
  prefixes: z.array(z.string().min(1)),
  tools: z.array(z.string().min(1)),
  cwes: z.array(z.string().regex(/^CWE-\d+$/)),
  words: z.array(z.string().min(1)),
  scenarios: z.array(z.string().min(1)).min(1),
  actions: z.array(z.string().min(1)),
  /** The playbook for a finding of this category whose check has no guidance of its own. */
  playbook: z
    .string()
    .refine((id) => PLAYBOOK_IDS.includes(id), "not a playbook of ansible/playbooks/")
    .optional(),
});
export type Category = z.infer<typeof Category>;

/** The categories are data (data/analyst-categories.json), so wording changes need no code change. */
const file = z
  .object({ categories: z.array(Category).min(1), generic: Category })
  .parse(JSON.parse(readFileSync(new URL("../../data/analyst-categories.json", import.meta.url), "utf8")));

export const CATEGORIES: readonly Category[] = file.categories;
export const GENERIC: Category = file.generic;

export type ClassifiedBy = "template" | "prefix" | "engine" | "cve" | "cwe" | "words" | "none";

export function classify(input: Pick<AnalysisInput, "template_id" | "tool" | "cwe_ids" | "cve_ids" | "title">): { category: Category; by: ClassifiedBy } {
  const byTemplate = CATEGORIES.find((c) => c.templates.includes(input.template_id));
  if (byTemplate) return { category: byTemplate, by: "template" };

  const vulnerable = CATEGORIES.find((c) => c.id === "vulnerable-version");
  if (input.cve_ids.length && vulnerable) return { category: vulnerable, by: "cve" };

  let best: { category: Category; length: number } | undefined;
  for (const c of CATEGORIES)
    for (const p of c.prefixes) if (input.template_id.startsWith(p) && p.length > (best?.length ?? 0)) best = { category: c, length: p.length };
  if (best) return { category: best.category, by: "prefix" };

  const byTool = CATEGORIES.find((c) => c.tools.includes(input.tool));
  if (byTool) return { category: byTool, by: "engine" };

  const cwes = input.cwe_ids.map((c) => c.toUpperCase());
  for (const cwe of cwes) {
    const byCwe = CATEGORIES.find((c) => c.cwes.includes(cwe));
    if (byCwe) return { category: byCwe, by: "cwe" };
  }

  const title = input.title.toLowerCase();
  const byWords = CATEGORIES.find((c) => c.words.some((w) => title.includes(w)));
  if (byWords) return { category: byWords, by: "words" };
  return { category: GENERIC, by: "none" };
}
