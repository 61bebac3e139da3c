import { z } from "zod";
import { FeedError } from "./feeds.js";

/*
 * OSV records (https://ossf.github.io/osv-schema/) of the Debian and Ubuntu ecosystems: per CVE
 * and release, the source package and the package version that fixed it. Debian publishes
 * `DEBIAN-CVE-*` (and `DSA-*`) records with ecosystems `Debian:<release>`; Ubuntu publishes
 * `UBUNTU-CVE-*` with `Ubuntu:<release>[:LTS]` (and `Ubuntu:Pro:<release>:LTS`). Ranges are of
 * type ECOSYSTEM, so their versions order by dpkg rules (dpkg-version.ts). Only the fields used
 * are validated; other ecosystems in the same file are skipped.
 */

export type Distro = "debian" | "ubuntu";

/** One release's state of one CVE in one source package. */
export interface DistroFix {
  cve: string;
  distro: Distro;
  /** "12", "22.04". */
  release: string;
  /** The OSV ecosystem as written ("Debian:12", "Ubuntu:22.04:LTS"). */
  ecosystem: string;
  /** Source package ("openssh", "nginx", "apache2"). */
  package: string;
  /** Affected intervals; `fixed` absent while the release has no fix. `introduced` "0" = from the start. */
  ranges: { introduced: string; fixed?: string }[];
  /** The OSV record this came from (DEBIAN-CVE-..., UBUNTU-CVE-..., DSA-...). */
  source: string;
}

// Built for one parse, as the NVD schemas (feeds.ts).
function osvSchema() {
  const event = z.object({ introduced: z.string().optional(), fixed: z.string().optional(), last_affected: z.string().optional() }).loose();
  return z
    .object({
      id: z.string(),
      withdrawn: z.string().optional(),
      aliases: z.array(z.string()).optional(),
      upstream: z.array(z.string()).optional(),
      related: z.array(z.string()).optional(),
      affected: z
        .array(
          z
            .object({
              package: z.object({ ecosystem: z.string(), name: z.string() }).loose(),
              ranges: z.array(z.object({ type: z.string(), events: z.array(event) }).loose()).optional(),
            })
            .loose(),
        )
        .default([]),
    })
    .loose();
}

const CVE = /^CVE-\d{4}-\d{4,}$/;

/** The CVEs a record is about: its id without the distribution prefix, and CVE aliases/upstream ids. */
function cvesOf(r: z.infer<ReturnType<typeof osvSchema>>): string[] {
  const ids = new Set<string>();
  const own = r.id.replace(/^(DEBIAN|UBUNTU)-/, "");
  if (CVE.test(own)) ids.add(own);
  for (const a of [...(r.aliases ?? []), ...(r.upstream ?? [])]) if (CVE.test(a)) ids.add(a);
  return [...ids];
}

/** "Debian:12" → debian 12; "Ubuntu:22.04:LTS", "Ubuntu:Pro:18.04:LTS" → ubuntu 22.04 / 18.04. */
export function parseEcosystem(ecosystem: string): { distro: Distro; release: string } | undefined {
  const debian = /^Debian:(\d+)$/.exec(ecosystem);
  if (debian) return { distro: "debian", release: debian[1]! };
  const ubuntu = /^Ubuntu:(?:Pro:)?(\d\d\.\d\d)(?::LTS)?$/.exec(ecosystem);
  if (ubuntu) return { distro: "ubuntu", release: ubuntu[1]! };
  return undefined;
}

/** Records from one OSV document: a record, an array of records, or an API answer `{ vulns: [...] }`. */
export function parseOsv(json: unknown): { fixes: DistroFix[]; records: number; rejected: number } {
  const list = Array.isArray(json)
    ? json
    : json && typeof json === "object" && Array.isArray((json as { vulns?: unknown }).vulns)
      ? (json as { vulns: unknown[] }).vulns
      : json && typeof json === "object" && "id" in json
        ? [json]
        : undefined;
  if (!list) throw new FeedError("not an OSV document: expected a record, an array of records or { vulns: [...] }");
  const fixes: DistroFix[] = [];
  let rejected = 0;
  let records = 0;
  const osvRecord = osvSchema();
  for (const item of list) {
    const parsed = osvRecord.safeParse(item);
    if (!parsed.success) {
      rejected++;
      continue;
    }
    const r = parsed.data;
    if (r.withdrawn) continue;
    records++;
    const cves = cvesOf(r);
    for (const a of r.affected) {
      const eco = parseEcosystem(a.package.ecosystem);
      if (!eco) continue;
      const ranges: DistroFix["ranges"] = [];
      for (const range of a.ranges ?? []) {
        if (range.type !== "ECOSYSTEM") continue;
        let open: string | undefined;
        for (const e of range.events) {
          if (e.introduced !== undefined) open = e.introduced;
          else if (e.fixed !== undefined) {
            ranges.push({ introduced: open ?? "0", fixed: e.fixed });
            open = undefined;
          }
        }
        if (open !== undefined) ranges.push({ introduced: open });
      }
      if (!ranges.length) continue;
      for (const cve of cves) fixes.push({ cve, ...eco, ecosystem: a.package.ecosystem, package: a.package.name, ranges, source: r.id });
    }
  }
  return { fixes, records, rejected };
}
