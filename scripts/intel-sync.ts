/*
 * Builds the scanner's vulnerability-intelligence snapshot from the public feeds.
 *
 *   npx tsx scripts/intel-sync.ts --nvd FILE_OR_URL [--nvd ...] --epss FILE_OR_URL --kev FILE_OR_URL [--osv SRC ...] [--out DIR]
 *
 * --nvd   NVD CVE JSON 2.0: a yearly/modified feed file (nvdcve-2.0-2024.json[.gz]) or an API page
 *         (https://services.nvd.nist.gov/rest/json/cves/2.0?startIndex=0&resultsPerPage=2000);
 *         repeat for several files or pages.
 * --epss  FIRST EPSS CSV (epss_scores-YYYY-MM-DD.csv[.gz]).
 * --kev   CISA Known Exploited Vulnerabilities JSON.
 * --osv   OSV records of the Debian and Ubuntu ecosystems (fixed package versions per release): a
 *         record or an array of records (file or URL, e.g. one record from OSV's API,
 *         https://api.osv.dev/v1/vulns/DEBIAN-CVE-2024-6387), or a directory of record files
 *         (OSV's per-ecosystem all.zip, https://osv-vulnerabilities.storage.googleapis.com/Debian/all.zip
 *         and .../Ubuntu/all.zip, unpacked); repeat for several.
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
  /** OSV Debian/Ubuntu records: files, directories of record files, or URLs. */
  osv?: string[];
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
  distroFixes: number;
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

/** OSV documents of one source: a directory's *.json files (an unpacked all.zip), else the one document. */
export async function readOsvSource(src: string, timeoutMs?: number): Promise<unknown[]> {
  const isDir =
    !/^[a-z][a-z0-9+.-]*:\/\//i.test(src) &&
    (await fs
      .stat(src)
      .then((s) => s.isDirectory())
      .catch(() => false));
  if (!isDir) return [JSON.parse((await readSource(src, timeoutMs)).toString("utf8")) as unknown];
  const files = (await fs.readdir(src)).filter((f) => /\.json(\.gz)?$/i.test(f)).sort();
  // One array of records, so a directory of 100,000 small files is one document to parse.
  const records = await Promise.all(files.map(async (f) => JSON.parse((await readSource(path.join(src, f))).toString("utf8")) as unknown));
  return [records];
}

export async function syncIntel(opts: SyncOptions): Promise<SyncResult> {
  if (!opts.nvd?.length && !opts.epss && !opts.kev && !opts.osv?.length) throw new Error("nothing to sync: give --nvd, --epss, --kev and/or --osv");
  const out = path.resolve(opts.out ?? defaultOutDir());
  const read = (s: string) => readSource(s, opts.timeoutMs);
  const nvd = await Promise.all((opts.nvd ?? []).map(async (s) => JSON.parse((await read(s)).toString("utf8")) as unknown));
  const epss = opts.epss ? (await read(opts.epss)).toString("utf8") : undefined;
  const kev = opts.kev ? (JSON.parse((await read(opts.kev)).toString("utf8")) as unknown) : undefined;
  const osv = (await Promise.all((opts.osv ?? []).map((s) => readOsvSource(s, opts.timeoutMs)))).flat();
  const fresh = IntelStore.fromFeeds(
    { nvd, ...(epss ? { epss } : {}), ...(kev ? { kev } : {}), osv },
    { generatedAt: new Date().toISOString(), ...(opts.nvd?.length ? { nvd: opts.nvd } : {}), ...(opts.osv?.length ? { osv: opts.osv } : {}) },
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
    osv: opts.osv?.length ? fresh.osv : (previous?.osv ?? []),
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
      osv: { type: "string", multiple: true },
      out: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(
      "usage: npx tsx scripts/intel-sync.ts --nvd FILE_OR_URL [--nvd ...] --epss FILE_OR_URL --kev FILE_OR_URL [--osv FILE_DIR_OR_URL ...] [--out DIR]\n",
    );
    return;
  }
  const result = await syncIntel({
    ...(values.nvd ? { nvd: values.nvd } : {}),
    ...(values.epss ? { epss: values.epss } : {}),
    ...(values.kev ? { kev: values.kev } : {}),
    ...(values.osv ? { osv: values.osv } : {}),
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
