/*
 * Builds the scanner's vulnerability-intelligence snapshot from the public feeds.
 *
 *   npx tsx scripts/intel-sync.ts --nvd FILE_OR_URL [--nvd ...] --epss FILE_OR_URL --kev FILE_OR_URL [--out DIR]
 *
 * --nvd   NVD CVE JSON 2.0: a yearly/modified feed file (nvdcve-2.0-2024.json[.gz]) or an API page
 *         (https://services.nvd.nist.gov/rest/json/cves/2.0?startIndex=0&resultsPerPage=2000);
 *         repeat for several files or pages.
 * --epss  FIRST EPSS CSV (epss_scores-YYYY-MM-DD.csv[.gz]).
 * --kev   CISA Known Exploited Vulnerabilities JSON.
 * --out   Directory for intel-store.json (default $VULNSCAN_CACHE_DIR/intel, i.e. ~/.cache/vulnscan/intel);
 *         point the scanner's INTEL_DIR at it.
 *
 * Sources given replace those parts of an existing snapshot in --out; parts not given are kept.
 * URLs are fetched only when given (nothing is downloaded otherwise); gzip is detected by content.
 * Prints one JSON object with the counts on its last line.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { gunzipIfNeeded, IntelStore, SNAPSHOT_FILE, type IntelSnapshot } from "../services/scanner/src/intel/store.ts";

export interface SyncOptions {
  nvd?: string[];
  epss?: string;
  kev?: string;
  out?: string;
  /** Per download. */
  timeoutMs?: number;
}

export interface SyncResult {
  out: string;
  cves: number;
  epss: number;
  kev: number;
  products: number;
}

export const defaultOutDir = () =>
  path.join(process.env.VULNSCAN_CACHE_DIR ? path.resolve(process.env.VULNSCAN_CACHE_DIR) : path.join(os.homedir(), ".cache", "vulnscan"), "intel");

/** Reads a local file or fetches a URL (http/https only), gunzipping when the content is gzip. */
export async function readSource(src: string, timeoutMs = 120_000): Promise<Buffer> {
  if (/^https?:\/\//i.test(src)) {
    const res = await fetch(src, { signal: AbortSignal.timeout(timeoutMs), headers: { "user-agent": "vulnscan-intel-sync/0.1" } });
    if (!res.ok) throw new Error(`${src}: HTTP ${res.status}`);
    return gunzipIfNeeded(Buffer.from(await res.arrayBuffer()));
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(src)) throw new Error(`${src}: only files and http(s) URLs are supported`);
  return gunzipIfNeeded(await fs.readFile(src));
}

export async function syncIntel(opts: SyncOptions): Promise<SyncResult> {
  if (!opts.nvd?.length && !opts.epss && !opts.kev) throw new Error("nothing to sync: give --nvd, --epss and/or --kev");
  const out = path.resolve(opts.out ?? defaultOutDir());
  const read = (s: string) => readSource(s, opts.timeoutMs);
  const nvd = await Promise.all((opts.nvd ?? []).map(async (s) => JSON.parse((await read(s)).toString("utf8")) as unknown));
  const epss = opts.epss ? (await read(opts.epss)).toString("utf8") : undefined;
  const kev = opts.kev ? (JSON.parse((await read(opts.kev)).toString("utf8")) as unknown) : undefined;
  const fresh = IntelStore.fromFeeds(
    { nvd, ...(epss ? { epss } : {}), ...(kev ? { kev } : {}) },
    { generatedAt: new Date().toISOString(), ...(opts.nvd?.length ? { nvd: opts.nvd } : {}) },
  ).toSnapshot();

  let previous: IntelSnapshot | undefined;
  try {
    previous = JSON.parse((await fs.readFile(path.join(out, SNAPSHOT_FILE))).toString("utf8")) as IntelSnapshot;
  } catch {
    previous = undefined;
  }
  const merged: IntelSnapshot = {
    ...fresh,
    cves: opts.nvd?.length ? fresh.cves : (previous?.cves ?? []),
    epss: epss ? fresh.epss : (previous?.epss ?? []),
    kev: kev ? fresh.kev : (previous?.kev ?? []),
    sources: {
      ...previous?.sources,
      ...fresh.sources,
    },
  };
  const store = IntelStore.fromSnapshot(merged);
  await store.save(out);
  return { out, ...store.size };
}

async function main() {
  const { values } = parseArgs({
    options: {
      nvd: { type: "string", multiple: true },
      epss: { type: "string" },
      kev: { type: "string" },
      out: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write("usage: npx tsx scripts/intel-sync.ts --nvd FILE_OR_URL [--nvd ...] --epss FILE_OR_URL --kev FILE_OR_URL [--out DIR]\n");
    return;
  }
  const result = await syncIntel({
    ...(values.nvd ? { nvd: values.nvd } : {}),
    ...(values.epss ? { epss: values.epss } : {}),
    ...(values.kev ? { kev: values.kev } : {}),
    ...(values.out ? { out: values.out } : {}),
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((err) => {
    process.stderr.write(`intel-sync: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
