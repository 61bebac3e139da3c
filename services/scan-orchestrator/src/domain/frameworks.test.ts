import type { DomainError } from "@vulnscan/kit/core";
import { describe, expect, it } from "vitest";
import { FRAMEWORK_IDS, parseFrameworks } from "./frameworks.js";

describe("parseFrameworks", () => {
  it("accepts every known id, trims and de-duplicates", () => {
    expect(parseFrameworks([...FRAMEWORK_IDS])).toEqual([...FRAMEWORK_IDS]);
    expect(parseFrameworks([" soc2", "pci_dss", "soc2"])).toEqual(["soc2", "pci_dss"]);
    expect(parseFrameworks([])).toEqual([]);
  });

  it.each([["SOC2"], ["pci-dss"], ["iso27002"], [""]])("refuses %j on field frameworks", (id) => {
    try {
      parseFrameworks(["soc2", id]);
      expect.unreachable();
    } catch (err) {
      expect((err as DomainError).errorCode).toBe("VALIDATION_ERROR");
      expect((err as DomainError).field).toBe("frameworks");
    }
  });
});
