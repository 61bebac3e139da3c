import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseYamlDocument } from "../yaml-document.js";
import { baseScore } from "./cvss.js";
import type { CheckDef } from "./web/check.js";

/*
 * The built-in checks' fixed facts (title, vector, CWEs, description, impact, remediation) are
 * data, kept in services/scanner/checks/<area>.yaml beside the YAML templates and written in
 * the templates' field names. They are read once, synchronously, when this module is first
 * imported (at service start, through the phases), so a broken file or an unknown id stops the
 * scanner before it takes a job, and the code that emits detections keeps plain constants.
 *
 * A file: `tool` (the detections' tool), `shared` (anchors only, for text several checks use;
 * never read), and `checks`, keyed by the handle the code asks for, which is also the finding's
 * template_id unless `template_id` says otherwise (a variant of one check rated differently).
 * YAML merge keys (`<<: *anchor`) let a variant restate only what differs.
 */

export const DEFAULT_CHECKS_DIR = new URL("../../checks", import.meta.url).pathname;

export class CheckCatalogueError extends Error {
  override name = "CheckCatalogueError";
}

const ID = /^[a-z0-9][a-z0-9-]{2,80}$/;

const vector = z.string().superRefine((v, ctx) => {
  try {
    baseScore(v);
  } catch (err) {
    ctx.addIssue({ code: "custom", message: (err as Error).message });
  }
});

const checkSchema = z.strictObject({
  template_id: z.string().regex(ID).optional(),
  title: z.string().min(3),
  cvss_vector: vector,
  /** Inventory-style checks report `info` whatever the vector says. */
  info: z.boolean().optional(),
  cwe: z.array(z.string().regex(/^CWE-\d+$/, "like CWE-200")),
  description: z.string().min(10),
  impact: z.string().min(10),
  remediation: z.strictObject({
    summary: z.string().min(3),
    steps: z.array(z.string().min(1)).min(1),
    code_example: z.string().min(1),
    references: z.array(z.url()).min(1),
  }),
});

const fileSchema = z.strictObject({
  tool: z.string().regex(/^[a-z][a-z0-9-]*$/),
  shared: z.unknown().optional(),
  checks: z.record(z.string().regex(ID, "lowercase letters, digits and dashes"), checkSchema),
});

/** Parses one catalogue file into its checks by handle; the source names the file in errors. */
export function parseCheckFile(yamlText: string, source = "<checks>"): Map<string, CheckDef> {
  const { tool, checks } = parseYamlDocument(fileSchema, yamlText, source, CheckCatalogueError, { merge: true });
  const out = new Map<string, CheckDef>();
  for (const [id, c] of Object.entries(checks)) {
    const { summary, steps, code_example, references } = c.remediation;
    out.set(id, {
      templateId: c.template_id ?? id,
      title: c.title,
      vector: c.cvss_vector,
      ...(c.info ? { info: true } : {}),
      cweIds: c.cwe,
      tool,
      description: c.description,
      impact: c.impact,
      remediation: { summary, steps, codeExample: code_example, references },
    });
  }
  return out;
}

/** Reads every `*.yaml` of the catalogue folder; every broken file is named, and a handle used twice is an error. */
export function loadCheckCatalogue(dir: string = DEFAULT_CHECKS_DIR): Map<string, CheckDef> {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
  const catalogue = new Map<string, CheckDef>();
  const errors: string[] = [];
  for (const f of files) {
    try {
      for (const [id, def] of parseCheckFile(fs.readFileSync(path.join(dir, f), "utf8"), f)) {
        if (catalogue.has(id)) throw new CheckCatalogueError(`${f}: check "${id}" is defined in another file too`);
        catalogue.set(id, def);
      }
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  if (errors.length) throw new CheckCatalogueError(`invalid check catalogue in ${dir}:\n  ${errors.join("\n  ")}`);
  return catalogue;
}

const CATALOGUE = loadCheckCatalogue();

/** The built-in check with this handle; an unknown handle throws, at import time of the module that asks. */
export function check(id: string): CheckDef {
  const def = CATALOGUE.get(id);
  if (!def) throw new CheckCatalogueError(`no check "${id}" in ${DEFAULT_CHECKS_DIR}`);
  return def;
}

/** Every handle of the built-in catalogue (for tests and listings). */
export function checkIds(): string[] {
  return [...CATALOGUE.keys()];
}
