import { describe, expect, it } from "vitest";
import { csvCell, csvRow, parseCsv } from "./csv.js";

describe("CSV", () => {
  it("neutralises formulas by prefixing a quote", () => {
    for (const evil of ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd"]) {
      expect(csvCell(evil).replace(/^"/, "").startsWith("'")).toBe(true);
    }
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("CVE-1")).toBe("CVE-1");
  });

  it("quotes separators, quotes and newlines, joins arrays, and round-trips", () => {
    const row = csvRow(["a,b", 'say "hi"', "two\nlines", ["x", "y"], 7.5, null, "=1+1"]);
    expect(row).toBe('"a,b","say ""hi""","two\nlines",x; y,7.5,,\'=1+1\r\n');
    expect(parseCsv(row + csvRow(["z"]))).toEqual([["a,b", 'say "hi"', "two\nlines", "x; y", "7.5", "", "'=1+1"], ["z"]]);
  });
});
