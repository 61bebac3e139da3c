import { describe, expect, it } from "vitest";
import { newFinding } from "../domain/changes.js";
import { detection } from "../domain/test-fixtures.js";
import type { FindingDoc } from "../domain/types.js";
import { Chunker, CHUNK_BYTES } from "./chunker.js";
import { pdfExport } from "./pdf-export.js";
import { csvExport, CSV_COLUMNS, parseCsv } from "./csv.js";
import { detailJson, jsonExport } from "./json.js";

function findings(n: number): FindingDoc[] {
  return Array.from(
    { length: n },
    (_, i) =>
      newFinding(
        detection({
          detection_id: `d${i}`,
          title: i === 0 ? "=cmd|' /C calc'!A0" : `Finding ${i}`,
          severity: (["critical", "high", "medium", "low", "info"] as const)[i % 5],
        }),
        `fp_${i}`,
        `finding_${String(i).padStart(4, "0")}`,
        new Date("2026-01-10T10:00:00Z"),
      ).doc,
  );
}

async function* iter<T>(xs: T[]) {
  for (const x of xs) yield x;
}

async function collect(gen: AsyncGenerator<Buffer>): Promise<{ buf: Buffer; sizes: number[] }> {
  const parts: Buffer[] = [];
  for await (const c of gen) parts.push(c);
  return { buf: Buffer.concat(parts), sizes: parts.map((p) => p.length) };
}

describe("chunker", () => {
  it("never emits more than 64 KiB at once and loses nothing", () => {
    const c = new Chunker();
    const out = [...c.push("a".repeat(100_000)), ...c.push("b".repeat(50_000)), ...c.flush()];
    expect(out.every((b) => b.length <= CHUNK_BYTES)).toBe(true);
    expect(Buffer.concat(out).toString()).toBe("a".repeat(100_000) + "b".repeat(50_000));
  });
});

describe("exports", () => {
  it("CSV has a header and one escaped row per finding", async () => {
    const fs = findings(3);
    const { buf } = await collect(csvExport(iter(fs)));
    const rows = parseCsv(buf.toString());
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(4);
    expect(rows[1]![1]).toBe("'=cmd|' /C calc'!A0");
    expect(rows[2]![0]).toBe("finding_0001");
  });

  it("JSON is an array of details, also when empty", async () => {
    const fs = findings(2);
    expect(JSON.parse((await collect(jsonExport(iter(fs)))).buf.toString())).toEqual(JSON.parse(JSON.stringify(fs.map(detailJson))));
    expect(JSON.parse((await collect(jsonExport(iter([])))).buf.toString())).toEqual([]);
  });

  it("PDF is a valid document whose page count grows with the findings, in chunks of at most 64 KiB", async () => {
    const pages = async (n: number) => {
      const fs = findings(n);
      const { buf, sizes } = await collect(
        pdfExport(iter(fs), { total: n, bySeverity: { critical: n, high: 0, medium: 0, low: 0, info: 0 }, generatedAt: new Date(), filters: "" }),
      );
      expect(buf.subarray(0, 5).toString()).toBe("%PDF-");
      expect(buf.subarray(-6).toString()).toContain("%%EOF");
      expect(sizes.every((s) => s <= CHUNK_BYTES)).toBe(true);
      return (buf.toString("latin1").match(/\/Type \/Page\b/g) ?? []).length;
    };
    const p0 = await pages(0);
    const p10 = await pages(10);
    const p100 = await pages(100);
    const p300 = await pages(300);
    expect(p0).toBe(1);
    expect(p10).toBe(1);
    expect(p100).toBeGreaterThan(p10);
    expect(p300).toBeGreaterThan(p100);
    expect(p300).toBeGreaterThanOrEqual(Math.floor(300 / 30));
  });
});
