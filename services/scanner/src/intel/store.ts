import fs from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { cpeMatches, parseCpe, type CpeMatchCriteria } from "./cpe.js";
import { FeedError, parseEpss, parseKev, parseNvd, type CveRecord, type EpssEntry, type KevEntry } from "./feeds.js";
import { parseOsv, type DistroFix } from "./osv.js";

/*
 * The vulnerability-intelligence store: CVE records (NVD), exploit prediction (EPSS) and known
 * exploitation (CISA KEV) and the fixed package versions of Debian and Ubuntu (OSV), held in memory with two indexes — by CVE id and by CPE
 * vendor:product — so a service's CPE resolves to its CVEs without scanning the whole set.
 * Loaded once at worker start from INTEL_DIR: the compact snapshot `intel-store.json` that
 * scripts/intel-sync.ts writes, or else the raw feed files found there (the shipped sample).
 */

export const SNAPSHOT_FILE = "intel-store.json";

export interface IntelSources {
  nvd?: string[];
  epssModelVersion?: string;
  epssScoreDate?: string;
  kevCatalogVersion?: string;
  /** OSV files or URLs the distribution fixes came from. */
  osv?: string[];
  generatedAt?: string;
}

export interface IntelSnapshot {
  format: "vulnscan-intel";
  version: 1;
  sources: IntelSources;
  cves: CveRecord[];
  /** [cve, epss, percentile] */
  epss: [string, number, number][];
  kev: KevEntry[];
  /** Distribution fixed versions per CVE (absent in snapshots written before they were kept). */
  osv?: DistroFix[];
}

/**
 * Vendors NVD has used for one product over the years (a project renamed, bought, or given a
 * `_project` vendor later): a service CPE with any of them matches records naming any other.
 */
export const VENDOR_ALIASES: Record<string, string[]> = {
  vsftpd: ["beasts", "vsftpd_project"],
  nginx: ["nginx", "f5", "igor_sysoev"],
  redis: ["redis", "redislabs", "pivotal_software"],
  openssh: ["openbsd", "openssh"],
  http_server: ["apache"],
  openssl: ["openssl"],
  elasticsearch: ["elastic", "elasticsearch"],
  memcached: ["memcached", "memcached_project"],
  mongodb: ["mongodb"],
  mysql: ["mysql", "oracle"],
  postfix: ["postfix"],
  exim: ["exim"],
  proftpd: ["proftpd"],
  lighttpd: ["lighttpd"],
};

/** Product names many vendors use: never matched without the vendor. */
const GENERIC_PRODUCTS = new Set([
  "http_server",
  "server",
  "web_server",
  "ftp_server",
  "mail_server",
  "database",
  "firmware",
  "client",
  "agent",
  "library",
  "gateway",
  "router",
  "proxy",
]);

export interface CveMatch {
  cve: CveRecord;
  /** The NVD cpeMatch entry the service fell under (evidence). */
  match: CpeMatchCriteria;
}

export class IntelStore {
  private readonly byId = new Map<string, CveRecord>();
  private readonly byVendorProduct = new Map<string, CveRecord[]>();
  private readonly byProduct = new Map<string, CveRecord[]>();
  private readonly fixesByCve = new Map<string, DistroFix[]>();

  constructor(
    cves: Iterable<CveRecord>,
    private readonly epssScores: Map<string, EpssEntry> = new Map(),
    private readonly kevEntries: Map<string, KevEntry> = new Map(),
    readonly sources: IntelSources = {},
    distroFixes: Iterable<DistroFix> = [],
  ) {
    for (const f of distroFixes) push(this.fixesByCve, f.cve, f);
    for (const cve of cves) {
      this.byId.set(cve.id, cve);
      const keys = new Set<string>();
      const products = new Set<string>();
      for (const m of cve.matches) {
        const c = parseCpe(m.criteria);
        if (!c) continue;
        keys.add(`${c.vendor}:${c.product}`);
        products.add(c.product);
      }
      for (const k of keys) push(this.byVendorProduct, k, cve);
      for (const p of products) push(this.byProduct, p, cve);
    }
  }

  static empty(): IntelStore {
    return new IntelStore([]);
  }

  get size(): { cves: number; epss: number; kev: number; products: number; distroFixes: number } {
    return {
      cves: this.byId.size,
      epss: this.epssScores.size,
      kev: this.kevEntries.size,
      products: this.byVendorProduct.size,
      distroFixes: [...this.fixesByCve.values()].reduce((n, l) => n + l.length, 0),
    };
  }

  /** Debian and Ubuntu records of one CVE: per release and source package, the fixed version. */
  distroFixes(id: string): DistroFix[] {
    return this.fixesByCve.get(id.toUpperCase()) ?? [];
  }

  cve(id: string): CveRecord | undefined {
    return this.byId.get(id.toUpperCase());
  }

  epss(id: string): EpssEntry | undefined {
    return this.epssScores.get(id.toUpperCase());
  }

  kev(id: string): KevEntry | undefined {
    return this.kevEntries.get(id.toUpperCase());
  }

  /**
   * CVEs whose vulnerable configurations include the given concrete CPE (with its version). The
   * vendor must agree, up to VENDOR_ALIASES; a CPE whose vendor the store does not know for that
   * product at all (enumeration guessed it) is matched on the product alone, unless the product
   * name is a generic one. Sorted by CVSS score, highest first.
   */
  matchCpe(cpe: string): CveMatch[] {
    const service = parseCpe(cpe);
    if (!service) return [];
    const aliases = VENDOR_ALIASES[service.product];
    const knownVendor =
      this.byVendorProduct.has(`${service.vendor}:${service.product}`) || aliases?.includes(service.vendor) === true || GENERIC_PRODUCTS.has(service.product);
    const sameVendor = (vendor: string) =>
      !knownVendor || vendor === service.vendor || vendor === "*" || (aliases?.includes(vendor) === true && aliases.includes(service.vendor));
    const out: CveMatch[] = [];
    for (const cve of this.byProduct.get(service.product) ?? []) {
      const match = cve.matches.find((m) => {
        const crit = parseCpe(m.criteria);
        return crit !== undefined && sameVendor(crit.vendor) && cpeMatches(service, m, { ignoreVendor: true });
      });
      if (match) out.push({ cve, match });
    }
    return out.sort((a, b) => (b.cve.cvss?.score ?? 0) - (a.cve.cvss?.score ?? 0) || a.cve.id.localeCompare(b.cve.id));
  }

  toSnapshot(): IntelSnapshot {
    return {
      format: "vulnscan-intel",
      version: 1,
      sources: this.sources,
      cves: [...this.byId.values()],
      epss: [...this.epssScores].map(([id, e]) => [id, e.epss, e.percentile]),
      kev: [...this.kevEntries.values()],
      osv: [...this.fixesByCve.values()].flat(),
    };
  }

  static fromSnapshot(s: IntelSnapshot): IntelStore {
    if (s.format !== "vulnscan-intel" || s.version !== 1) throw new FeedError("not a vulnscan intel snapshot (format/version)");
    return new IntelStore(
      s.cves,
      new Map(s.epss.map(([id, epss, percentile]) => [id, { epss, percentile }])),
      new Map(s.kev.map((k) => [k.cveId, k])),
      s.sources,
      s.osv ?? [],
    );
  }

  /** Builds a store from feed documents (already read: JSON values and CSV text). */
  static fromFeeds(feeds: { nvd?: unknown[]; epss?: string; kev?: unknown; osv?: unknown[] }, sources: IntelSources = {}): IntelStore {
    const cves = new Map<string, CveRecord>();
    for (const doc of feeds.nvd ?? []) for (const r of parseNvd(doc).records) cves.set(r.id, r);
    const epss = feeds.epss ? parseEpss(feeds.epss) : undefined;
    const kev = feeds.kev ? parseKev(feeds.kev) : undefined;
    const osv = (feeds.osv ?? []).flatMap((doc) => parseOsv(doc).fixes);
    return new IntelStore(
      cves.values(),
      epss?.scores,
      kev?.entries,
      {
        ...sources,
        ...(epss?.modelVersion ? { epssModelVersion: epss.modelVersion } : {}),
        ...(epss?.scoreDate ? { epssScoreDate: epss.scoreDate } : {}),
        ...(kev?.catalogVersion ? { kevCatalogVersion: kev.catalogVersion } : {}),
      },
      osv,
    );
  }

  /** Loads INTEL_DIR: the snapshot when present, else every feed file by its usual name. */
  static async load(dir: string): Promise<IntelStore> {
    const snapshot = path.join(dir, SNAPSHOT_FILE);
    if (await exists(snapshot)) return IntelStore.fromSnapshot(JSON.parse((await readMaybeGzip(snapshot)).toString("utf8")) as IntelSnapshot);
    const files = (await fs.readdir(dir)).sort();
    const nvdFiles = files.filter((f) => /^nvdcve.*\.json(\.gz)?$|^nvd.*\.json(\.gz)?$/i.test(f));
    const epssFile = files.find((f) => /^epss.*\.csv(\.gz)?$/i.test(f));
    const kevFile = files.find((f) => /^(known_exploited_vulnerabilities|kev).*\.json(\.gz)?$/i.test(f));
    const osvFiles = files.filter((f) => /^osv.*\.json(\.gz)?$/i.test(f));
    if (!nvdFiles.length && !epssFile && !kevFile) throw new FeedError(`no intel snapshot or feed files in ${dir}`);
    const nvd = await Promise.all(nvdFiles.map(async (f) => JSON.parse((await readMaybeGzip(path.join(dir, f))).toString("utf8")) as unknown));
    const epss = epssFile ? (await readMaybeGzip(path.join(dir, epssFile))).toString("utf8") : undefined;
    const kev = kevFile ? (JSON.parse((await readMaybeGzip(path.join(dir, kevFile))).toString("utf8")) as unknown) : undefined;
    const osv = await Promise.all(osvFiles.map(async (f) => JSON.parse((await readMaybeGzip(path.join(dir, f))).toString("utf8")) as unknown));
    return IntelStore.fromFeeds(
      { nvd, ...(epss ? { epss } : {}), ...(kev ? { kev } : {}), osv },
      { nvd: nvdFiles, ...(osvFiles.length ? { osv: osvFiles } : {}) },
    );
  }

  /** Writes the compact snapshot (atomically: temp file, then rename). */
  async save(dir: string): Promise<string> {
    await fs.mkdir(dir, { recursive: true });
    const target = path.join(dir, SNAPSHOT_FILE);
    const tmp = `${target}.${process.pid}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(this.toSnapshot()));
    await fs.rename(tmp, target);
    return target;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}

/** Reads a file, gunzipping it when it starts with the gzip magic bytes (feeds ship as .gz). */
export async function readMaybeGzip(p: string): Promise<Buffer> {
  const buf = await fs.readFile(p);
  return buf[0] === 0x1f && buf[1] === 0x8b ? gunzipSync(buf) : buf;
}

export function gunzipIfNeeded(buf: Buffer): Buffer {
  return buf[0] === 0x1f && buf[1] === 0x8b ? gunzipSync(buf) : buf;
}
