import fs from "node:fs/promises";
import { z } from "zod";

import { FRAMEWORK_IDS } from "./frameworks.js";

export const DEFAULT_COMPLIANCE_FILE = new URL("../data/cwe-controls.json", import.meta.url).pathname;

const controls = z.array(z.string().min(1)).default([]);
const category = z.object({
  title: z.string(),
  soc2: controls,
  iso27001: controls,
  pci_dss: controls,
  hipaa: controls,
  gdpr: controls,
  nist_csf: controls,
  nist_800_53: controls,
  cis_controls: controls,
});
const file = z
  .object({
    default: z.string(),
    categories: z.record(z.string(), category),
    cwes: z.record(z.string().regex(/^CWE-\d+$/), z.array(z.string()).min(1)),
  })
  .loose()
  .superRefine((f, ctx) => {
    if (!f.categories[f.default]) ctx.addIssue({ code: "custom", message: `default category "${f.default}" is not defined` });
    for (const [cwe, cats] of Object.entries(f.cwes))
      for (const c of cats) if (!f.categories[c]) ctx.addIssue({ code: "custom", message: `${cwe} names unknown category "${c}"` });
  });

export interface FrameworkMapping {
  name: string;
  controls: string[];
}

/**
 * CWE → framework controls, from the shipped data set (data/cwe-controls.json): each
 * CWE names weakness categories, each category lists controls per framework. A detection with
 * a CVE is also a vulnerability-management matter (patching, scanning controls).
 */
export class ComplianceMap {
  private constructor(private readonly data: z.infer<typeof file>) {}

  static fromJson(json: unknown): ComplianceMap {
    const parsed = file.safeParse(json);
    if (!parsed.success) throw new Error(`invalid compliance mapping: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
    return new ComplianceMap(parsed.data);
  }

  static async load(path: string = DEFAULT_COMPLIANCE_FILE): Promise<ComplianceMap> {
    return ComplianceMap.fromJson(JSON.parse(await fs.readFile(path, "utf8")));
  }

  /** Categories a detection falls in (titles are for summaries). */
  categoriesOf(cweIds: string[], cveIds: string[] = []): string[] {
    const out = new Set<string>();
    for (const cwe of cweIds) for (const c of this.data.cwes[cwe.toUpperCase()] ?? []) out.add(c);
    if (cveIds.length) out.add("vulnerability-management");
    // Unmapped CWEs fall back to the default category; no CWE and no CVE (an informational
    // observation) maps to nothing rather than to a made-up control.
    if (!out.size && cweIds.length) out.add(this.data.default);
    return [...out].filter((c) => this.data.categories[c]);
  }

  categoryTitle(category: string): string {
    return this.data.categories[category]?.title ?? category;
  }

  /**
   * Every control reference the mapping can name, per framework (restricted to `frameworks`
   * when non-empty): what a compliance scan's checks test.
   */
  testedRefs(frameworks: readonly string[] = []): FrameworkMapping[] {
    const wanted = frameworks.length ? FRAMEWORK_IDS.filter((f) => frameworks.includes(f)) : FRAMEWORK_IDS;
    const cats = Object.values(this.data.categories);
    return wanted.map((fw) => ({ name: fw, controls: [...new Set(cats.flatMap((c) => c[fw]))] })).filter((m) => m.controls.length > 0);
  }

  /** Framework mappings for a detection, restricted to `frameworks` when non-empty (ids as DESIGN.md). */
  map(cweIds: string[], cveIds: string[] = [], frameworks: readonly string[] = []): FrameworkMapping[] {
    const wanted = frameworks.length ? FRAMEWORK_IDS.filter((f) => frameworks.includes(f)) : FRAMEWORK_IDS;
    const cats = this.categoriesOf(cweIds, cveIds).map((c) => this.data.categories[c]!);
    const out: FrameworkMapping[] = [];
    for (const fw of wanted) {
      const list = [...new Set(cats.flatMap((c) => c[fw]))];
      if (list.length) out.push({ name: fw, controls: list });
    }
    return out;
  }
}
