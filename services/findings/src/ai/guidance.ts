import { readFileSync } from "node:fs";
import { z } from "zod";
import type { Location } from "./facts.js";
import { PLAYBOOK_IDS } from "./playbooks.js";

/*
 * What we know beyond a finding's category (data/analyst-guidance.json): per check of the
 * scanner's catalogue the configuration change, how to apply and verify it by hand, and its
 * playbook; per product the vendor's advisory page and how to check and upgrade the installed
 * package. Kept as data beside the categories so wording is reviewed without reading code.
 */

const playbookId = z.string().refine((id) => PLAYBOOK_IDS.includes(id), "not a playbook of ansible/playbooks/");

const TemplateGuidance = z.strictObject({
  config: z.array(z.strictObject({ file: z.string().min(1), line: z.string().min(1) })).optional(),
  steps: z.array(z.string().min(1)).optional(),
  apply: z.string().min(1).optional(),
  verify: z.string().min(1),
  expect: z.string().min(1),
  playbook: playbookId.optional(),
});
export type TemplateGuidance = z.infer<typeof TemplateGuidance>;

const ProductGuidance = z.strictObject({
  id: z.string().min(1),
  words: z.array(z.string().min(1)).min(1),
  advisory: z.url(),
  installed: z.string().min(1),
  verify: z.string().min(1),
  apply: z.string().min(1),
  playbook: playbookId.optional(),
});
export type ProductGuidance = z.infer<typeof ProductGuidance>;

const file = z
  .object({
    templates: z.record(z.string(), TemplateGuidance),
    products: z.array(ProductGuidance),
    categories: z.record(z.string(), z.strictObject({ verify: z.string().min(1), expect: z.string().min(1) })),
  })
  .parse(JSON.parse(readFileSync(new URL("../../data/analyst-guidance.json", import.meta.url), "utf8")));

export const TEMPLATE_GUIDANCE: Readonly<Record<string, TemplateGuidance>> = file.templates;

export function templateGuidance(templateId: string): TemplateGuidance | undefined {
  return file.templates[templateId];
}

/** The product a version finding is about, from its component and title (`OpenSSH 7.2p2 on h:22`). */
export function productGuidance(text: string): ProductGuidance | undefined {
  const t = text.toLowerCase();
  return file.products.find((p) => p.words.some((w) => t.includes(w)));
}

export function categoryVerification(categoryId: string): { verify: string; expect: string } | undefined {
  return file.categories[categoryId];
}

/** Fills {host} {port} {url} {origin} {path} from the finding; `%{http_code}` and the like stay. */
export function fill(text: string, at: Location): string {
  return text.replace(/\{(host|port|url|origin|path)\}/g, (_, k: keyof Location) => at[k]);
}
