import { describe, expect, it } from "vitest";
import { DEFAULT_INTEL_DIR } from "../config.js";
import { assessDistro } from "../engine/phases/cve-assessment.js";
import { cveDetection } from "../engine/phases/vulnerability-scanning.js";
import type { Service } from "../engine/types.js";
import { cpeFor } from "../engine/fingerprint/cpe.js";
import { parseSsh } from "../engine/fingerprint/banner.js";
import { distroBuildOf, releaseOf, resolveDistro } from "./distro.js";
import { parseEcosystem, parseOsv } from "./osv.js";
import { IntelStore } from "./store.js";

const store = await IntelStore.load(DEFAULT_INTEL_DIR);

/** A service as identification leaves it after reading an SSH banner. */
function sshService(banner: string): Service {
  const id = parseSsh(banner)!;
  return { host: "10.0.0.5", port: 22, tls: false, ...id, cpe: cpeFor(id.product, id.version) };
}

const matchesOf = (svc: Service) => store.matchCpe(svc.cpe!).map((m) => ({ m, d: cveDetection(m, svc, assessDistro(m, svc, store)) }));
const byCve = (svc: Service) => new Map(matchesOf(svc).map(({ m, d }) => [m.cve.id, d]));

describe("OSV records of Debian and Ubuntu", () => {
  it("reads ecosystems, fixed versions and the CVE of each record", () => {
    expect(parseEcosystem("Debian:12")).toEqual({ distro: "debian", release: "12" });
    expect(parseEcosystem("Ubuntu:22.04:LTS")).toEqual({ distro: "ubuntu", release: "22.04" });
    expect(parseEcosystem("Ubuntu:Pro:18.04:LTS")).toEqual({ distro: "ubuntu", release: "18.04" });
    expect(parseEcosystem("Alpine:v3.18")).toBeUndefined();
    const { fixes, records } = parseOsv([
      {
        id: "DSA-5724-1",
        upstream: ["CVE-2024-6387"],
        affected: [
          {
            package: { ecosystem: "Debian:12", name: "openssh" },
            ranges: [{ type: "ECOSYSTEM", events: [{ introduced: "0" }, { fixed: "1:9.2p1-2+deb12u3" }] }],
          },
          { package: { ecosystem: "npm", name: "x" }, ranges: [{ type: "SEMVER", events: [{ introduced: "0" }, { fixed: "1.0.0" }] }] },
        ],
      },
      { id: "UBUNTU-CVE-2099-0001", withdrawn: "2099-01-01T00:00:00Z", affected: [] },
      {
        id: "DEBIAN-CVE-2099-0002",
        affected: [{ package: { ecosystem: "Debian:13", name: "nginx" }, ranges: [{ type: "ECOSYSTEM", events: [{ introduced: "0" }] }] }],
      },
    ]);
    expect(records).toBe(2);
    expect(fixes).toEqual([
      {
        cve: "CVE-2024-6387",
        distro: "debian",
        release: "12",
        ecosystem: "Debian:12",
        package: "openssh",
        ranges: [{ introduced: "0", fixed: "1:9.2p1-2+deb12u3" }],
        source: "DSA-5724-1",
      },
      {
        cve: "CVE-2099-0002",
        distro: "debian",
        release: "13",
        ecosystem: "Debian:13",
        package: "nginx",
        ranges: [{ introduced: "0" }],
        source: "DEBIAN-CVE-2099-0002",
      },
    ]);
    expect(() => parseOsv({ format: "NVD_CVE" })).toThrow(/not an OSV document/);
  });

  it("ships records for the sample's regreSSHion in Debian 12 and three Ubuntu releases", () => {
    expect(store.distroFixes("CVE-2024-6387").map((f) => `${f.ecosystem}=${f.ranges[0]?.fixed}`)).toEqual([
      "Debian:12=1:9.2p1-2+deb12u3",
      "Ubuntu:22.04:LTS=1:8.9p1-3ubuntu0.10",
      "Ubuntu:23.10=1:9.3p1-1ubuntu3.6",
      "Ubuntu:24.04:LTS=1:9.6p1-3ubuntu13.3",
    ]);
  });
});

describe("distribution builds from banners", () => {
  it("reads distribution, revision and release from SSH banners and Server headers", () => {
    expect(distroBuildOf(sshService("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u10"))).toMatchObject({
      distro: "debian",
      package: "openssh",
      upstream: "9.2p1",
      revision: "2+deb12u10",
      release: "12",
    });
    expect(distroBuildOf(sshService("SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.10"))).toMatchObject({ distro: "ubuntu", revision: "3ubuntu0.10" });
    expect(distroBuildOf(sshService("SSH-2.0-OpenSSH_9.9"))).toBeUndefined();
    expect(distroBuildOf({ product: "apache", version: "2.4.18", banner: "HTTP 200; Server: Apache/2.4.18 (Ubuntu)" })).toMatchObject({
      distro: "ubuntu",
      package: "apache2",
    });
    expect(distroBuildOf({ product: "nginx", version: "1.22.1", banner: "HTTP 200; Server: nginx/1.22.1" })).toBeUndefined();
    expect(releaseOf("debian", "1~deb11u1")).toBe("11");
    expect(releaseOf("ubuntu", "0ubuntu0~20.04.1")).toBe("20.04");
    expect(releaseOf("ubuntu", "3ubuntu0.10")).toBeUndefined();
  });

  it("resolves a revision against the release's fixed version by dpkg order", () => {
    const fixes = store.distroFixes("CVE-2024-6387");
    const build = (banner: string) => distroBuildOf(sshService(banner))!;
    expect(resolveDistro(build("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u10"), fixes)).toMatchObject({ status: "fixed", fixed: "1:9.2p1-2+deb12u3" });
    expect(resolveDistro(build("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3"), fixes)).toMatchObject({ status: "fixed" });
    expect(resolveDistro(build("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u2"), fixes)).toMatchObject({
      status: "vulnerable",
      installed: "1:9.2p1-2+deb12u2",
      fixed: "1:9.2p1-2+deb12u3",
    });
    // Ubuntu revisions name no release: the record whose fix has the same upstream version decides.
    expect(resolveDistro(build("SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.10"), fixes)).toMatchObject({ status: "fixed", fix: { release: "22.04" } });
    expect(resolveDistro(build("SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.6"), fixes)).toMatchObject({ status: "vulnerable", fix: { release: "22.04" } });
    // A release the data does not cover, a revision naming none and no record at all stay unknown.
    expect(resolveDistro(build("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb13u1"), fixes)).toMatchObject({
      status: "unknown",
      reason: expect.stringMatching(/Debian 13/),
    });
    expect(resolveDistro(build("SSH-2.0-OpenSSH_9.2p1 Debian-2"), fixes)).toMatchObject({ status: "vulnerable", fix: { release: "12" } });
    expect(resolveDistro(build("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u10"), [])).toMatchObject({ status: "unknown" });
    expect(resolveDistro(build("SSH-2.0-OpenSSH_9.0p1 Ubuntu-1ubuntu8.7"), fixes)).toMatchObject({ status: "unknown" });
  });
});

describe("version matching of distribution builds", () => {
  it("reports nothing above info for Debian 12's patched OpenSSH, with an info note for the backported fix", () => {
    const found = byCve(sshService("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u10"));
    const regresshion = found.get("CVE-2024-6387")!;
    expect(regresshion).toMatchObject({ severity: "info", cvssScore: 0, confidence: "version_match", cveIds: ["CVE-2024-6387"] });
    expect(regresshion.title).toBe("CVE-2024-6387 fixed in the Debian 12 build of OpenSSH 9.2p1");
    expect(regresshion.description).toContain("Debian 12 fixed CVE-2024-6387 in 1:9.2p1-2+deb12u3 (DEBIAN-CVE-2024-6387)");
    expect(regresshion.evidence.response).toContain("distribution: SSH banner comment Debian-2+deb12u10");
  });

  it("keeps the finding of a revision below the fix, rated by the CVE and saying which fix is missing", () => {
    const d = byCve(sshService("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u2")).get("CVE-2024-6387")!;
    expect(d).toMatchObject({ severity: "high", cvssScore: 8.1, confidence: "version_match" });
    expect(d.description).toContain("Debian 12 package 1:9.2p1-2+deb12u2; Debian 12 fixed it in 1:9.2p1-2+deb12u3");
    expect(d.description).not.toContain("confirm against the vendor's advisory");
  });

  it("keeps the finding of a revision it cannot resolve, with lower confidence and the reason", () => {
    const d = byCve(sshService("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb13u1")).get("CVE-2024-6387")!;
    expect(d).toMatchObject({ severity: "high", confidence: "version_match_unverified_backport" });
    expect(d.description).toMatch(/Debian build \(revision 2\+deb13u1\), but whether it carries a backported fix could not be checked: no Debian 13 record/);
    // Apache on Ubuntu (Server header without a revision): the weak lab's KEV-listed match stays, less sure.
    const apache: Service = {
      host: "10.0.0.5",
      port: 80,
      tls: false,
      name: "http",
      product: "apache",
      version: "2.4.18",
      banner: "HTTP 200; Server: Apache/2.4.18 (Ubuntu)",
    };
    apache.cpe = cpeFor(apache.product, apache.version);
    const ssrf = byCve(apache).get("CVE-2021-40438")!;
    expect(ssrf).toMatchObject({ severity: "critical", confidence: "version_match_unverified_backport" });
    expect(ssrf.description).toContain("names Ubuntu but not the package revision");
  });

  it("rates a service that names no distribution as a plain version match", () => {
    const d = byCve(sshService("SSH-2.0-OpenSSH_9.2p1")).get("CVE-2024-6387")!;
    expect(d).toMatchObject({ severity: "high", confidence: "version_match" });
  });
});
