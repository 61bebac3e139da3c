import { describe, expect, it } from "vitest";
import { estimateSeconds } from "./estimate.js";

describe("estimateSeconds", () => {
  it("is the type's base for one host and the default ports", () => {
    expect(estimateSeconds("quick", 1, undefined, 1e9)).toBe(420);
    expect(estimateSeconds("full", 1, undefined, 1e9)).toBe(2700);
    expect(estimateSeconds("compliance", 1, undefined, 1e9)).toBe(1320);
  });

  it("scales with hosts (log) and ports (square root, clamped)", () => {
    expect(estimateSeconds("quick", 16, undefined, 1e9)).toBe(840); // /28: ×2
    expect(estimateSeconds("quick", 256, undefined, 1e9)).toBe(1260); // /24: ×3
    expect(estimateSeconds("quick", 1, 4000, 1e9)).toBe(840); // ×2
    expect(estimateSeconds("quick", 1, 1, 1e9)).toBe(210); // floor ×0.5
    expect(estimateSeconds("quick", 1, 65535, 1e9)).toBe(1680); // cap ×4
  });

  it("never exceeds the type's maximum duration", () => {
    expect(estimateSeconds("full", 4096, 65535, 7200)).toBe(7200);
  });
});
