import { compareDebVersions, splitDebVersion } from "./dpkg-version.js";
import type { Distro, DistroFix } from "./osv.js";

/*
 * Distribution builds seen from the network. Debian and Ubuntu backport fixes without changing
 * the upstream version, so "OpenSSH 9.2p1" alone says little: the package revision the banner
 * carries ("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u10") is what tells a patched build from an old
 * one, compared with the release's fixed version (OSV, osv.ts) by dpkg rules.
 */

/** What a service says about the distribution package it runs. */
export interface DistroBuild {
  distro: Distro;
  /** Debian/Ubuntu source package of the product. */
  package: string;
  upstream: string;
  /** The package revision when the banner carries one ("2+deb12u10", "3ubuntu0.10"). */
  revision?: string;
  /** The release when the revision names it ("+deb12u10" → 12, "~22.04" → 22.04). */
  release?: string;
  /** Where it was read, for the evidence ("SSH banner comment Debian-2+deb12u10"). */
  seen: string;
}

/** Products (as identification names them) → their source package in Debian and Ubuntu. */
const SOURCE_PACKAGES: Record<string, string> = {
  openssh: "openssh",
  nginx: "nginx",
  apache: "apache2",
  http_server: "apache2",
  vsftpd: "vsftpd",
  redis: "redis",
  openssl: "openssl",
  postfix: "postfix",
  proftpd: "proftpd-dfsg",
  exim: "exim4",
  memcached: "memcached",
  lighttpd: "lighttpd",
};

const DISTRO_NAMES: Record<string, Distro> = { debian: "debian", ubuntu: "ubuntu" };

/** The release a revision names: Debian's `+debNNuM`/`~debNN`, Ubuntu's `~NN.NN`. */
export function releaseOf(distro: Distro, revision: string): string | undefined {
  if (distro === "debian") return /(?:\+|~)deb(\d+)(?:u\d+)?/.exec(revision)?.[1];
  return /~(\d\d\.\d\d)(?:\.\d+)?/.exec(revision)?.[1];
}

/**
 * The distribution build a service's identification shows: an SSH banner comment
 * ("Debian-2+deb12u10", "Ubuntu-3ubuntu0.10") gives the distribution and the revision; a Server
 * header comment ("Apache/2.4.57 (Debian)") the distribution alone. Undefined when neither.
 */
export function distroBuildOf(svc: { name?: string; product?: string; version?: string; banner?: string }): DistroBuild | undefined {
  const product = (svc.product ?? "").toLowerCase();
  const pkg = SOURCE_PACKAGES[product];
  if (!pkg || !svc.version || !svc.banner) return undefined;
  const ssh = /^SSH-[\d.]+-\S+ (Debian|Ubuntu)-(\S+)/i.exec(svc.banner);
  if (ssh) {
    const distro = DISTRO_NAMES[ssh[1]!.toLowerCase()]!;
    const revision = ssh[2]!;
    const release = releaseOf(distro, revision);
    return { distro, package: pkg, upstream: svc.version, revision, ...(release ? { release } : {}), seen: `SSH banner comment ${ssh[1]}-${revision}` };
  }
  const server = /Server: [^;\n]*\((Debian|Ubuntu)\)/i.exec(svc.banner);
  if (server) return { distro: DISTRO_NAMES[server[1]!.toLowerCase()]!, package: pkg, upstream: svc.version, seen: `Server header names ${server[1]}` };
  return undefined;
}

export type DistroVerdict =
  /** The release's fixed version is at or below the running one. */
  | { status: "fixed"; fix: DistroFix; installed: string; fixed: string }
  /** The running revision is below the release's fix, or the release has no fix yet. */
  | { status: "vulnerable"; fix: DistroFix; installed: string; fixed?: string }
  /** The revision could not be resolved against the distribution's data. */
  | { status: "unknown"; reason: string };

/** The package version of a build, with the epoch the distribution's record uses ("1:" for OpenSSH). */
function installedVersion(build: DistroBuild, like: string): string {
  const epoch = splitDebVersion(like).epoch;
  return `${epoch ? `${epoch}:` : ""}${build.upstream}-${build.revision}`;
}

function inRange(version: string, r: DistroFix["ranges"][number]): boolean {
  if (r.introduced !== "0" && compareDebVersions(version, r.introduced) < 0) return false;
  return r.fixed === undefined || compareDebVersions(version, r.fixed) < 0;
}

/**
 * The state of one CVE in one distribution build. With the release known (the revision names
 * it), that release's record decides; without it, the records whose fixed version has the same
 * upstream version as the build do, when they all agree. Anything else is "unknown": the caller
 * keeps the version match and says the backport could not be checked.
 */
export function resolveDistro(build: DistroBuild, fixes: DistroFix[]): DistroVerdict {
  const name = build.distro === "debian" ? "Debian" : "Ubuntu";
  if (!build.revision) return { status: "unknown", reason: `the service names ${name} but not the package revision` };
  const mine = fixes.filter((f) => f.distro === build.distro && f.package === build.package);
  if (!mine.length) return { status: "unknown", reason: `no ${name} record for this CVE in package ${build.package}` };
  const candidates = build.release
    ? mine.filter((f) => f.release === build.release)
    : mine.filter((f) => f.ranges.some((r) => r.fixed !== undefined && splitDebVersion(r.fixed).upstream === build.upstream));
  if (!candidates.length)
    return {
      status: "unknown",
      reason: build.release
        ? `no ${name} ${build.release} record for this CVE in package ${build.package}`
        : `revision ${build.revision} names no release and no ${name} fix is for upstream ${build.upstream}`,
    };
  const verdicts = candidates.map((fix): DistroVerdict => {
    const like = fix.ranges.find((r) => r.fixed)?.fixed ?? fix.ranges[0]!.introduced;
    const installed = installedVersion(build, like);
    const hit = fix.ranges.find((r) => inRange(installed, r));
    if (hit) return { status: "vulnerable", fix, installed, ...(hit.fixed ? { fixed: hit.fixed } : {}) };
    const fixed = fix.ranges
      .map((r) => r.fixed)
      .filter((v): v is string => v !== undefined)
      .sort(compareDebVersions)
      .at(-1);
    return fixed ? { status: "fixed", fix, installed, fixed } : { status: "unknown", reason: `${fix.source} gives no fixed version` };
  });
  const statuses = new Set(verdicts.map((v) => v.status));
  if (statuses.size === 1) return verdicts[0]!;
  return { status: "unknown", reason: `${name} records disagree for ${build.upstream}-${build.revision} (${candidates.map((c) => c.ecosystem).join(", ")})` };
}

/** "Debian 12", "Ubuntu 22.04" for texts. */
export function releaseName(f: Pick<DistroFix, "distro" | "release">): string {
  return `${f.distro === "debian" ? "Debian" : "Ubuntu"} ${f.release}`;
}
