import { describe, expect, it } from "vitest";
import { count, day, frameworkName, historyLine, optionsOf, scanSummary, when, words } from "./words.js";

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

  it("has words for every value of the enums the console shows", () => {
    expect(words("findingStatus", "in_progress")).toBe("In progress");
    expect(words("findingStatus", "false_positive")).toBe("False positive");
    expect(words("controlStatus", "not_applicable")).toBe("Not applicable");
    expect(words("phase", "vulnerability_scanning")).toBe("Checking for vulnerabilities");
    expect(words("severity", "info")).toBe("Info");
    expect(words("evidenceStatus", "pending_scan")).toBe("Waiting for the malware check");
    expect(words("priority", null)).toBe("—");
    expect(optionsOf("scanType", ["quick", "full"])).toEqual([
      ["quick", "Quick"],
      ["full", "Full"],
    ]);
    // The enums of the API's schemas, as the console copies them: none is left without words.
    const enums = {
      severity: ["critical", "high", "medium", "low", "info"],
      findingStatus: ["open", "in_progress", "resolved", "false_positive", "accepted"],
      scanStatus: ["pending", "running", "completed", "failed", "cancelled"],
      controlStatus: ["not_started", "in_progress", "implemented", "not_applicable", "failing"],
      phase: [
        "discovery",
        "enumeration",
        "vulnerability_scanning",
        "web_analysis",
        "cloud_analysis",
        "threat_intelligence",
        "correlation",
        "compliance_mapping",
        "ai_analysis",
        "remediation_planning",
        "reporting",
      ],
    } as const;
    for (const [kind, values] of Object.entries(enums))
      for (const v of values) {
        const w = words(kind as keyof typeof enums, v);
        expect(w, `${kind} ${v}`).toMatch(/^[A-Z][^_]*$/); // words of our own, not the value with spaces
      }
  });

  it("shows dates in the reader's locale, never as ISO text", () => {
    const iso = "2026-03-04T05:06:07.000Z";
    expect(when(iso)).toBe(new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }));
    expect(when(iso)).not.toContain("T05:06");
    expect(day("2026-03-04T00:00:00.000Z")).toBe(new Date("2026-03-04T12:00:00Z").toLocaleDateString(undefined, { dateStyle: "medium" }));
    expect(when(null)).toBe("—");
    expect(when("not a date")).toBe("not a date");
  });

  it("writes a finding's history in words", () => {
    expect(historyLine({ action: "status_changed", from: "open", to: "in_progress" })).toBe("Status: Open → In progress");
    expect(historyLine({ action: "assignee_changed", from: null, to: "dev@example.test" })).toBe("Assignee: none → dev@example.test");
    expect(historyLine({ action: "priority_changed", from: null, to: "critical" })).toBe("Priority: none → Critical");
    expect(historyLine({ action: "due_date_changed", from: null, to: "2026-03-04T00:00:00.000Z" })).toBe(`Due date: none → ${day("2026-03-04T00:00:00.000Z")}`);
    expect(historyLine({ action: "created", from: null, to: "open" })).toBe("Created as Open");
    expect(historyLine({ action: "commented", from: null, to: "comment_1" })).toBe("Commented");
    // Risk acceptance names the day it runs until, never a timestamp; its expiry is a status move.
    const until = "2027-01-04T23:59:59.000Z";
    expect(historyLine({ action: "acceptance_requested", from: null, to: until })).toBe(`Acceptance asked for, until: ${day(until)}`);
    expect(historyLine({ action: "acceptance_set", from: null, to: until })).toBe(`Accepted until: ${day(until)}`);
    expect(historyLine({ action: "acceptance_expired", from: "accepted", to: "open" })).toBe("Acceptance expired: Risk accepted → Open");
  });
});
