import { describe, expect, it } from "vitest";
import { count, frameworkName, scanSummary } from "./words.js";

describe("words", () => {
  it("counts with the right noun", () => {
    expect(count(0, "finding")).toBe("0 findings");
    expect(count(1, "finding")).toBe("1 finding");
    expect(count(2, "finding")).toBe("2 findings");
    expect(count(1, "policy", "policies")).toBe("1 policy");
  });

  it("sums a scan up so the parts add up to the total, info included", () => {
    const scan = { vulnerabilities_found: 1, critical_count: 0, high_count: 0, medium_count: 0, low_count: 0, info_count: 1 };
    expect(scanSummary(scan)).toBe("1 finding: 1 info");
    expect(scanSummary({ ...scan, vulnerabilities_found: 45, critical_count: 2, high_count: 5, medium_count: 3, low_count: 30, info_count: 5 })).toBe(
      "45 findings: 2 critical, 5 high, 3 medium, 30 low, 5 info",
    );
    expect(scanSummary({ ...scan, vulnerabilities_found: 0, info_count: 0 })).toBe("0 findings");
    // A listing without info_count: info is what the other severities leave.
    expect(scanSummary({ vulnerabilities_found: 3, critical_count: 1, high_count: 0, medium_count: 0, low_count: 0 })).toBe("3 findings: 1 critical, 2 info");
  });

  it("names frameworks as people know them, and reads an unknown value", () => {
    expect(frameworkName("soc2")).toBe("SOC 2");
    expect(frameworkName("nist_800_53")).toBe("NIST SP 800-53");
    expect(frameworkName("new_framework")).toBe("new framework");
  });
});
