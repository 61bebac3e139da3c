import type { Severity } from "./types.js";

/*
 * CVSS v3.x base score from a vector string (FIRST's CVSS v3.1 specification, section 7.1, with
 * its Roundup). Used to check that every template, intel record and built-in check states a
 * score that agrees with its vector, and to score vectors that arrive without one.
 */

const W = {
  AV: { N: 0.85, A: 0.62, L: 0.55, P: 0.2 },
  AC: { L: 0.77, H: 0.44 },
  UI: { N: 0.85, R: 0.62 },
  CIA: { H: 0.56, L: 0.22, N: 0 },
} as const;

export class CvssError extends Error {
  override name = "CvssError";
}

/** CVSS v3.1 Roundup: the smallest number with one decimal that is >= the input (float-safe). */
export function roundUp(value: number): number {
  const i = Math.round(value * 100_000);
  return i % 10_000 === 0 ? i / 100_000 : (Math.floor(i / 10_000) + 1) / 10;
}

export function parseVector(vector: string): Record<string, string> {
  const m = /^CVSS:3\.[01]\/(.+)$/.exec(vector.trim());
  if (!m?.[1]) throw new CvssError(`not a CVSS v3 vector: ${vector}`);
  const out: Record<string, string> = {};
  for (const part of m[1].split("/")) {
    const [k, v] = part.split(":");
    if (!k || !v) throw new CvssError(`bad metric "${part}" in ${vector}`);
    out[k] = v;
  }
  for (const k of ["AV", "AC", "PR", "UI", "S", "C", "I", "A"]) if (!out[k]) throw new CvssError(`metric ${k} missing in ${vector}`);
  return out;
}

/** Base score (0.0-10.0) of a CVSS v3.0/v3.1 vector. */
export function baseScore(vector: string): number {
  const m = parseVector(vector);
  const pick = <T extends Record<string, number>>(table: T, key: string, metric: string): number => {
    const v = table[key as keyof T];
    if (v === undefined) throw new CvssError(`bad value ${metric}:${key} in ${vector}`);
    return v;
  };
  const changed = m.S === "C";
  if (m.S !== "C" && m.S !== "U") throw new CvssError(`bad value S:${m.S} in ${vector}`);
  const pr = m.PR === "N" ? 0.85 : m.PR === "L" ? (changed ? 0.68 : 0.62) : m.PR === "H" ? (changed ? 0.5 : 0.27) : NaN;
  if (Number.isNaN(pr)) throw new CvssError(`bad value PR:${m.PR} in ${vector}`);
  const iss = 1 - (1 - pick(W.CIA, m.C!, "C")) * (1 - pick(W.CIA, m.I!, "I")) * (1 - pick(W.CIA, m.A!, "A"));
  const impact = changed ? 7.52 * (iss - 0.029) - 3.25 * (iss - 0.02) ** 15 : 6.42 * iss;
  const exploitability = 8.22 * pick(W.AV, m.AV!, "AV") * pick(W.AC, m.AC!, "AC") * pr * pick(W.UI, m.UI!, "UI");
  if (impact <= 0) return 0;
  return changed ? roundUp(Math.min(1.08 * (impact + exploitability), 10)) : roundUp(Math.min(impact + exploitability, 10));
}

/** The CVSS v3 qualitative rating; "none" (0.0) is our "info". */
export function severityOf(score: number): Severity {
  if (score >= 9) return "critical";
  if (score >= 7) return "high";
  if (score >= 4) return "medium";
  if (score > 0) return "low";
  return "info";
}
