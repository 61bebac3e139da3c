import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_INTEL_DIR } from "../config.js";
import type { DetectionDraft } from "../engine/types.js";
import { ComplianceMap, FRAMEWORK_IDS } from "./compliance.js";
import { enrichDetection } from "./enrich.js";
import { IntelStore } from "./store.js";

let map: ComplianceMap;
let intel: IntelStore;
beforeAll(async () => {
  map = await ComplianceMap.load();
  intel = await IntelStore.load(DEFAULT_INTEL_DIR);
});

const controls = (m: { name: string; controls: string[] }[]) => Object.fromEntries(m.map((f) => [f.name, f.controls]));

describe("CWE → framework controls", () => {
  it("maps cleartext transmission to the encryption-in-transit controls of all eight frameworks", () => {
    expect(controls(map.map(["CWE-319"]))).toEqual({
      soc2: ["CC6.7"],
      iso27001: ["A.8.24", "A.5.14"],
      pci_dss: ["4.2.1", "2.2.7"],
      hipaa: ["164.312(e)(1)", "164.312(e)(2)(ii)"],
      gdpr: ["Art. 32(1)(a)"],
      nist_csf: ["PR.DS-2"],
      nist_800_53: ["SC-8", "SC-8(1)", "SC-13"],
      cis_controls: ["3.10"],
    });
  });

  it("lists frameworks in the design's order and restricts them to the job's", () => {
    expect(map.map(["CWE-306"]).map((f) => f.name)).toEqual([...FRAMEWORK_IDS]);
    expect(map.map(["CWE-306"], [], ["pci_dss", "hipaa"]).map((f) => f.name)).toEqual(["pci_dss", "hipaa"]);
    expect(controls(map.map(["CWE-306"], [], ["nist_800_53"]))).toEqual({ nist_800_53: ["IA-2", "AC-14", "SC-7", "CM-7"] });
  });

  it("adds vulnerability management for CVEs, falls back for unmapped CWEs, and maps nothing for bare observations", () => {
    expect(controls(map.map([], ["CVE-2018-15473"], ["pci_dss", "nist_800_53"]))).toEqual({
      pci_dss: ["6.3.1", "6.3.3", "11.3.2"],
      nist_800_53: ["RA-5", "SI-2"],
    });
    expect(controls(map.map(["CWE-99999"], [], ["iso27001"]))).toEqual({ iso27001: ["A.8.8"] });
    expect(map.map([], [])).toEqual([]);
    expect(map.categoriesOf(["CWE-798"])).toEqual(["exposed-secrets", "weak-credentials"]);
  });

  it("refuses a mapping file that names unknown categories", () => {
    expect(() => ComplianceMap.fromJson({ default: "x", categories: {}, cwes: {} })).toThrow(/default category/);
    expect(() => ComplianceMap.fromJson({ default: "a", categories: { a: { title: "A" } }, cwes: { "CWE-1": ["b"] } })).toThrow(/unknown category "b"/);
  });
});

describe("enrichDetection", () => {
  const d = (x: Partial<DetectionDraft>): DetectionDraft => ({
    templateId: "t",
    confidence: "confirmed",
    title: "t",
    severity: "high",
    cvssScore: 7.5,
    cvssVector: "",
    cweIds: [],
    cveIds: [],
    tool: "x",
    target: "h",
    affectedComponent: "c",
    description: "",
    impact: "",
    remediation: { summary: "", steps: [], codeExample: "", references: [] },
    evidence: { request: "", response: "" },
    ...x,
  });

  it("takes the highest EPSS of its CVEs, the KEV flag, and controls for the job's frameworks", () => {
    const out = enrichDetection(d({ cveIds: ["cve-2021-44790", "CVE-2021-40438"], cweIds: ["CWE-918"] }), { intel, compliance: map, frameworks: ["pci_dss"] });
    expect(out.cveIds).toEqual(["CVE-2021-44790", "CVE-2021-40438"]);
    expect(out.epssScore).toBeCloseTo(0.94345);
    expect(out.kev).toBe(true);
    // The earliest KEV due date of its listed CVEs (CVE-2021-40438: 2021-12-15), findings' SLA deadline when earlier than the policy's.
    expect(out.kevDueDate).toEqual(new Date("2021-12-15T00:00:00Z"));
    expect(controls(out.frameworks!)).toEqual({ pci_dss: ["6.2.4", "6.4.1", "6.3.1", "6.3.3", "11.3.2"] });
  });

  it("leaves EPSS unset when unknown and keeps mappings a phase chose, within the job's frameworks", () => {
    const out = enrichDetection(
      d({
        frameworks: [
          { name: "soc2", controls: ["CC6.1"] },
          { name: "gdpr", controls: ["Art. 32"] },
        ],
      }),
      { intel, compliance: map, frameworks: ["gdpr"] },
    );
    expect(out.epssScore).toBeUndefined();
    expect(out.kev).toBe(false);
    expect(out.kevDueDate).toBeUndefined();
    expect(out.frameworks).toEqual([{ name: "gdpr", controls: ["Art. 32"] }]);
  });
});
