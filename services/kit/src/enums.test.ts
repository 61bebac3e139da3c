import { FindingStatus, Severity } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { describe, expect, it } from "vitest";
import { enumName, enumNameIn, enumValue } from "./enums.js";

describe("enum ⇄ string by name", () => {
  it("maps values to lower-case names and back, multi-word names included", () => {
    expect(enumName(Severity, Severity.CRITICAL)).toBe("critical");
    expect(enumName(FindingStatus, FindingStatus.IN_PROGRESS)).toBe("in_progress");
    expect(enumValue(FindingStatus, "in_progress")).toBe(FindingStatus.IN_PROGRESS);
    for (const v of [Severity.CRITICAL, Severity.HIGH, Severity.MEDIUM, Severity.LOW, Severity.INFO])
      expect(enumValue(Severity, enumName(Severity, v))).toBe(v);
  });

  it("names nothing for UNSPECIFIED or an unknown number, and refuses a string that names no value", () => {
    expect(enumName(Severity, Severity.UNSPECIFIED)).toBe("");
    expect(enumName(Severity, 99)).toBe("");
    expect(() => enumValue(Severity, "unspecified")).toThrow();
    expect(() => enumValue(Severity, "severe")).toThrow();
  });

  it("refuses, naming the field, a request value that is unset, unknown or not allowed", () => {
    expect(enumNameIn(Severity, Severity.HIGH, ["high", "low"] as const, "severity")).toBe("high");
    for (const n of [Severity.UNSPECIFIED, 99, Severity.CRITICAL]) {
      expect(() => enumNameIn(Severity, n, ["high", "low"] as const, "severity")).toThrow(
        expect.objectContaining({ field: "severity", message: "severity must be one of: high, low" }),
      );
    }
  });
});
