import fs from "node:fs";
import { z } from "zod";

/** The framework ids of DESIGN.md §3, in the order detections and listings show them. */
export const FRAMEWORK_IDS = ["soc2", "iso27001", "pci_dss", "hipaa", "gdpr", "nist_csf", "nist_800_53", "cis_controls"] as const;
export type FrameworkId = (typeof FRAMEWORK_IDS)[number];

export const isFrameworkId = (id: string): id is FrameworkId => (FRAMEWORK_IDS as readonly string[]).includes(id);

export const DEFAULT_CATALOGUE_FILE = new URL("../data/frameworks.json", import.meta.url).pathname;
/** What each control asks for, in our words (data/requirements.json); controls without an entry have none yet. */
export const DEFAULT_REQUIREMENTS_FILE = new URL("../data/requirements.json", import.meta.url).pathname;

/** One control of the catalogue: a requirement of one framework, by the framework's own reference. */
export interface CatalogueControl {
  /** `<framework>:<ref>`, unique across the catalogue; organizations' control ids derive from it. */
  key: string;
  framework: FrameworkId;
  /** The framework's reference, e.g. `CC6.1`, `A.8.8`, `6.3.3`. */
  ref: string;
  /** Short name written by us. */
  name: string;
  /** What the control asks for, one or two sentences written by us (a paraphrase); "" when not written yet. */
  requirement: string;
}

export interface CatalogueFramework {
  id: FrameworkId;
  name: string;
  controls: CatalogueControl[];
}

const file = z.object({
  frameworks: z.record(z.string(), z.object({ name: z.string().min(1), controls: z.record(z.string().min(1), z.string().min(1)) })),
});
const requirementsFile = z.object({ frameworks: z.record(z.string(), z.record(z.string().min(1), z.string().min(1))) });

export const controlKey = (framework: string, ref: string) => `${framework}:${ref}`;

/** The frameworks and their controls, in FRAMEWORK_IDS order, controls in file order. */
export class Catalogue {
  readonly frameworks: readonly CatalogueFramework[];
  readonly controls: readonly CatalogueControl[];
  private readonly byKey: Map<string, CatalogueControl>;

  private constructor(frameworks: CatalogueFramework[]) {
    this.frameworks = frameworks;
    this.controls = frameworks.flatMap((f) => f.controls);
    this.byKey = new Map(this.controls.map((c) => [c.key, c]));
  }

  /** `requirements`: data/requirements.json's shape; each of its references must be a control of the catalogue. */
  static fromJson(json: unknown, requirements: unknown = { frameworks: {} }): Catalogue {
    const texts = requirementsFile.safeParse(requirements);
    if (!texts.success) throw new Error(`invalid control requirements: ${texts.error.issues.map((i) => i.message).join("; ")}`);
    const parsed = file.safeParse(json);
    if (!parsed.success) throw new Error(`invalid control catalogue: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
    const unknown = Object.keys(parsed.data.frameworks).filter((id) => !isFrameworkId(id));
    if (unknown.length) throw new Error(`invalid control catalogue: unknown frameworks ${unknown.join(", ")}`);
    const frameworks = FRAMEWORK_IDS.map((id) => {
      const f = parsed.data.frameworks[id];
      if (!f) throw new Error(`invalid control catalogue: framework ${id} is missing`);
      return {
        id,
        name: f.name,
        controls: Object.entries(f.controls).map(([ref, name]) => ({
          key: controlKey(id, ref),
          framework: id,
          ref,
          name,
          requirement: texts.data.frameworks[id]?.[ref] ?? "",
        })),
      };
    });
    const stray = Object.entries(texts.data.frameworks).flatMap(([fw, refs]) =>
      Object.keys(refs)
        .filter((ref) => !frameworks.find((f) => f.id === fw)?.controls.some((c) => c.ref === ref))
        .map((ref) => controlKey(fw, ref)),
    );
    if (stray.length) throw new Error(`invalid control requirements: no such controls ${stray.join(", ")}`);
    return new Catalogue(frameworks);
  }

  /** Read synchronously: the catalogue is small, shipped with the code, and needed before anything else. */
  static load(path: string = DEFAULT_CATALOGUE_FILE, requirementsPath: string = DEFAULT_REQUIREMENTS_FILE): Catalogue {
    return Catalogue.fromJson(JSON.parse(fs.readFileSync(path, "utf8")), JSON.parse(fs.readFileSync(requirementsPath, "utf8")));
  }

  get(framework: string, ref: string): CatalogueControl | undefined {
    return this.byKey.get(controlKey(framework, ref));
  }

  byKeyOf(key: string): CatalogueControl | undefined {
    return this.byKey.get(key);
  }

  framework(id: string): CatalogueFramework | undefined {
    return this.frameworks.find((f) => f.id === id);
  }
}
