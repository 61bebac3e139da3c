import { parse } from "yaml";
import type { z } from "zod";

/*
 * The scanner's two data catalogues (templates/ and checks/) are YAML files validated with zod at
 * start. Both report a broken file the same way: the file, then every failing field, so whoever
 * edits one of them learns what to fix without reading code. Duplicate keys are errors (a second
 * key would silently replace the first).
 */
export function parseYamlDocument<S extends z.ZodType>(
  schema: S,
  yamlText: string,
  source: string,
  Fail: new (message: string) => Error,
  options: { merge?: boolean } = {},
): z.output<S> {
  let doc: unknown;
  try {
    doc = parse(yamlText, { prettyErrors: true, uniqueKeys: true, merge: options.merge ?? false });
  } catch (err) {
    throw new Fail(`${source}: not valid YAML: ${(err as Error).message}`);
  }
  const result = schema.safeParse(doc);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join(".") || "(document)"}: ${i.message}`);
    throw new Fail(`${source}: ${issues.join("; ")}`);
  }
  return result.data;
}
