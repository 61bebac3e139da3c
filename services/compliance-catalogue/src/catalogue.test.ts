import { describe, expect, it } from "vitest";
import { ComplianceMap } from "./cwe-map.js";
import { Catalogue, FRAMEWORK_IDS } from "./frameworks.js";

describe("the control catalogue", () => {
  const catalogue = Catalogue.load();

  it("has the eight frameworks with unique references and about 800 controls", () => {
    expect(catalogue.frameworks.map((f) => f.id)).toEqual([...FRAMEWORK_IDS]);
    for (const f of catalogue.frameworks) expect(f.controls.length).toBeGreaterThan(20);
    expect(new Set(catalogue.controls.map((c) => c.key)).size).toBe(catalogue.controls.length);
    expect(catalogue.controls.length).toBeGreaterThanOrEqual(780);
    expect(catalogue.get("soc2", "CC6.1")?.name).toBe("Logical access security");
  });

  it("holds every control reference the CWE mapping can give a finding, so findings and grc cannot disagree", async () => {
    const map = await ComplianceMap.load();
    const missing = map.testedRefs().flatMap((m) => m.controls.filter((ref) => !catalogue.get(m.name, ref)).map((ref) => `${m.name} ${ref}`));
    expect(missing).toEqual([]);
    expect(map.testedRefs(["pci_dss"]).map((m) => m.name)).toEqual(["pci_dss"]);
  });

  it("refuses a catalogue without a framework or with an unknown one", () => {
    expect(() => Catalogue.fromJson({ frameworks: { soc2: { name: "x", controls: { a: "b" } } } })).toThrow(/iso27001 is missing/);
    expect(() => Catalogue.fromJson({ frameworks: { nope: { name: "x", controls: {} } } })).toThrow(/unknown frameworks nope/);
  });
});
