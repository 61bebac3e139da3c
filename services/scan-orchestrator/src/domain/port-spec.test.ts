import { DomainError } from "@vulnscan/kit/core";
import { describe, expect, it } from "vitest";
import { parsePorts, portCount } from "./port-spec.js";

describe("parsePorts", () => {
  it.each([
    ["", "", undefined],
    ["   ", "", undefined],
    ["80", "80", 1],
    ["22,80,443", "22,80,443", 3],
    [" 22 , 80 - 90 ,443 ", "22,80-90,443", 13],
    ["1-65535", "1-65535", 65535],
    ["80-80", "80", 1],
    ["1-100,50-150", "1-100,50-150", 150],
    ["443,443", "443,443", 1],
  ])("accepts %j → %j (%s ports)", (input, text, count) => {
    const spec = parsePorts(input);
    expect(spec.text).toBe(text);
    expect(portCount(spec)).toBe(count);
  });

  it.each([
    "0",
    "65536",
    "80-",
    "-80",
    "90-80",
    "a",
    "80,,443",
    "80;443",
    "1-2-3",
    "8o",
    "80 443",
    "1e3",
    "+80",
    Array.from({ length: 101 }, (_, i) => i + 1).join(","),
  ])("refuses %j on field ports", (input) => {
    try {
      parsePorts(input);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).field).toBe("ports");
    }
  });

  it("accepts exactly 100 items", () => {
    expect(parsePorts(Array.from({ length: 100 }, (_, i) => i + 1).join(",")).ranges).toHaveLength(100);
  });
});
