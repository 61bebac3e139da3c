import { phasesFor } from "@vulnscan/scan-contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLab, type Lab } from "../../../../test/lab/lab.js";
import { unique } from "../../../../test/support/names.js";
import { startScanner, until, type Scanner } from "../worker/harness.js";

/*
 * The template catalogue and version-based CVE matching against the scan lab (test/lab), through
 * the whole worker: a full scan of the weak host finds every planted weakness these checks cover,
 * and a full scan of the hardened host finds none of them. Jobs name exactly the lab's ports.
 */

let lab: Lab;
let scanner: Scanner;
const results: Record<"weak" | "hardened", { templateId: string; affectedComponent: string; tool: string; kev: boolean; severity: number }[]> = {
  weak: [],
  hardened: [],
};

beforeAll(async () => {
  lab = await startLab();
  scanner = await startScanner({ env: { SCAN_ALLOWED_NETWORKS: lab.allowedNetworks }, overrides: { lookup: lab.lookup } });
  for (const host of ["weak", "hardened"] as const) {
    const scanId = unique("scan");
    await scanner.publishJob({ scanId, target: lab[host].hostname, ports: lab[host].ports.join(","), phases: phasesFor("full") });
    const end = await until(() => scanner.recorder.finished(scanId), 180_000, `${host} scan`);
    expect(end.report.case, JSON.stringify(end.report.value)).toBe("completed");
    results[host] = scanner.recorder
      .detectionsOf(scanId)
      .map((d) => ({ templateId: d.templateId, affectedComponent: d.affectedComponent, tool: d.tool, kev: d.kev, severity: d.severity }));
  }
}, 400_000);

afterAll(async () => {
  await scanner?.stop();
  await lab?.stop();
});

const on = (host: "weak" | "hardened", templateId: string) => results[host].filter((d) => d.templateId === templateId);

describe("checks against the scan lab", () => {
  it("find each planted weakness on the weak host", () => {
    const name = lab.weak.hostname;
    const t = lab.targets;
    const expectOne = (templateId: string, component: string) =>
      expect(
        on("weak", templateId).map((d) => d.affectedComponent),
        `${templateId}; got ${results.weak.map((d) => `${d.templateId}@${d.affectedComponent}`).join(" ")}`,
      ).toContain(component);
    expectOne("git-repository-exposure", `http://${name}:${t.http.port}/.git/HEAD`);
    expectOne("env-file-secrets", `http://${name}:${t.http.port}/.env`);
    expectOne("directory-listing", `http://${name}:${t.http.port}/files/`);
    expectOne("vsftpd-234-backdoor", `tcp://${name}:${t.ftp.port}`);
    expectOne("openssh-user-enumeration", `tcp://${name}:${t.ssh.port}`);
    expectOne("redis-unauthenticated", `tcp://${name}:${t.redisLike.port}`);
    expectOne("redis-unauthenticated", `tcp://${name}:${t.redis.port}`); // the real redis-server
    expectOne("memcached-unauthenticated", `tcp://${name}:${t.memcached.port}`); // the real memcached
    expectOne("elasticsearch-unauthenticated", `http://${name}:${t.elasticsearch.port}/`);
    const cves = on("weak", "cve:CVE-2011-2523").concat(on("weak", "cve:CVE-2018-15473"), on("weak", "cve:CVE-2021-40438"));
    expect(cves.map((d) => d.templateId).sort()).toEqual(expect.arrayContaining(["cve:CVE-2011-2523", "cve:CVE-2018-15473", "cve:CVE-2021-40438"]));
    expect(on("weak", "cve:CVE-2021-40438").every((d) => d.kev)).toBe(true); // Apache/2.4.18 header, KEV-listed
    expect(on("weak", "remediation-plan")).toHaveLength(1);
    // Soft-404 pages (200 for any path) must not pass for content checks.
    for (const id of ["phpinfo-exposure", "spring-boot-actuator-env", "apache-server-status", "openapi-docs-exposed"]) expect(on("weak", id), id).toEqual([]);
  });

  it("find none of them on the hardened host", () => {
    expect(results.hardened.filter((d) => d.tool === "templates" || d.tool === "cve-match" || d.tool === "correlator")).toEqual([]);
  });
});
