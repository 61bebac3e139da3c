import fs from "node:fs/promises";
import path from "node:path";
import { parseYamlDocument } from "../yaml-document.js";
import { type Template, templateSchemas } from "./schema.js";

export const DEFAULT_TEMPLATES_DIR = new URL("../../templates", import.meta.url).pathname;

export class TemplateError extends Error {
  override name = "TemplateError";
}

/** Parses and validates one template document; the source names the file in errors. */
export function parseTemplate(yamlText: string, source = "<template>", schema = templateSchemas().template): Template {
  return parseYamlDocument(schema, yamlText, source, TemplateError);
}

/**
 * Loads every `*.yaml`/`*.yml` under a directory (recursively). Fails on the first start with
 * every broken file listed, and on duplicate ids (the id is the finding's template_id, so two
 * files with one id would merge unrelated findings).
 */
export async function loadTemplates(dir: string = DEFAULT_TEMPLATES_DIR): Promise<Template[]> {
  const files = (await fs.readdir(dir, { recursive: true })).filter((f) => /\.ya?ml$/.test(f)).sort();
  const templates: Template[] = [];
  const errors: string[] = [];
  const ids = new Map<string, string>();
  const schema = templateSchemas().template; // built for this load only (schema.ts)
  for (const f of files) {
    try {
      const t = parseTemplate(await fs.readFile(path.join(dir, f), "utf8"), f, schema);
      const prev = ids.get(t.id);
      if (prev) throw new TemplateError(`${f}: id "${t.id}" is already used by ${prev}`);
      ids.set(t.id, f);
      templates.push(t);
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  if (errors.length) throw new TemplateError(`invalid templates in ${dir}:\n  ${errors.join("\n  ")}`);
  return templates;
}
