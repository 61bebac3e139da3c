import { componentLocation } from "@vulnscan/kit/coverage";
import type { Confidence, DetectionDraft } from "./types.js";

/*
 * One weakness, one finding. Several engines can see the same weakness (a built-in web check and
 * a template both find /.env; a template and version matching both find vsFTPd 2.3.4's
 * backdoor). A weakness's identity is its classification (the CVE when the detection names
 * exactly one, else its template id: built-in checks that mirror a template carry the
 * template's id, see checks/*.yaml `template_id`), its component (the target and the port) and
 * its normalised location (the URL path), whatever string each engine writes for the component.
 * The runner folds every detection of one identity into the first one published, so the finding
 * (de-duplicated by target, template id and component) receives one detection that keeps every
 * detecting tool and its evidence.
 */

// The component's port and location are read the same way by findings, which judges coverage
// by them (kit/coverage.ts).
export { componentLocation, normalisePath } from "@vulnscan/kit/coverage";

/** The classification part of the identity. Correlation notes are about several findings, never merged. */
export function classification(d: Pick<DetectionDraft, "templateId" | "cveIds" | "tool">): string {
  if (d.cveIds.length === 1 && d.tool !== "correlator") return `cve:${d.cveIds[0]!.toUpperCase()}`;
  return d.templateId.toLowerCase();
}

/** The weakness identity of a detection: equal keys are one weakness on one component. */
export function weaknessKey(d: Pick<DetectionDraft, "target" | "templateId" | "cveIds" | "tool" | "affectedComponent">): string {
  const { port, path } = componentLocation(d.affectedComponent);
  return [d.target.trim().toLowerCase(), classification(d), port, path].join("\u0000");
}

const uniq = <T>(xs: T[]) => [...new Set(xs)];

/** Observed beats inferred; between inferences from a version, the caveat of one holds for all. */
export function foldConfidence(all: Confidence[]): Confidence {
  if (all.includes("confirmed")) return "confirmed";
  return all.includes("version_match_unverified_backport") ? "version_match_unverified_backport" : "version_match";
}

/** What one detecting tool saw, kept in the merged evidence under its own heading. */
const source = (d: DetectionDraft) => `[${d.tool}: ${d.templateId}]`;

/**
 * Folds detections of one weakness into one, the first being the one published first: its
 * template id, component, target, title and texts stay (so the finding's key stays), the rating
 * is the highest any detector gave, the confidence is `confirmed` when any detector observed the
 * weakness, else the least sure of the version inferences (a banner template does not know the
 * distribution revision that version matching could not resolve), CWEs, CVEs and references are the union, and the evidence
 * and description name every detecting tool. The finding's `tool` stays the first detector's so
 * tool filters and per-tool counts keep their meaning. A repeat of one (tool, check) replaces its
 * earlier evidence rather than adding to it.
 */
export function mergeDetections(all: DetectionDraft[]): DetectionDraft {
  const bySource = new Map<string, DetectionDraft>();
  for (const d of all) bySource.set(source(d), d);
  const parts = [...bySource.values()];
  const first = all[0]!;
  if (parts.length === 1) return parts[0]!;
  const top = parts.reduce((a, b) => (b.cvssScore > a.cvssScore ? b : a));
  const others = parts.filter((d) => source(d) !== source(first));
  return {
    ...first,
    severity: top.severity,
    cvssScore: top.cvssScore,
    cvssVector: top.cvssVector,
    cweIds: uniq(parts.flatMap((d) => d.cweIds)),
    cveIds: uniq(parts.flatMap((d) => d.cveIds)),
    description: `${first.description}\n\nAlso detected by: ${others.map((d) => `${d.tool} (${d.templateId}: ${d.title})`).join("; ")}.`,
    remediation: { ...first.remediation, references: uniq(parts.flatMap((d) => d.remediation.references)) },
    evidence: {
      request: parts.map((d) => `${source(d)}\n${d.evidence.request}`).join("\n\n"),
      response: parts.map((d) => `${source(d)}\n${d.evidence.response}`).join("\n\n"),
    },
    epssScore: parts.some((d) => d.epssScore !== undefined) ? Math.max(...parts.map((d) => d.epssScore ?? 0)) : first.epssScore,
    kev: parts.some((d) => d.kev) ? true : first.kev,
    confidence: foldConfidence(parts.map((d) => d.confidence)),
  };
}
