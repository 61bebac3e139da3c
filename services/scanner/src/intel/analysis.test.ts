import { createLogger } from "@vulnscan/kit";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_INTEL_DIR } from "../config.js";
import { aiAnalysis } from "../engine/phases/ai-analysis.js";
import { complianceMapping } from "../engine/phases/compliance-mapping.js";
import { correlation } from "../engine/phases/correlation.js";
import { remediationPlanning } from "../engine/phases/remediation-planning.js";
import { reporting } from "../engine/phases/reporting.js";
import { threatIntelligence } from "../engine/phases/threat-intelligence.js";
import { cveDetection, vulnerabilityScanning } from "../engine/phases/vulnerability-scanning.js";
import type { DetectionDraft, ScanContext, Service } from "../engine/types.js";
import { EgressGuard } from "../net/egress.js";
import { loadTemplates } from "../templates-engine/loader.js";
import type { Template } from "../templates-engine/schema.js";
import { assessRisk, buildPlan, insightsOf, isPublicAddress } from "./analysis.js";
import { ComplianceMap } from "./compliance.js";
import { enrichDetection } from "./enrich.js";
import { IntelStore } from "./store.js";

let intel: IntelStore;
let compliance: ComplianceMap;
let templates: Template[];
beforeAll(async () => {
  [intel, compliance, templates] = await Promise.all([IntelStore.load(DEFAULT_INTEL_DIR), ComplianceMap.load(), loadTemplates()]);
});

function context(x: Partial<ScanContext> = {}): ScanContext & { reported: DetectionDraft[] } {
  const reported: DetectionDraft[] = [];
  const ctx = {
    scanId: "scan_t",
    orgId: "org_t",
    target: "10.0.0.0/30",
    scanType: "full",
    ports: [22],
    frameworks: [],
    signal: new AbortController().signal,
    guard: new EgressGuard("127.0.0.0/8"),
    log: createLogger("phase-test", "silent"),
    hosts: [],
    services: [],
    detections: [],
    setTool: () => undefined,
    reported,
    ...x,
  } as ScanContext & { reported: DetectionDraft[] };
  ctx.report = async (d) => {
    const e = enrichDetection(d, { intel, compliance, frameworks: ctx.frameworks });
    reported.push(e);
    ctx.detections.push(e);
  };
  return ctx;
}

const ssh = (host: string): Service => ({
  host,
  port: 22,
  tls: false,
  name: "ssh",
  product: "OpenSSH",
  version: "7.2p2",
  banner: "SSH-2.0-OpenSSH_7.2p2 Ubuntu-4ubuntu2.8",
  cpe: "cpe:2.3:a:openbsd:openssh:7.2:p2:*:*:*:*:*:*",
});

describe("version-based CVE matching (vulnerability_scanning)", () => {
  it("reports every CVE of an identified service as tool cve-match, template cve:<id>", async () => {
    // Port 22 on 192.0.2.x is never connected to: templates would, but the guard allows only loopback,
    // so the template probes fail closed (logged) and only the CVE matches are reported.
    const ctx = context({ services: [ssh("192.0.2.10")] });
    await vulnerabilityScanning({ templates: [], intel })(ctx);
    expect(ctx.reported.map((d) => d.templateId)).toEqual([
      "cve:CVE-2023-38408",
      "cve:CVE-2020-15778",
      "cve:CVE-2016-6515",
      "cve:CVE-2016-10009",
      "cve:CVE-2016-6210",
      "cve:CVE-2018-15473",
    ]);
    const enumCve = ctx.reported.find((d) => d.templateId === "cve:CVE-2018-15473")!;
    expect(enumCve).toMatchObject({
      tool: "cve-match",
      title: "CVE-2018-15473 in OpenSSH 7.2p2",
      severity: "medium",
      cvssScore: 5.3,
      cweIds: ["CWE-362"],
      cveIds: ["CVE-2018-15473"],
      affectedComponent: "OpenSSH 7.2p2 on 192.0.2.10:22",
      kev: false,
    });
    expect(enumCve.epssScore).toBeCloseTo(0.88017);
    expect(enumCve.remediation.summary).toBe("Upgrade to a OpenSSH release after 7.7 (or a vendor package with the fix backported).");
    expect(enumCve.evidence.response).toContain("nvd: cpe:2.3:a:openbsd:openssh:*:*:*:*:*:*:*:* (versions <= 7.7)");
    expect(enumCve.frameworks?.find((f) => f.name === "pci_dss")?.controls).toContain("6.3.3");
  });

  it("flags KEV-listed CVEs and maps v2-only records", () => {
    const apache: Service = {
      host: "192.0.2.5",
      port: 80,
      tls: false,
      name: "http",
      product: "Apache",
      version: "2.4.18",
      cpe: "cpe:2.3:a:apache:http_server:2.4.18:*:*:*:*:*:*:*",
    };
    const [m] = intel.matchCpe(apache.cpe!).filter((x) => x.cve.id === "CVE-2021-40438");
    const d = enrichDetection(cveDetection(m!, apache), { intel, compliance, frameworks: [] });
    expect(d).toMatchObject({ severity: "critical", cvssScore: 9, kev: true });
    const old = intel.matchCpe("cpe:2.3:a:vsftpd_project:vsftpd:2.3.2:*:*:*:*:*:*:*")[0]!;
    expect(cveDetection(old, { host: "h", port: 21, tls: false })).toMatchObject({
      severity: "medium",
      cvssScore: 4,
      cvssVector: "AV:N/AC:L/Au:S/C:N/I:N/A:P",
    });
  });
});

describe("analysis phases", () => {
  it("threat_intelligence sums up EPSS and KEV of the scan's CVEs", async () => {
    const ctx = context({ services: [ssh("192.0.2.10")] });
    await vulnerabilityScanning({ templates: [], intel })(ctx);
    await threatIntelligence({ intel })(ctx);
    expect(insightsOf(ctx).threat).toMatchObject({ cves: 6, withEpss: 6, kev: [] });
    expect(insightsOf(ctx).threat?.likelyExploited[0]).toEqual({ cve: "CVE-2018-15473", epss: 0.88017 });
  });

  it("correlation: one note for a CVE on several hosts; admin interface + leaked credentials on one host", async () => {
    const ctx = context({ services: [ssh("192.0.2.10"), ssh("192.0.2.11")] });
    await vulnerabilityScanning({ templates: [], intel })(ctx);
    const base = ctx.reported.length;
    const tplDraft = (id: string, component: string): DetectionDraft => ({
      ...cveDetection(intel.matchCpe(ssh("x").cpe!)[0]!, ssh("192.0.2.20")),
      templateId: id,
      cveIds: [],
      cweIds: [],
      tool: "templates",
      target: "192.0.2.20",
      affectedComponent: component,
    });
    await ctx.report({ ...tplDraft("grafana-login-exposed", "http://192.0.2.20:3000/login"), severity: "info", cvssScore: 0 });
    await ctx.report({ ...tplDraft("env-file-secrets", "http://192.0.2.20:80/.env"), severity: "high", cvssScore: 7.5, cweIds: ["CWE-538", "CWE-312"] });
    await correlation({ templates })(ctx);
    const notes = ctx.reported.slice(base + 2);
    // The client-side ssh-agent CVEs (2016-10009, 2023-38408) are info notes: no spread note for them.
    expect(notes.map((d) => d.templateId)).toEqual([
      "correlation:cve-spread:CVE-2016-6210",
      "correlation:cve-spread:CVE-2016-6515",
      "correlation:cve-spread:CVE-2018-15473",
      "correlation:cve-spread:CVE-2020-15778",
      "correlation:admin-interface-with-credential-exposure",
    ]);
    expect(notes[2]).toMatchObject({ severity: "info", affectedComponent: "CVE-2018-15473", target: "10.0.0.0/30" });
    expect(notes[2]!.description).toContain("- OpenSSH 7.2p2 on 192.0.2.11:22");
    expect(notes[4]).toMatchObject({
      severity: "high",
      target: "192.0.2.20",
      affectedComponent: "http://192.0.2.20:3000/login",
      cweIds: ["CWE-538", "CWE-312"],
    });
  });

  it("compliance_mapping sums controls for the job's frameworks", async () => {
    const ctx = context({ services: [ssh("192.0.2.10")], frameworks: ["pci_dss"] });
    await vulnerabilityScanning({ templates: [], intel })(ctx);
    await complianceMapping({ compliance })(ctx);
    const summary = insightsOf(ctx).compliance!;
    expect(summary.frameworks.map((f) => f.name)).toEqual(["pci_dss"]);
    expect(summary.frameworks[0]!.controls.find((c) => c.control === "6.3.3")).toEqual({ control: "6.3.3", detections: 6 });
  });

  it("the analyst ranks by severity, KEV, EPSS and exposure; the plan groups CVEs into one upgrade", async () => {
    expect(isPublicAddress("8.8.8.8")).toBe(true);
    expect(["10.1.2.3", "127.0.0.1", "169.254.169.254", "::1", "fd00::1", "nonsense"].map(isPublicAddress)).toEqual([false, false, false, false, false, false]);
    const d = (x: Partial<DetectionDraft>) => ({ ...cveDetection(intel.matchCpe(ssh("x").cpe!)[0]!, ssh("192.0.2.10")), ...x });
    const kevMedium = assessRisk(d({ severity: "medium", cvssScore: 5.3, kev: true, epssScore: 0.01 }), "internal");
    expect(kevMedium.priority).toBe("high");
    expect(kevMedium.reasons).toContain("listed in CISA's Known Exploited Vulnerabilities catalogue");
    expect(assessRisk(d({ severity: "critical", cvssScore: 9.8, kev: false }), "internet").priority).toBe("critical");
    expect(assessRisk(d({ severity: "low", cvssScore: 3.1 }), "internal").priority).toBe("low");

    const ctx = context({ services: [ssh("192.0.2.10")], hosts: [{ address: "192.0.2.10", alive: true }] });
    await vulnerabilityScanning({ templates: [], intel })(ctx);
    await ctx.report({
      ...d({}),
      templateId: "redis-unauthenticated",
      tool: "templates",
      severity: "critical",
      cvssScore: 9.8,
      cveIds: [],
      affectedComponent: "tcp://192.0.2.10:6379",
      remediation: { summary: "Require authentication.", steps: [], codeExample: "", references: [] },
    });
    await aiAnalysis(ctx);
    await remediationPlanning(ctx);
    const plan = insightsOf(ctx).plan!;
    // The client-side ssh-agent CVEs (CVE-2023-38408 was the CVSS 9.8 one) are info notes, which the
    // plan leaves out: the OpenSSH upgrade fixes four CVEs, the worst at 7.8, after the Redis action.
    expect(plan.map((a) => a.action)).toEqual([
      "Require authentication — tcp://192.0.2.10:6379",
      "Upgrade OpenSSH 7.2p2 on 192.0.2.10:22 (fixes 4 known CVEs)",
    ]);
    expect(plan[1]!.fixes).toHaveLength(4);
    expect(plan[0]).toMatchObject({ priority: "high", due: "30 days" }); // 192.0.2.0/24 is not internet-routable
    const planDetection = ctx.reported.at(-1)!;
    expect(planDetection).toMatchObject({
      templateId: "remediation-plan",
      severity: "info",
      tool: "remediation-planner",
      target: "10.0.0.0/30",
      frameworks: [],
    });
    expect(planDetection.description).toMatch(/^Actions in order of risk/);
    expect(planDetection.remediation.steps).toHaveLength(2);
    expect(buildPlan([])).toEqual([]);

    await reporting(ctx);
    // CVE-2023-38408 (9.8) and CVE-2016-10009 are info notes now: one critical (Redis) and three info.
    expect(insightsOf(ctx).summary).toMatchObject({ total: 8, bySeverity: { critical: 1, info: 3 }, byTool: { "cve-match": 6 } });
  });
});
