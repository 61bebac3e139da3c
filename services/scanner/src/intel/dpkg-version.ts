/*
 * Debian package version ordering (deb-version(7); dpkg's lib/dpkg/version.c `verrevcmp`), used
 * for Debian and Ubuntu, whose fixed versions are package versions: `[epoch:]upstream[-revision]`.
 * Written here rather than taken from npm: the one registry package for it (deb-version-compare
 * 1.2.1, a single release) orders "0" before "00", which dpkg holds equal.
 */

export interface DebVersion {
  epoch: number;
  upstream: string;
  /** What follows the last hyphen; "" when there is none (compares as "0"). */
  revision: string;
}

/** Splits a package version the way dpkg reads one: epoch before the first colon, revision after the last hyphen. */
export function splitDebVersion(v: string): DebVersion {
  const s = v.trim();
  const colon = s.indexOf(":");
  const epoch = colon >= 0 && /^\d+$/.test(s.slice(0, colon)) ? Number(s.slice(0, colon)) : 0;
  const rest = colon >= 0 && /^\d+$/.test(s.slice(0, colon)) ? s.slice(colon + 1) : s;
  const hyphen = rest.lastIndexOf("-");
  return hyphen >= 0 ? { epoch, upstream: rest.slice(0, hyphen), revision: rest.slice(hyphen + 1) } : { epoch, upstream: rest, revision: "" };
}

/** Whether a string is a well-formed package version (numeric epoch, upstream starting with a digit, allowed characters). */
export function isDebVersion(v: string): boolean {
  const s = v.trim();
  const colon = s.indexOf(":");
  if (colon >= 0 && !/^\d+$/.test(s.slice(0, colon))) return false;
  const { upstream, revision } = splitDebVersion(s);
  return /^\d[A-Za-z0-9.+~:-]*$/.test(upstream) && /^[A-Za-z0-9.+~]*$/.test(revision);
}

/** dpkg's character weight: "~" below everything (even the end), then the end, letters, other symbols. */
function order(c: string | undefined): number {
  if (c === undefined) return 0;
  if (c === "~") return -1;
  if (/[0-9]/.test(c)) return 0;
  if (/[A-Za-z]/.test(c)) return c.charCodeAt(0);
  return c.charCodeAt(0) + 256;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

/** Compares two upstream or revision strings: non-digit runs by weight, digit runs as numbers. */
function verrevcmp(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let firstDiff = 0;
    while ((i < a.length && !isDigit(a[i])) || (j < b.length && !isDigit(b[j]))) {
      const ac = order(a[i]);
      const bc = order(b[j]);
      if (ac !== bc) return ac - bc;
      i++;
      j++;
    }
    while (a[i] === "0") i++;
    while (b[j] === "0") j++;
    while (isDigit(a[i]) && isDigit(b[j])) {
      if (!firstDiff) firstDiff = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (isDigit(a[i])) return 1;
    if (isDigit(b[j])) return -1;
    if (firstDiff) return firstDiff;
  }
  return 0;
}

/** -1, 0 or 1 as dpkg --compare-versions orders a and b. */
export function compareDebVersions(a: string, b: string): number {
  const va = splitDebVersion(a);
  const vb = splitDebVersion(b);
  if (va.epoch !== vb.epoch) return va.epoch < vb.epoch ? -1 : 1;
  const up = verrevcmp(va.upstream, vb.upstream);
  if (up) return Math.sign(up);
  return Math.sign(verrevcmp(va.revision, vb.revision));
}
