/*
 * CPE 2.3 formatted strings and version ranges as NVD uses them in `configurations[].nodes[]
 * .cpeMatch[]`: a criteria CPE (version "*" when a range is given) plus optional
 * versionStart/End Including/Excluding bounds.
 */

export interface Cpe {
  part: string;
  vendor: string;
  product: string;
  version: string;
  update: string;
  /** The remaining attributes (edition, language, sw_edition, target_sw, target_hw, other). */
  rest: string[];
}

/** Splits a `cpe:2.3:...` string on unescaped colons; undefined when it is not one. */
export function parseCpe(cpe: string): Cpe | undefined {
  if (!cpe.startsWith("cpe:2.3:")) return undefined;
  const fields: string[] = [];
  let cur = "";
  for (let i = "cpe:2.3:".length; i < cpe.length; i++) {
    const ch = cpe[i]!;
    if (ch === "\\" && i + 1 < cpe.length) {
      cur += cpe[++i];
    } else if (ch === ":") {
      fields.push(cur);
      cur = "";
    } else cur += ch;
  }
  fields.push(cur);
  if (fields.length < 4) return undefined;
  const [part, vendor, product, version = "*", update = "*", ...rest] = fields.map((f) => f.toLowerCase());
  if (!part || !vendor || !product) return undefined;
  return { part, vendor, product, version, update, rest };
}

const PRE_RELEASE = /^(dev|alpha|a|beta|b|pre|preview|rc|cr|m)$/;

function tokens(version: string): (number | string)[] {
  const out: (number | string)[] = [];
  for (const seg of version.toLowerCase().split(/[.\-_+~:]/)) {
    for (const m of seg.matchAll(/\d+|[a-z]+/g)) out.push(/^\d/.test(m[0]) ? Number(m[0]) : m[0]);
  }
  return out;
}

/**
 * Orders two version strings the way vendors number releases: numeric runs compare as numbers,
 * letter runs as text ("1.0.2k" < "1.0.2l"), a missing part counts as lower ("1.2" < "1.2.1"),
 * except that a trailing pre-release marker sorts before the release ("2.0rc1" < "2.0").
 */
export function compareVersions(a: string, b: string): number {
  const ta = tokens(a);
  const tb = tokens(b);
  for (let i = 0; i < Math.max(ta.length, tb.length); i++) {
    const x = ta[i];
    const y = tb[i];
    if (x === undefined) return typeof y === "string" && PRE_RELEASE.test(y) ? 1 : -1;
    if (y === undefined) return typeof x === "string" && PRE_RELEASE.test(x) ? -1 : 1;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x < y ? -1 : 1;
    if (typeof x === "string" && typeof y === "string") return x < y ? -1 : 1;
    // A number against a letter run: "1.2.3" vs "1.2.beta" — the release sorts higher.
    return typeof x === "number" ? 1 : -1;
  }
  return 0;
}

export interface CpeMatchCriteria {
  criteria: string;
  vulnerable: boolean;
  versionStartIncluding?: string;
  versionStartExcluding?: string;
  versionEndIncluding?: string;
  versionEndExcluding?: string;
}

const ANY = (v: string) => v === "*" || v === "";

/**
 * The version and update a service CPE states. OpenSSH-style patch levels written into the
 * version ("7.2p2") are split off as NVD records them (version 7.2, update p2), so ranges that
 * NVD states on the version ("through 7.7") apply to every patch level of it.
 */
export function serviceVersion(cpe: Cpe): { version: string; update: string } {
  const m = /^(.*\d)(p\d+)$/.exec(cpe.version);
  if (m && ANY(cpe.update)) return { version: m[1]!, update: m[2]! };
  return { version: cpe.version, update: cpe.update };
}

/** Whether a concrete service CPE falls under one NVD cpeMatch entry (vendor, product, version range). */
export function cpeMatches(service: Cpe, match: CpeMatchCriteria, opts: { ignoreVendor?: boolean } = {}): boolean {
  const crit = parseCpe(match.criteria);
  if (!crit) return false;
  if (crit.part !== service.part && !ANY(crit.part)) return false;
  if (!opts.ignoreVendor && crit.vendor !== service.vendor && !ANY(crit.vendor)) return false;
  if (crit.product !== service.product) return false;
  const { version, update } = serviceVersion(service);
  if (ANY(version) || version === "-") return false; // no version known: nothing to compare
  const ranged = match.versionStartIncluding ?? match.versionStartExcluding ?? match.versionEndIncluding ?? match.versionEndExcluding;
  if (!ANY(crit.version)) {
    if (crit.version === "-") return false;
    // An exact criteria version ("2.3.4", or "7.2" with update "p2").
    if (compareVersions(crit.version, version) !== 0) {
      // NVD sometimes writes the patch level into the version ("7.2p2"): compare the whole.
      const whole = ANY(update) || update === "-" ? version : `${version}${update}`;
      if (compareVersions(crit.version, whole) !== 0) return false;
      return true;
    }
    if (!ANY(crit.update) && crit.update !== "-" && crit.update !== update) return false;
    if (!ranged) return true;
  }
  if (match.versionStartIncluding && compareVersions(version, match.versionStartIncluding) < 0) return false;
  if (match.versionStartExcluding && compareVersions(version, match.versionStartExcluding) <= 0) return false;
  if (match.versionEndIncluding && compareVersions(version, match.versionEndIncluding) > 0) return false;
  if (match.versionEndExcluding && compareVersions(version, match.versionEndExcluding) >= 0) return false;
  return true;
}

/** Builds a CPE 2.3 name for an application (helpers for tests and for services that only know product and version). */
export function applicationCpe(vendor: string, product: string, version: string, update = "*"): string {
  const esc = (s: string) =>
    s
      .toLowerCase()
      .replace(/([:\\*?!"#$%&'()+,/;<=>@[\]^`{|}~])/g, "\\$1")
      .replace(/\s+/g, "_");
  return `cpe:2.3:a:${esc(vendor)}:${esc(product)}:${esc(version)}:${update}:*:*:*:*:*:*`;
}
