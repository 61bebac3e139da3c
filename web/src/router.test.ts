import { describe, expect, it } from "vitest";
import { href, pageOf } from "./router.js";

describe("router", () => {
  it("reads the page of a list's URL as a whole number from 1", () => {
    const page = (q: string) => pageOf(new URLSearchParams(q));
    expect(page("")).toBe(1);
    expect(page("page=3")).toBe(3);
    expect(page("page=2.7")).toBe(2);
    for (const bad of ["page=0", "page=-4", "page=abc", "page=", "page=Infinity"]) expect(page(bad), bad).toBe(1);
  });

  it("writes only the filters that are set, in the order given", () => {
    expect(href("/settings/controls", { framework: "soc2", status: "", page: 1 })).toBe("#/settings/controls?framework=soc2&page=1");
    expect(href("/settings/controls", { framework: "", status: "failing", page: 1 })).toBe("#/settings/controls?status=failing&page=1");
    expect(href("/findings")).toBe("#/findings");
  });
});
