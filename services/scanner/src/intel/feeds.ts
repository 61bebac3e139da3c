import { parse as parseCsv } from "csv-parse/sync";
import { z } from "zod";
import type { CpeMatchCriteria } from "./cpe.js";

/*
 * Parsers for the three public feed formats the intelligence store is built from:
 * - NVD CVE API / feed JSON 2.0 (`{ format: "NVD_CVE", version: "2.0", vulnerabilities: [{ cve }] }`),
 * - FIRST EPSS CSV (`#model_version:...,score_date:...` comment, then `cve,epss,percentile`),
 * - CISA Known Exploited Vulnerabilities JSON (`{ catalogVersion, vulnerabilities: [{ cveID }] }`).
 * Only the fields the scanner uses are validated; unknown fields are ignored, as the feeds grow.
 */

export class FeedError extends Error {
  override name = "FeedError";
}

/** What the scanner keeps of one NVD CVE record. */
export interface CveRecord {
  id: string;
  description: string;
  published?: string;
  /** Best CVSS metric: v3.1, then v3.0, then v2 (old records); NVD's primary score first. */
  cvss?: { version: string; vector: string; score: number; severity: string };
  cwes: string[];
  /** Vulnerable cpeMatch entries of every configuration node (the platform halves of AND nodes are dropped). */
  matches: CpeMatchCriteria[];
  references: string[];
}

/**
 * The feeds' schemas are built for one parse: a scanner reads its intelligence at start (and
 * again at a sync), and as module constants the zod schemas (zod 4 gives each its own methods)
 * were held by every idle scanner (about 1 MiB with OSV's and KEV's).
 */
function nvdSchemas() {
  const langString = z.object({ lang: z.string(), value: z.string() });
  const cvssV3 = z.object({
    source: z.string().optional(),
    type: z.string().optional(),
    cvssData: z.object({ version: z.string(), vectorString: z.string(), baseScore: z.number(), baseSeverity: z.string().optional() }),
  });
  const cvssV2 = z.object({
    source: z.string().optional(),
    type: z.string().optional(),
    baseSeverity: z.string().optional(),
    cvssData: z.object({ version: z.string(), vectorString: z.string(), baseScore: z.number() }),
  });
  const cpeMatch = z.object({
    vulnerable: z.boolean(),
    criteria: z.string(),
    versionStartIncluding: z.string().optional(),
    versionStartExcluding: z.string().optional(),
    versionEndIncluding: z.string().optional(),
    versionEndExcluding: z.string().optional(),
  });
  const node = z.object({ operator: z.string().optional(), negate: z.boolean().optional(), cpeMatch: z.array(cpeMatch).optional() });
  const nvdCve = z.object({
    id: z.string().regex(/^CVE-\d{4}-\d{4,}$/),
    published: z.string().optional(),
    vulnStatus: z.string().optional(),
    descriptions: z.array(langString).default([]),
    metrics: z
      .object({
        cvssMetricV31: z.array(cvssV3).optional(),
        cvssMetricV30: z.array(cvssV3).optional(),
        cvssMetricV2: z.array(cvssV2).optional(),
      })
      .loose()
      .optional(),
    weaknesses: z.array(z.object({ source: z.string().optional(), type: z.string().optional(), description: z.array(langString) })).optional(),
    configurations: z.array(z.object({ operator: z.string().optional(), nodes: z.array(node) })).optional(),
    references: z.array(z.object({ url: z.string() }).loose()).optional(),
  });
  const nvdFeed = z.object({
    format: z.literal("NVD_CVE"),
    version: z.string().optional(),
    vulnerabilities: z.array(z.object({ cve: z.object({}).loose() })),
  });
  return { nvdCve, nvdFeed };
}

/** Parses an NVD CVE JSON 2.0 document (API page or yearly feed). Rejected records are counted, not fatal. */
export function parseNvd(json: unknown): { records: CveRecord[]; rejected: number } {
  const { nvdCve, nvdFeed } = nvdSchemas();
  const feed = nvdFeed.safeParse(json);
  if (!feed.success) throw new FeedError(`not an NVD CVE JSON 2.0 document: ${feed.error.issues[0]?.message ?? "invalid"}`);
  const records: CveRecord[] = [];
  let rejected = 0;
  for (const item of feed.data.vulnerabilities) {
    const parsed = nvdCve.safeParse(item.cve);
    if (!parsed.success) {
      rejected++;
      continue;
    }
    const cve = parsed.data;
    if (cve.vulnStatus === "Rejected") continue;
    const metrics = [...(cve.metrics?.cvssMetricV31 ?? []), ...(cve.metrics?.cvssMetricV30 ?? [])];
    const v3 = metrics.find((m) => m.type === "Primary") ?? metrics[0];
    const v2metrics = cve.metrics?.cvssMetricV2 ?? [];
    const v2 = v2metrics.find((m) => m.type === "Primary") ?? v2metrics[0];
    const best = v3 ? { ...v3.cvssData, baseSeverity: v3.cvssData.baseSeverity } : v2 ? { ...v2.cvssData, baseSeverity: v2.baseSeverity } : undefined;
    const cwes = new Set<string>();
    for (const w of cve.weaknesses ?? []) for (const d of w.description) if (/^CWE-\d+$/.test(d.value)) cwes.add(d.value);
    const matches: CpeMatchCriteria[] = [];
    for (const conf of cve.configurations ?? []) for (const n of conf.nodes) if (!n.negate) for (const m of n.cpeMatch ?? []) if (m.vulnerable) matches.push(m);
    records.push({
      id: cve.id,
      description: cve.descriptions.find((d) => d.lang === "en")?.value ?? cve.descriptions[0]?.value ?? "",
      ...(cve.published ? { published: cve.published } : {}),
      ...(best
        ? {
            cvss: {
              version: best.version,
              vector: best.vectorString,
              score: best.baseScore,
              severity: (best.baseSeverity ?? "").toLowerCase(),
            },
          }
        : {}),
      cwes: [...cwes],
      matches,
      references: (cve.references ?? []).map((r) => r.url),
    });
  }
  return { records, rejected };
}

export interface EpssEntry {
  epss: number;
  percentile: number;
}

/** Parses FIRST's EPSS CSV (the `#model_version:...,score_date:...` line is optional metadata). */
export function parseEpss(csv: string): { scores: Map<string, EpssEntry>; modelVersion?: string; scoreDate?: string } {
  const meta = new Map<string, string>();
  for (const line of csv.split(/\r?\n/, 5).filter((l) => l.startsWith("#"))) {
    for (const kv of line.slice(1).split(",")) {
      const i = kv.indexOf(":");
      if (i > 0) meta.set(kv.slice(0, i).trim(), kv.slice(i + 1).trim());
    }
  }
  let rows: Record<string, string>[];
  try {
    rows = parseCsv(csv, {
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      comment: "#",
      comment_no_infix: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
    });
  } catch (err) {
    throw new FeedError(`not an EPSS CSV: ${(err as Error).message}`);
  }
  const header = rows.length > 0 ? Object.keys(rows[0]!) : headerOf(csv);
  if (!header) throw new FeedError("not an EPSS CSV: no header line");
  if (!header.includes("cve") || !header.includes("epss")) throw new FeedError(`not an EPSS CSV: header "${header.join(",")}"`);
  const scores = new Map<string, EpssEntry>();
  for (const row of rows) {
    const cve = row.cve;
    const epss = Number(row.epss);
    const percentile = row.percentile === undefined ? NaN : Number(row.percentile);
    if (!cve || !/^CVE-\d{4}-\d{4,}$/.test(cve) || !Number.isFinite(epss) || epss < 0 || epss > 1) continue;
    scores.set(cve, { epss, percentile: Number.isFinite(percentile) ? percentile : 0 });
  }
  const modelVersion = meta.get("model_version");
  const scoreDate = meta.get("score_date");
  return { scores, ...(modelVersion ? { modelVersion } : {}), ...(scoreDate ? { scoreDate } : {}) };
}

/** The header of a CSV with no data rows (csv-parse returns no record to read it from). */
function headerOf(csv: string): string[] | undefined {
  const line = csv.split(/\r?\n/).find((l) => l.trim() && !l.startsWith("#"));
  return line?.split(",").map((c) => c.trim().toLowerCase());
}

export interface KevEntry {
  cveId: string;
  vendorProject: string;
  product: string;
  vulnerabilityName: string;
  dateAdded: string;
  requiredAction: string;
  dueDate: string;
  knownRansomwareCampaignUse: string;
}

// Built for one parse, as nvdSchemas().
const kevSchema = () =>
  z.object({
    catalogVersion: z.string().optional(),
    dateReleased: z.string().optional(),
    vulnerabilities: z.array(
      z
        .object({
          cveID: z.string().regex(/^CVE-\d{4}-\d{4,}$/),
          vendorProject: z.string().default(""),
          product: z.string().default(""),
          vulnerabilityName: z.string().default(""),
          dateAdded: z.string().default(""),
          requiredAction: z.string().default(""),
          dueDate: z.string().default(""),
          knownRansomwareCampaignUse: z.string().default("Unknown"),
        })
        .loose(),
    ),
  });

/** Parses CISA's KEV catalogue JSON. */
export function parseKev(json: unknown): { entries: Map<string, KevEntry>; catalogVersion?: string } {
  const feed = kevSchema().safeParse(json);
  if (!feed.success) throw new FeedError(`not a CISA KEV catalogue: ${feed.error.issues[0]?.message ?? "invalid"}`);
  const entries = new Map<string, KevEntry>();
  for (const v of feed.data.vulnerabilities)
    entries.set(v.cveID, {
      cveId: v.cveID,
      vendorProject: v.vendorProject,
      product: v.product,
      vulnerabilityName: v.vulnerabilityName,
      dateAdded: v.dateAdded,
      requiredAction: v.requiredAction,
      dueDate: v.dueDate,
      knownRansomwareCampaignUse: v.knownRansomwareCampaignUse,
    });
  return { entries, ...(feed.data.catalogVersion ? { catalogVersion: feed.data.catalogVersion } : {}) };
}
