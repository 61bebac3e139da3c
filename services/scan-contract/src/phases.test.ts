import { describe, expect, it } from "vitest";
import { COMPLIANCE_PHASES, FULL_PHASES, PHASES_BY_TYPE, phasesFor, QUICK_PHASES } from "@vulnscan/scan-contract";

describe("phases", () => {
  it("a full scan runs the 11 phases, compliance_mapping between correlation and ai_analysis", () => {
    expect(FULL_PHASES).toHaveLength(11);
    expect(FULL_PHASES.indexOf("compliance_mapping")).toBe(FULL_PHASES.indexOf("correlation") + 1);
    expect(FULL_PHASES.indexOf("ai_analysis")).toBe(FULL_PHASES.indexOf("compliance_mapping") + 1);
  });

  it("quick and compliance run ordered subsets that start with discovery and end with reporting", () => {
    expect(QUICK_PHASES).toEqual(["discovery", "enumeration", "vulnerability_scanning", "web_analysis", "threat_intelligence", "reporting"]);
    expect(COMPLIANCE_PHASES).toEqual([
      "discovery",
      "enumeration",
      "vulnerability_scanning",
      "web_analysis",
      "compliance_mapping",
      "remediation_planning",
      "reporting",
    ]);
    for (const list of Object.values(PHASES_BY_TYPE)) {
      const positions = list.map((p) => FULL_PHASES.indexOf(p));
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      expect(positions.every((p) => p >= 0)).toBe(true);
    }
  });

  it("phasesFor returns a copy", () => {
    const list = phasesFor("quick");
    list.pop();
    expect(QUICK_PHASES).toHaveLength(6);
  });
});
