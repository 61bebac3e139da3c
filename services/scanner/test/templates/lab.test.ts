import { Confidence } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { phasesFor } from "@vulnscan/scan-contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLab, type Lab } from "../../../../test/lab/lab.js";
import { weaknessKey } from "../../src/engine/identity.js";
import { unique } from "../../../../test/support/names.js";
import { startScanner, until, type Scanner } from "../worker/harness.js";

/*
 * The template catalogue and version-based CVE matching against the scan lab (test/lab), through
 * the whole worker: a full scan of the weak host finds every planted weakness these checks cover,
 * a full scan of the hardened host finds none of them, and a full scan of the patched Debian host
 * (Debian's own OpenSSH and nginx, HTTP/2 off) reports no CVE above info. Jobs name exactly the
 * lab's ports.
 */

let lab: Lab;
let scanner: Scanner;
interface Seen {
  target: string;
  templateId: string;
  affectedComponent: string;
  tool: string;
  kev: boolean;
  severity: number;
  cveIds: string[];
  title: string;
  description: string;
  confidence: Confidence;
  evidence: string;
}
/** Per host, the findings the scan leaves: the last detection of each (target, template id, component). */
type Host = "weak" | "hardened" | "patched";
const results: Record<Host, Seen[]> = { weak: [], hardened: [], patched: [] };

beforeAll(async () => {
  lab = await startLab();
  scanner = await startScanner({ env: { SCAN_ALLOWED_NETWORKS: lab.allowedNetworks }, overrides: { lookup: lab.lookup } });
  for (const host of ["weak", "hardened", "patched"] as const) {
    const scanId = unique("scan");
    await scanner.publishJob({ scanId, target: lab[host].hostname, ports: lab[host].ports.join(","), phases: phasesFor("full") });
    const end = await until(() => scanner.recorder.finished(scanId), 180_000, `${host} scan`);
    expect(end.report.case, JSON.stringify(end.report.value)).toBe("completed");
    const findings = new Map<string, Seen>();
    for (const d of scanner.recorder.detectionsOf(scanId))
      findings.set([d.target, d.templateId.toLowerCase(), d.affectedComponent].join("\u0000"), {
        target: d.target,
        templateId: d.templateId,
        affectedComponent: d.affectedComponent,
        tool: d.tool,
        kev: d.kev,
        severity: d.severity,
        cveIds: d.cveIds,
        title: d.title,
        description: d.description,
        confidence: d.confidence,
        evidence: `${d.evidence?.request ?? ""}\n${d.evidence?.response ?? ""}`,
      });
    results[host] = [...findings.values()];
  }
}, 400_000);

afterAll(async () => {
  await scanner?.stop();
  await lab?.stop();
});

const on = (host: Host, templateId: string) => results[host].filter((d) => d.templateId === templateId);

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
    // The vsFTPd and OpenSSH templates name the CVE version matching finds: one finding each.
    expectOne("cve:CVE-2011-2523", `vsftpd 2.3.4 on ${name}:${t.ftp.port}`);
    expectOne("cve:CVE-2018-15473", `OpenSSH 7.2p2 on ${name}:${t.ssh.port}`);
    expectOne("redis-unauthenticated", `tcp://${name}:${t.redisLike.port}`);
    expectOne("redis-unauthenticated", `tcp://${name}:${t.redis.port}`); // the real redis-server
    expectOne("memcached-unauthenticated", `tcp://${name}:${t.memcached.port}`); // the real memcached
    expectOne("elasticsearch-unauthenticated", `http://${name}:${t.elasticsearch.port}/`);
    const cves = on("weak", "cve:CVE-2011-2523").concat(on("weak", "cve:CVE-2018-15473"), on("weak", "cve:CVE-2021-40438"));
    expect(cves.map((d) => d.templateId).sort()).toEqual(expect.arrayContaining(["cve:CVE-2011-2523", "cve:CVE-2018-15473", "cve:CVE-2021-40438"]));
    expect(on("weak", "cve:CVE-2021-40438").every((d) => d.kev)).toBe(true); // Apache/2.4.18 header, KEV-listed
    expect(on("weak", "remediation-plan")).toHaveLength(1);
    // Information disclosure (issue 16 item 1), distinct from the CVE matches the same banners feed.
    const web = `http://${name}:${t.http.port}`;
    expectOne("http-server-version-disclosure", `${web}/`);
    expectOne("http-powered-by-disclosure", `${web}/`);
    expectOne("http-default-error-page", `${web}/cgi-bin/vulnscan-missing-page`);
    expectOne("apache-server-info", `${web}/server-info`);
    expectOne("ssh-version-banner", `tcp://${name}:${t.ssh.port}`);
    expectOne("ftp-version-banner", `tcp://${name}:${t.ftp.port}`);
    expectOne("smtp-software-banner", `tcp://${name}:${t.smtp.port}`);
    expectOne("mysql-version-banner", `tcp://${name}:${t.mysql.port}`);
    for (const id of ["http-server-version-disclosure", "ftp-version-banner", "mysql-version-banner"]) expect(on("weak", id)[0]?.severity, id).toBe(4); // low
    expect(on("weak", "ssh-version-banner")[0]?.severity).toBe(5); // info: OpenSSH cannot hide it
    // SSH algorithms from KEXINIT (item 2): Terrapin and each weak family, on the weak server only.
    const sshAt = `tcp://${name}:${t.ssh.port}`;
    const terrapin = on("weak", "ssh-terrapin");
    expect(terrapin.map((d) => [d.affectedComponent, d.cveIds, d.severity])).toEqual([[sshAt, ["CVE-2023-48795"], 3]]);
    for (const id of ["ssh-weak-kex", "ssh-weak-hostkey", "ssh-weak-ciphers", "ssh-weak-macs"]) expectOne(id, sshAt);
    expect(on("weak", "ssh-weak-kex")[0]?.evidence).toContain("diffie-hellman-group1-sha1");
    // Password authentication (item 2, last part): the real SSH server that offers it, only it.
    expect(on("weak", "ssh-password-auth").map((d) => [d.affectedComponent, d.severity])).toEqual([[`tcp://${name}:${t.sshPassword.port}`, 3]]);
    // TLS chain and stapling (item 3): the server that sends its leaf alone and staples nothing.
    const chainAt = `${name}:${t.tlsChain.port}`;
    expect(on("weak", "tls-cert-chain-incomplete").map((d) => d.affectedComponent)).toEqual([chainAt]);
    expect(on("weak", "tls-no-ocsp-stapling").map((d) => [d.affectedComponent, d.severity])).toEqual([[chainAt, 5]]);
    // Default and anonymous access (item 5): PostgreSQL trust, read-only (startup, then Terminate).
    expectOne("postgres-trust-auth", `tcp://${name}:${t.postgres.port}`);
    // HTTP templates (item 4), each folded with the built-in check that sees the same weakness.
    expectOne("http-trace-enabled", `${web}/`);
    expectOne("http-risky-methods", `${web}/`);
    expectOne("cookie-missing-httponly", `${web}/`);
    expectOne("cookie-missing-samesite", `${web}/`);
    expectOne("cors-any-origin-credentials", `${web}/`);
    expectOne("open-redirect", `${web}/login?next=https://redirect-probe.vulnscan.invalid/`);
    expectOne("admin-panel-exposed", `${web}/phpmyadmin/`);
    expectOne("backup-file-exposed", `${web}/config.php.bak`);
    for (const id of [
      "http-trace-enabled",
      "http-risky-methods",
      "cookie-missing-httponly",
      "cookie-missing-samesite",
      "cors-any-origin-credentials",
      "backup-file-exposed",
    ]) {
      const [d] = on("weak", id).filter((x) => x.affectedComponent.startsWith(`${web}/`));
      expect(d?.evidence, id).toContain(`[templates: ${id}]`);
      expect(d?.evidence, id).toContain(`[web: ${id}]`);
    }
    // Soft-404 pages (200 for any path) must not pass for content checks.
    for (const id of ["phpinfo-exposure", "spring-boot-actuator-env", "apache-server-status", "openapi-docs-exposed"]) expect(on("weak", id), id).toEqual([]);
  });

  it("report one finding per weakness and component, with every detecting tool's evidence", () => {
    const byWeakness = new Map<string, string[]>();
    for (const d of results.weak) byWeakness.set(weaknessKey(d), [...(byWeakness.get(weaknessKey(d)) ?? []), `${d.templateId}@${d.affectedComponent}`]);
    expect([...byWeakness.values()].filter((v) => v.length > 1)).toEqual([]);
    // The pairs the issue names, seen by a template and a built-in check (or version matching).
    const port = (p: number) => (d: Seen) => new RegExp(`:${p}(/|$)`).test(d.affectedComponent);
    const t = lab.targets;
    const folded = [
      { where: (d: Seen) => port(t.http.port)(d) && d.affectedComponent.endsWith("/.env"), tools: ["templates: env-file-secrets", "web: env-file-secrets"] },
      {
        where: (d: Seen) => port(t.http.port)(d) && d.affectedComponent.includes("/.git/"),
        tools: ["templates: git-repository-exposure", "web: git-repository-exposure"],
      },
      {
        where: (d: Seen) => port(t.redis.port)(d) && /redis/.test(d.templateId),
        tools: ["templates: redis-unauthenticated", "datastores: redis-unauthenticated"],
      },
      {
        where: (d: Seen) => port(t.memcached.port)(d) && /memcached/.test(d.templateId),
        tools: ["templates: memcached-unauthenticated", "datastores: memcached-unauthenticated"],
      },
      {
        where: (d: Seen) => port(t.ftp.port)(d) && d.cveIds.includes("CVE-2011-2523"),
        tools: ["cve-match: cve:CVE-2011-2523", "templates: vsftpd-234-backdoor"],
      },
    ];
    for (const { where, tools } of folded) {
      const found = results.weak.filter(where);
      expect(
        found.map((d) => d.templateId),
        tools.join(" + "),
      ).toHaveLength(1);
      for (const tool of tools) expect(found[0]!.evidence, tool).toContain(`[${tool}]`);
    }
  });

  it("find none of them on the hardened host, and nothing there above info", () => {
    // Inventory-style info findings (the SSH version OpenSSH cannot hide) are allowed; nothing above.
    expect(results.hardened.filter((d) => d.severity !== 5).map((d) => `${d.templateId}@${d.affectedComponent}`)).toEqual([]);
    // The hardened PostgreSQL (SCRAM) was identified and probed, without a finding.
    expect(results.hardened.filter((d) => d.affectedComponent.includes(`:${lab.hardened.postgres.port}`))).toEqual([]);
    // The hardened SSH server (strict kex, modern algorithms) was scanned and read.
    // The hardened SSH server is a real one offering public keys only: no password finding.
    expect(results.hardened.filter((d) => d.affectedComponent === `tcp://${lab.hardened.hostname}:${lab.hardened.ssh.port}`).map((d) => d.templateId)).toEqual([
      "ssh-version-banner",
    ]);
    // Its HTTPS sends the intermediate and staples an OCSP response: neither TLS finding, not even at info.
    const https = results.hardened.filter((d) => d.affectedComponent.includes(`:${lab.hardened.https.port}`)).map((d) => d.templateId);
    expect(https).not.toContain("tls-cert-chain-incomplete");
    expect(https).not.toContain("tls-no-ocsp-stapling");
  });

  it("report no CVE above info on the patched Debian host, and say why for each version match", () => {
    const cves = results.patched.filter((d) => d.cveIds.length > 0);
    const at = (port: number) => `on ${lab.patched.hostname}:${port}`;
    // Before distribution-aware matching and preconditions (issue 27): CVE-2024-6387 (high) and
    // CVE-2023-38408 (critical) on the SSH banner, CVE-2023-44487 (high) on nginx 1.22.1.
    expect(cves.filter((d) => d.severity !== 5).map((d) => `${d.templateId}@${d.affectedComponent} (${d.severity})`)).toEqual([]);
    const regresshion = cves.find((d) => d.templateId === "cve:CVE-2024-6387");
    expect(regresshion?.affectedComponent).toBe(`OpenSSH 9.2p1 ${at(lab.patched.ssh.port)}`);
    expect(regresshion?.description).toContain(`Debian 12 package 1:9.2p1-${lab.patched.packages.openssh.split("-").slice(1).join("-")}`);
    expect(regresshion?.description).toContain("Debian 12 fixed CVE-2024-6387 in 1:9.2p1-2+deb12u3");
    expect(cves.find((d) => d.templateId === "cve:CVE-2023-38408")?.description).toContain("Reported as info: the flaw is in ssh-agent");
    // HTTP/2 is off on both nginx ports: Rapid Reset is not even an info note.
    expect(cves.filter((d) => d.templateId === "cve:CVE-2023-44487")).toEqual([]);
    // Debian's sshd announces strict kex: no Terrapin finding of any kind.
    expect(results.patched.filter((d) => d.cveIds.includes("CVE-2023-48795"))).toEqual([]);
  });

  it("keep the CVE findings of unresolved distribution revisions, with that confidence", () => {
    // OpenSSH 7.2p2 Ubuntu-4ubuntu2.8 and Apache/2.4.18 (Ubuntu): no Ubuntu record resolves them.
    for (const id of ["cve:CVE-2018-15473", "cve:CVE-2021-40438"]) {
      const [d] = on("weak", id);
      expect(d?.confidence, id).toBe(Confidence.VERSION_MATCH_UNVERIFIED_BACKPORT);
      expect(d?.description, id).toMatch(/could not be checked/);
    }
    expect(on("weak", "cve:CVE-2018-15473")[0]?.severity).toBe(3); // medium, as NVD rates it: never lowered by a guess
    // What a check observed is confirmed.
    expect(on("weak", "ssh-terrapin")[0]?.confidence).toBe(Confidence.CONFIRMED);
    expect(on("weak", "git-repository-exposure")[0]?.confidence).toBe(Confidence.CONFIRMED);
  });
});
