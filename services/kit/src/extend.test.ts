import { describe, expect, it } from "vitest";
import { extend } from "./extend.js";

describe("extend", () => {
  it("gives what spreading both would, key order included", () => {
    const base = () => ({ id: "f1", frameworks: ["pci_dss"], due_date: null as string | null, title: "t" });
    const more = { frameworks: [{ name: "pci_dss", controls: ["6.2.4"] }], notes: "n", due_date: "2026-12-01" };
    const spread = { ...base(), ...more };
    const extended = extend(base(), more);
    expect(extended).toEqual(spread);
    expect(Object.keys(extended)).toEqual(Object.keys(spread));
    expect(JSON.stringify(extended)).toBe(JSON.stringify(spread));
  });

  it("leaves a key of the base alone when the addition is conditional and absent", () => {
    const withError = (error: string) => extend({ id: "s1", status: "failed" }, { ...(error ? { error } : {}), ports: "top-100" });
    expect(withError("")).toEqual({ id: "s1", status: "failed", ports: "top-100" });
    expect(withError("boom")).toEqual({ id: "s1", status: "failed", error: "boom", ports: "top-100" });
  });
});
