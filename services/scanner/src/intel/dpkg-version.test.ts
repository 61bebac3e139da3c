import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { compareDebVersions, isDebVersion, splitDebVersion } from "./dpkg-version.js";

/*
 * dpkg's own comparison vectors (dpkg's scripts/t/Dpkg_Version.t, its __DATA__ section: a, b,
 * expected sign), then the distribution revisions this scanner meets in banners.
 */
const DPKG_VECTORS: [string, string, number][] = [
  ["1.0-1", "2.0-2", -1],
  ["2.2~rc-4", "2.2-1", -1],
  ["2.2-1", "2.2~rc-4", 1],
  ["1.0000-1", "1.0-1", 0],
  ["1", "0:1", 0],
  ["0", "0:0-0", 0],
  ["2:2.5", "1:7.5", 1],
  ["1:0foo", "0foo", 1],
  ["0:0foo", "0foo", 0],
  ["0foo", "0foo", 0],
  ["0foo-", "0foo", 0],
  ["0foo-", "0foo-0", 0],
  ["0foo", "0fo", 1],
  ["0foo-", "0foo+", -1],
  ["0foo~1", "0foo", -1],
  ["0foo~foo+Bar", "0foo~foo+bar", -1],
  ["0foo~~", "0foo~", -1],
  ["1~", "1", -1],
  ["12345+that-really-is-some-ver-0", "12345+that-really-is-some-ver-10", -1],
  ["0foo-0", "0foo-01", -1],
  ["0foo.bar", "0foobar", 1],
  ["0foo.bar", "0foo1bar", 1],
  ["0foo.bar", "0foo0bar", 1],
  ["0foo1bar-1", "0foobar-1", -1],
  ["0foo2.0", "0foo2", 1],
  ["0foo2.0.0", "0foo2.10.0", -1],
  ["0foo2.0", "0foo2.0.0", -1],
  ["0foo2.0", "0foo2.10", -1],
  ["0foo2.1", "0foo2.10", -1],
  ["1.09", "1.9", 0],
  ["1.0.8+nmu1", "1.0.8", 1],
  ["3.11", "3.10+nmu1", 1],
  ["0.9j-20080306-4", "0.9i-20070324-2", 1],
  ["1.2.0~b7-1", "1.2.0~b6-1", 1],
  ["1.011-1", "1.06-2", 1],
  ["0.0.9+dfsg1-1", "0.0.8+dfsg1-3", 1],
  ["4.6.99+svn6582-1", "4.6.99+svn6496-1", 1],
  ["53", "52", 1],
  ["0.9.9~pre122-1", "0.9.9~pre111-1", 1],
  ["2:2.3.2-2+lenny2", "2:2.3.2-2", 1],
  ["1:3.8.1-1", "3.8.GA-1", 1],
  ["1.0.1+gpl-1", "1.0.1-2", 1],
  ["1a", "1000a", -1],
  ["-0.6.5", "0.9.1", -1],
];

/** Revisions as Debian and Ubuntu write them for OpenSSH, nginx and Apache updates. */
const DISTRO_VECTORS: [string, string, number][] = [
  ["1:9.2p1-2+deb12u10", "1:9.2p1-2+deb12u3", 1], // 10 > 3 as numbers, not as text
  ["1:9.2p1-2+deb12u2", "1:9.2p1-2+deb12u3", -1],
  ["1:9.2p1-2", "1:9.2p1-2+deb12u1", -1],
  ["1:8.9p1-3ubuntu0.10", "1:8.9p1-3ubuntu0.3", 1],
  ["1:8.9p1-3ubuntu0.6", "1:8.9p1-3ubuntu0.10", -1],
  ["1:9.6p1-3ubuntu13.3", "1:9.6p1-3ubuntu13", 1],
  ["1:7.2p2-4ubuntu2.8", "1:7.2p2-4ubuntu2.10", -1],
  ["9.2p1-2+deb12u10", "1:9.2p1-2+deb12u3", -1], // a missing epoch is 0
  ["1.22.1-9+deb12u1", "1.22.1-9", 1],
  ["2.4.57-2~bpo11+1", "2.4.57-2", -1],
  ["1:6.6p1-2ubuntu2.13+esm1", "1:6.6p1-2ubuntu2.13", 1],
];

describe("dpkg version ordering", () => {
  it.each(DPKG_VECTORS)("dpkg's vector %s vs %s is %i (and the reverse)", (a, b, want) => {
    expect(compareDebVersions(a, b)).toBe(want);
    expect(compareDebVersions(b, a)).toBe(-want || 0);
  });

  it.each(DISTRO_VECTORS)("distribution revision %s vs %s is %i", (a, b, want) => {
    expect(compareDebVersions(a, b)).toBe(want);
    expect(compareDebVersions(b, a)).toBe(-want || 0);
  });

  it("splits epoch, upstream and revision at the first colon and the last hyphen", () => {
    expect(splitDebVersion("1:9.2p1-2+deb12u10")).toEqual({ epoch: 1, upstream: "9.2p1", revision: "2+deb12u10" });
    expect(splitDebVersion("12345+that-really-is-0")).toEqual({ epoch: 0, upstream: "12345+that-really-is", revision: "0" });
    expect(splitDebVersion("2.4")).toEqual({ epoch: 0, upstream: "2.4", revision: "" });
  });

  it("tells well-formed versions from others", () => {
    for (const ok of ["1:9.2p1-2+deb12u10", "0", "1.0~rc1-1", "2:1.2.3"]) expect(isDebVersion(ok), ok).toBe(true);
    for (const bad of ["", "10a:5.2", "5.2@3-2", "foo5.2", "0:foo5.2"]) expect(isDebVersion(bad), bad).toBe(false);
  });

  // Where dpkg itself is installed (Debian, the CI machine), every vector agrees with it too.
  const dpkg = (() => {
    try {
      execFileSync("dpkg", ["--version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!dpkg)("agrees with dpkg --compare-versions on the distribution vectors", () => {
    for (const [a, b, want] of DISTRO_VECTORS) {
      const rel = want < 0 ? "lt" : want > 0 ? "gt" : "eq";
      expect(() => execFileSync("dpkg", ["--compare-versions", "--", a, rel, b], { stdio: "ignore" }), `${a} ${rel} ${b}`).not.toThrow();
    }
  });
});
