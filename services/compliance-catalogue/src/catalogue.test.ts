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

  it("has our requirement text for every control a scan can test or make failing", async () => {
    const map = await ComplianceMap.load();
    const tested = map.testedRefs().flatMap((m) => m.controls.map((ref) => catalogue.get(m.name, ref)!));
    expect(tested.length).toBeGreaterThan(100);
    expect(tested.filter((c) => c.requirement.length < 20).map((c) => c.key)).toEqual([]);
    expect(catalogue.get("pci_dss", "6.3.3")?.requirement).toMatch(/patches/);
    // Controls without a written text carry "", never their name again.
    expect(catalogue.controls.every((c) => c.requirement !== c.name)).toBe(true);
  });

  it("refuses requirement text for a control the catalogue does not have", () => {
    const json = { frameworks: Object.fromEntries(catalogue.frameworks.map((f) => [f.id, { name: f.name, controls: { X1: "x" } }])) };
    expect(() => Catalogue.fromJson(json, { frameworks: { soc2: { X2: "A text for a control that is not there." } } })).toThrow(/no such controls soc2:X2/);
    expect(Catalogue.fromJson(json, { frameworks: { soc2: { X1: "What X1 asks for." } } }).get("soc2", "X1")?.requirement).toBe("What X1 asks for.");
  });

  it("refuses a catalogue without a framework or with an unknown one", () => {
    expect(() => Catalogue.fromJson({ frameworks: { soc2: { name: "x", controls: { a: "b" } } } })).toThrow(/iso27001 is missing/);
    expect(() => Catalogue.fromJson({ frameworks: { nope: { name: "x", controls: {} } } })).toThrow(/unknown frameworks nope/);
  });
});
