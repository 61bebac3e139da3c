import { describe, expect, it } from "vitest";
import { applicationCpe, compareVersions, cpeMatches, parseCpe } from "./cpe.js";

const svc = (s: string) => parseCpe(s)!;

describe("CPE 2.3 names", () => {
  it("splits on unescaped colons and unescapes", () => {
    expect(parseCpe("cpe:2.3:a:openbsd:openssh:7.2:p2:*:*:*:*:*:*")).toMatchObject({
      part: "a",
      vendor: "openbsd",
      product: "openssh",
      version: "7.2",
      update: "p2",
    });
    expect(parseCpe("cpe:2.3:a:acme:web\\:server:1.0\\+b:*:*:*:*:*:*:*")).toMatchObject({ product: "web:server", version: "1.0+b" });
    expect(parseCpe("cpe:/a:openbsd:openssh:7.2")).toBeUndefined();
    expect(applicationCpe("F5", "nginx", "1.18.0")).toBe("cpe:2.3:a:f5:nginx:1.18.0:*:*:*:*:*:*:*");
  });
});

describe("version order", () => {
  it.each([
    ["1.18.0", "1.20.1", -1],
    ["1.2", "1.2.0", -1],
    ["1.10", "1.9", 1],
    ["2.3.4", "2.3.4", 0],
    ["1.0.2k", "1.0.2l", -1],
    ["1.0.1f", "1.0.1g", -1],
    ["1.0.1", "1.0.1g", -1],
    ["2.0rc1", "2.0", -1],
    ["2.0-beta9", "2.0.1", -1],
    ["7.2p2", "7.2", 1],
    ["6.0.20", "6.0.9", 1],
  ])("%s vs %s → %d", (a, b, want) => {
    expect(Math.sign(compareVersions(a, b))).toBe(want);
    expect(Math.sign(compareVersions(b, a))).toBe(want === 0 ? 0 : -want);
  });
});

describe("cpeMatch criteria", () => {
  const openssh = (extra: object) => ({ criteria: "cpe:2.3:a:openbsd:openssh:*:*:*:*:*:*:*:*", vulnerable: true, ...extra });

  it("applies ranges to the version, whatever the patch level (7.2p2 is 7.2 update p2)", () => {
    const s = svc("cpe:2.3:a:openbsd:openssh:7.2:p2:*:*:*:*:*:*");
    expect(cpeMatches(s, openssh({ versionEndIncluding: "7.7" }))).toBe(true);
    expect(cpeMatches(s, openssh({ versionEndExcluding: "7.3" }))).toBe(true);
    expect(cpeMatches(s, openssh({ versionEndExcluding: "7.2" }))).toBe(false);
    expect(cpeMatches(s, openssh({ versionStartIncluding: "8.5", versionEndExcluding: "9.8" }))).toBe(false);
    // Patch level written into the version, as some fingerprints do.
    expect(cpeMatches(svc("cpe:2.3:a:openbsd:openssh:7.7p1:*:*:*:*:*:*:*"), openssh({ versionEndIncluding: "7.7" }))).toBe(true);
  });

  it("honours every bound kind", () => {
    const s = svc("cpe:2.3:a:redis:redis:6.2.5:*:*:*:*:*:*:*");
    const r = (extra: object) => ({ criteria: "cpe:2.3:a:redis:redis:*:*:*:*:*:*:*:*", vulnerable: true, ...extra });
    expect(cpeMatches(s, r({ versionStartIncluding: "6.2.0", versionEndExcluding: "6.2.12" }))).toBe(true);
    expect(cpeMatches(s, r({ versionStartExcluding: "6.2.5" }))).toBe(false);
    expect(cpeMatches(s, r({ versionStartIncluding: "6.2.5", versionEndIncluding: "6.2.5" }))).toBe(true);
    expect(cpeMatches(s, r({ versionEndExcluding: "6.0.19" }))).toBe(false);
    expect(cpeMatches(s, r({}))).toBe(true); // every version
  });

  it("matches exact criteria versions and updates", () => {
    const exact = { criteria: "cpe:2.3:a:vsftpd_project:vsftpd:2.3.4:*:*:*:*:*:*:*", vulnerable: true };
    expect(cpeMatches(svc("cpe:2.3:a:vsftpd_project:vsftpd:2.3.4:*:*:*:*:*:*:*"), exact)).toBe(true);
    expect(cpeMatches(svc("cpe:2.3:a:vsftpd_project:vsftpd:2.3.5:*:*:*:*:*:*:*"), exact)).toBe(false);
    const p1 = { criteria: "cpe:2.3:a:openbsd:openssh:9.3:p1:*:*:*:*:*:*", vulnerable: true };
    expect(cpeMatches(svc("cpe:2.3:a:openbsd:openssh:9.3:p1:*:*:*:*:*:*"), p1)).toBe(true);
    expect(cpeMatches(svc("cpe:2.3:a:openbsd:openssh:9.3p1:*:*:*:*:*:*:*"), p1)).toBe(true);
    expect(cpeMatches(svc("cpe:2.3:a:openbsd:openssh:9.3:p2:*:*:*:*:*:*"), p1)).toBe(false);
  });

  it("needs the product and (unless told otherwise) the vendor, and a known version", () => {
    const m = openssh({ versionEndIncluding: "7.7" });
    expect(cpeMatches(svc("cpe:2.3:a:acme:openssh:7.2:*:*:*:*:*:*:*"), m)).toBe(false);
    expect(cpeMatches(svc("cpe:2.3:a:acme:openssh:7.2:*:*:*:*:*:*:*"), m, { ignoreVendor: true })).toBe(true);
    expect(cpeMatches(svc("cpe:2.3:a:openbsd:dropbear:7.2:*:*:*:*:*:*:*"), m)).toBe(false);
    expect(cpeMatches(svc("cpe:2.3:a:openbsd:openssh:*:*:*:*:*:*:*:*"), m)).toBe(false);
  });
});
