import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { labContext, type TestContext } from "../../../../test/lab/context.js";
import { startLab, type Lab } from "../../../../test/lab/lab.js";
import { CloudRanges } from "../../src/engine/cloud/ranges.js";
import { identifyService } from "../../src/engine/fingerprint/identify.js";
import { cloudAnalysis } from "../../src/engine/phases/cloud-analysis.js";
import { discovery } from "../../src/engine/phases/discovery.js";
import { enumeration } from "../../src/engine/phases/enumeration.js";
import { webAnalysis } from "../../src/engine/phases/web-analysis.js";
import { expandCidr } from "../../src/engine/portscan/targets.js";
import type { DetectionDraft } from "../../src/engine/types.js";
import { EgressGuard } from "../../src/net/egress.js";

/*
 * The four network phases against the scan lab: every planted weakness is detected with its
 * exact template id, severity and CWE, and the hardened host yields nothing but the inventory.
 * Each host is scanned once (beforeAll) through discovery → enumeration → web → cloud, like a scan.
 */

let lab: Lab;
let weak: TestContext;
let hardened: TestContext;

async function runPhases(ctx: TestContext) {
  for (const phase of [discovery, enumeration, webAnalysis, cloudAnalysis]) await phase(ctx);
}

beforeAll(async () => {
  lab = await startLab();
  console.log(`[lab] ${lab.note}; real servers: ${lab.realServers.join(", ")}`);
  weak = labContext({ target: lab.weak.hostname, ports: lab.weak.ports, allowedNetworks: lab.allowedNetworks, lookup: lab.lookup });
  hardened = labContext({ target: lab.hardened.hostname, ports: lab.hardened.ports, allowedNetworks: lab.allowedNetworks, lookup: lab.lookup });
  await runPhases(weak);
  await runPhases(hardened);
}, 180_000);

afterAll(async () => {
  await lab?.stop();
});

const find = (ctx: TestContext, templateId: string, component?: string) =>
  ctx.detections.filter((d) => d.templateId === templateId && (component === undefined || d.affectedComponent.includes(component)));

function expectDetection(ctx: TestContext, templateId: string, severity: DetectionDraft["severity"], cwe: string, component?: string): DetectionDraft {
  const hits = find(ctx, templateId, component);
  expect(hits, `${templateId} on ${component ?? "any"}; got ${ctx.detections.map((d) => `${d.templateId}@${d.affectedComponent}`).join(" ")}`).toHaveLength(1);
  const d = hits[0]!;
  expect(d.severity).toBe(severity);
  if (cwe) expect(d.cweIds).toContain(cwe);
  else expect(d.cweIds).toEqual([]);
  expect(d.cvssVector).toMatch(/^CVSS:3\.1\//);
  expect(d.evidence.request.length).toBeGreaterThan(0);
  expect(d.evidence.response.length).toBeGreaterThan(0);
  expect(d.remediation.steps.length).toBeGreaterThan(0);
  expect(d.remediation.references.length).toBeGreaterThan(0);
  return d;
}

describe("discovery", () => {
  it("resolves a name through the egress guard and keeps the name", () => {
    expect(weak.hosts).toEqual([{ address: lab.weak.address, hostname: lab.weak.hostname, alive: true }]);
  });

  it("expands a CIDR within the allowlist and keeps only hosts that answer (a refusal counts)", async (ctx) => {
    if (lab.mode !== "netns") return ctx.skip();
    const base = lab.weak.address.replace(/\.\d+$/, "");
    // .9 is allowed but unassigned (silent); .1 (this machine's end of the link) is not allowed.
    const allowed = `${lab.weak.address}/32,${lab.hardened.address}/32,${base}.9/32`;
    const c = labContext({ target: `${base}.0/28`, ports: [lab.targets.http.port, 4444], allowedNetworks: allowed });
    await discovery(c);
    expect(c.hosts.map((h) => h.address).sort()).toEqual([lab.weak.address, lab.hardened.address].sort());
    expect(c.hosts.every((h) => h.alive)).toBe(true);
  });

  it("probes liveness only on requested ports and refuses ranges over /20", async () => {
    const c = labContext({ target: lab.hardened.address, ports: [lab.hardened.https.port], allowedNetworks: lab.allowedNetworks });
    await discovery(c);
    expect(c.hosts).toEqual([{ address: lab.hardened.address, alive: true }]);
    expect(expandCidr("10.0.0.0/20")).toHaveLength(4094);
    expect(() => expandCidr("10.0.0.0/19")).toThrow(/more than/);
  });
});

describe("enumeration", () => {
  const svc = (port: number) => weak.services.find((s) => s.port === port)!;

  it("identifies products and versions from banners and protocol probes, with CPEs", () => {
    const t = lab.targets;
    expect(svc(t.ssh.port)).toMatchObject({ name: "ssh", product: "OpenSSH", version: "7.2p2", cpe: "cpe:2.3:a:openbsd:openssh:7.2:p2:*:*:*:*:*:*" });
    expect(svc(t.ftp.port)).toMatchObject({ name: "ftp", product: "vsftpd", version: "2.3.4", cpe: "cpe:2.3:a:vsftpd_project:vsftpd:2.3.4:*:*:*:*:*:*:*" });
    expect(svc(t.smtp.port)).toMatchObject({ name: "smtp", product: "postfix" });
    expect(svc(t.smtp.port).banner).toMatch(/250-PIPELINING/);
    expect(svc(t.mysql.port)).toMatchObject({ name: "mysql", product: "mysql", version: "5.7.33" });
    expect(svc(t.telnet.port)).toMatchObject({ name: "telnet" });
    expect(svc(t.http.port)).toMatchObject({ name: "http", product: "apache", version: "2.4.18", tls: false });
    expect(svc(t.tlsWeak.port)).toMatchObject({ name: "https", tls: true });
    expect(svc(t.elasticsearch.port)).toMatchObject({ name: "elasticsearch", version: "6.8.23" });
    expect(svc(t.mongoLike.port)).toMatchObject({ name: "mongodb", version: "3.6.8" });
    expect(svc(t.mongoLike.port).banner).toMatch(/listDatabases without auth: yes/);
    expect(svc(t.redisLike.port)).toMatchObject({ name: "redis", version: "3.2.12" });
    expect(svc(t.postgres.port)).toMatchObject({ name: "postgresql", product: "postgresql" });
  });

  it("identifies the real Debian servers in the lab (redis-server, memcached)", () => {
    expect(svc(lab.targets.redis.port)).toMatchObject({ name: "redis", product: "redis" });
    expect(svc(lab.targets.redis.port).version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(svc(lab.targets.memcached.port)).toMatchObject({ name: "memcached", product: "memcached" });
    expect(svc(lab.targets.memcached.port).version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("identifies the test stack's MongoDB-protocol server (explicit loopback port)", async () => {
    const url = new URL(inject("mongoUrl"));
    const s = await identifyService(
      { host: url.hostname === "localhost" ? "127.0.0.1" : url.hostname, port: Number(url.port) },
      { guard: new EgressGuard("127.0.0.0/8") },
    );
    expect(s.name).toBe("mongodb");
  });

  it("reports one inventory finding per host and the exposed telnet", () => {
    const inv = expectDetection(weak, "net-open-ports", "info", "");
    expect(inv.evidence.response.split("\n")).toHaveLength(lab.weak.ports.length);
    expectDetection(weak, "net-telnet-exposed", "medium", "CWE-319");
  });
});

const WEB_EXPECTED: [string, DetectionDraft["severity"], string][] = [
  ["web-missing-csp", "medium", "CWE-693"],
  ["web-missing-clickjacking-protection", "medium", "CWE-1021"],
  ["web-missing-x-content-type-options", "low", "CWE-693"],
  ["web-missing-referrer-policy", "low", "CWE-693"],
  ["web-cookie-missing-secure", "low", "CWE-614"],
  ["cookie-missing-httponly", "low", "CWE-1004"],
  ["cookie-missing-samesite", "low", "CWE-1275"],
  ["cors-any-origin-credentials", "high", "CWE-942"],
  ["http-trace-enabled", "low", "CWE-693"],
  ["http-risky-methods", "medium", "CWE-650"],
];

describe("web analysis", () => {
  for (const [id, severity, cwe] of WEB_EXPECTED) {
    it(`detects ${id} on the weak HTTP and HTTPS ports`, () => {
      expectDetection(weak, id, severity, cwe, `http://${lab.weak.hostname}:${lab.targets.http.port}/`);
      expectDetection(weak, id, severity, cwe, `https://${lab.weak.hostname}:${lab.targets.tlsWeak.port}/`);
    });
  }

  it("detects the missing HSTS on HTTPS only and the missing HTTPS redirect on HTTP only", () => {
    expectDetection(weak, "web-missing-hsts", "medium", "CWE-319", `:${lab.targets.tlsWeak.port}/`);
    expectDetection(weak, "web-missing-https-redirect", "medium", "CWE-319", `http://${lab.weak.hostname}:${lab.targets.http.port}/`);
    expect(find(weak, "web-missing-https-redirect").every((d) => d.affectedComponent.startsWith("http://"))).toBe(true);
  });

  it("detects the directory listing and each exposed file, verified by content", () => {
    expectDetection(weak, "directory-listing", "medium", "CWE-548", `:${lab.targets.http.port}/files/`);
    const files: [string, string, DetectionDraft["severity"], string][] = [
      ["/.git/HEAD", "git-repository-exposure", "high", "CWE-538"],
      ["/.env", "env-file-secrets", "high", "CWE-538"],
      ["/backup.zip", "web-exposed-backup", "high", "CWE-530"],
      ["/config.php.bak", "backup-file-exposed", "high", "CWE-530"],
      ["/.DS_Store", "web-exposed-ds-store", "medium", "CWE-538"],
    ];
    for (const [path, id, severity, cwe] of files) {
      const d = expectDetection(weak, id, severity, cwe, `:${lab.targets.http.port}${path}`);
      expect(d.evidence.response).toMatch(/^HTTP\/1\.1 200/);
    }
  });

  it("does not mistake the weak site's soft 404 (200 for every path) for exposed files", () => {
    const exposed = weak.detections.filter((d) => d.templateId.startsWith("web-exposed-")).map((d) => new URL(d.affectedComponent).pathname);
    expect(exposed).not.toContain("/backup.tar.gz");
    expect(exposed).not.toContain("/wp-config.php.bak");
    expect(find(weak, "directory-listing").map((d) => new URL(d.affectedComponent).pathname)).toEqual(["/files/", "/files/"]);
  });

  it("detects the TLS weaknesses of the weak HTTPS port", () => {
    const at = `${lab.weak.hostname}:${lab.targets.tlsWeak.port}`;
    expectDetection(weak, "tls-cert-expired", "medium", "CWE-298", at);
    expectDetection(weak, "tls-cert-self-signed", "medium", "CWE-295", at);
    expectDetection(weak, "tls-cert-wrong-host", "medium", "CWE-297", at);
    expectDetection(weak, "tls-protocol-tls10", "medium", "CWE-326", at);
    expectDetection(weak, "tls-protocol-tls11", "medium", "CWE-326", at);
    expect(expectDetection(weak, "tls-cert-short-rsa-key", "medium", "CWE-326", at).description).toMatch(/Key size: 1024 bits/);
    expectDetection(weak, "tls-cert-sha1-signature", "medium", "CWE-328", at);
    expectDetection(weak, "tls-no-tls13", "info", "CWE-326", at);
    const ciphers = expectDetection(weak, "tls-weak-ciphers", "high", "CWE-327", at);
    expect(ciphers.description).toMatch(/NULL-SHA \(NULL\)/);
  });

  it("detects the soon-expiring and the not-yet-valid certificates, and nothing else on those ports", () => {
    const soon = expectDetection(weak, "tls-cert-expiring-soon", "low", "CWE-298", `:${lab.targets.tlsSoon.port}`);
    expect(soon.description).toMatch(/expires in (9|10) days/);
    expectDetection(weak, "tls-cert-not-yet-valid", "medium", "CWE-298", `:${lab.targets.tlsFuture.port}`);
    const onThose = weak.detections.filter(
      (d) => d.affectedComponent.includes(`:${lab.targets.tlsSoon.port}`) || d.affectedComponent.includes(`:${lab.targets.tlsFuture.port}`),
    );
    expect(onThose.map((d) => d.templateId).sort()).toEqual(["tls-cert-expiring-soon", "tls-cert-not-yet-valid"]);
  });

  it("detects a chain sent without its intermediate, and an OCSP URL with nothing stapled (issue 16)", () => {
    const at = `${lab.weak.hostname}:${lab.targets.tlsChain.port}`;
    const chain = expectDetection(weak, "tls-cert-chain-incomplete", "low", "CWE-295", at);
    expect(chain.description).toMatch(/issuer of CN=weak\.vslab\.test \(CN=vulnscan lab intermediate CA\) was not sent/);
    const ocsp = expectDetection(weak, "tls-no-ocsp-stapling", "info", "CWE-299", at);
    expect(ocsp.description).toMatch(/http:\/\/ocsp\.vslab\.test\//);
    expect(
      weak.detections
        .filter((d) => d.affectedComponent === at)
        .map((d) => d.templateId)
        .sort(),
    ).toEqual(["tls-cert-chain-incomplete", "tls-no-ocsp-stapling"]);
    // The intermediate-issued certificates served with their chain, and the self-signed one, are complete.
    expect(find(weak, "tls-cert-chain-incomplete")).toHaveLength(1);
    expect(find(weak, "tls-no-ocsp-stapling")).toHaveLength(1);
  });
});

describe("SSH authentication methods", () => {
  it("reports password authentication on the real SSH server that offers it, asking with the none method only", () => {
    const d = expectDetection(weak, "ssh-password-auth", "medium", "CWE-309", `tcp://${lab.weak.hostname}:${lab.targets.sshPassword.port}`);
    expect(d.description).toMatch(/Methods offered: password, publickey\./);
    expect(d.evidence.request).toMatch(/method "none"/);
    expect(d.evidence.response).toMatch(/methods that can continue: password,publickey/);
    // That server offers modern algorithms only: nothing from the KEXINIT checks there.
    expect(weak.detections.filter((d) => d.affectedComponent.endsWith(`:${lab.targets.sshPassword.port}`)).map((d) => d.templateId)).toEqual([
      "ssh-password-auth",
    ]);
    // The KEXINIT-only server (no key exchange) still gets its algorithm findings, and no auth verdict.
    expect(find(weak, "ssh-terrapin", `:${lab.targets.ssh.port}`)).toHaveLength(1);
  });
});

describe("cloud analysis", () => {
  it("detects every unauthenticated datastore, the real ones included", () => {
    const t = lab.targets;
    expectDetection(weak, "redis-unauthenticated", "critical", "CWE-306", `:${t.redis.port}`);
    expectDetection(weak, "redis-unauthenticated", "critical", "CWE-306", `:${t.redisLike.port}`);
    expectDetection(weak, "memcached-unauthenticated", "high", "CWE-306", `:${t.memcached.port}`);
    const mongo = expectDetection(weak, "datastore-mongodb-unauthenticated", "critical", "CWE-306", `:${t.mongoLike.port}`);
    expect(mongo.description).toMatch(/customers/);
    expectDetection(weak, "elasticsearch-unauthenticated", "high", "CWE-306", `:${t.elasticsearch.port}`);
  });

  it("attributes addresses to providers from the shipped range files", async () => {
    const ranges = CloudRanges.load();
    expect(ranges.size).toBeGreaterThan(300);
    expect(ranges.lookup("52.94.10.7")).toMatchObject({ provider: "aws", region: "us-west-2", prefix: "52.94.10.0/24" });
    expect(ranges.lookup("35.228.1.1")).toMatchObject({ provider: "gcp", region: "europe-north1" });
    expect(ranges.lookup("13.69.5.5")).toMatchObject({ provider: "azure", region: "westeurope" });
    expect(ranges.lookup("104.16.1.1")).toMatchObject({ provider: "cloudflare" });
    expect(ranges.lookup(lab.weak.address)).toBeUndefined();
    // The phase itself: attribution needs no traffic, so a host outside the allowlist is fine here.
    const c = labContext({ target: "52.94.10.7", ports: [], allowedNetworks: lab.allowedNetworks, hosts: [{ address: "52.94.10.7", alive: false }] });
    await cloudAnalysis(c);
    expect(c.hosts[0]).toMatchObject({ provider: "aws", region: "us-west-2" });
    expect(c.detections.map((d) => [d.templateId, d.severity])).toEqual([["cloud-provider-attribution", "info"]]);
  });
});

describe("the hardened host", () => {
  it("is found and enumerated", () => {
    expect(hardened.services.map((s) => [s.port, s.name, s.tls]).sort()).toEqual(
      [
        [lab.hardened.http.port, "http", false],
        [lab.hardened.https.port, "https", true],
        [lab.hardened.ssh.port, "ssh", false],
        [lab.hardened.postgres.port, "postgresql", false],
      ].sort(),
    );
  });

  it("yields no finding except the port inventory", () => {
    expect(hardened.detections.map((d) => d.templateId)).toEqual(["net-open-ports"]);
    expect(hardened.detections[0]!.severity).toBe("info");
  });
});
