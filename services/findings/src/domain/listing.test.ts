import { describe, expect, it } from "vitest";
import { testFindings } from "../testing.js";
import { listQuery } from "./list.js";
import { detection } from "./test-fixtures.js";
import { SEVERITIES, type Severity } from "./types.js";

async function seeded(n = 12) {
  const t = testFindings();
  for (let i = 0; i < n; i++) {
    t.advance(1_000);
    const severity: Severity = SEVERITIES[i % 5]!;
    await t.ingestion.ingest(
      detection({ detection_id: `d${i}`, template_id: `t${i}`, severity, cvss_score: (i * 7) % 10, tool: i % 2 ? "nmap" : "tls", detected_at: t.now() }),
    );
  }
  await t.ingestion.ingest(detection({ detection_id: "other", org_id: "org_b", template_id: "t0" }));
  return t;
}

describe("listing (in-memory store)", () => {
  it("filters and sorts, pages by cursor to the same rows as by number, and binds cursors to the list", async () => {
    const t = await seeded();
    const q = listQuery({ tool: "tls" }, "severity", "desc");
    const byNumber = [...(await t.listing.list("org_a", q, 1, 4)).items, ...(await t.listing.list("org_a", q, 2, 4)).items];
    expect(byNumber.map((f) => f.tool)).toEqual(Array(6).fill("tls"));
    const ranks = byNumber.map((f) => f.severity_rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const first = await t.listing.list("org_a", q, 1, 4);
    expect(first).toMatchObject({ total: 6, page: 1, perPage: 4, pages: 2 });
    expect(first.items[0]).not.toHaveProperty("history");
    const second = await t.listing.list("org_a", q, 0, 4, first.nextCursor);
    expect(second.page).toBe(2);
    expect([...first.items, ...second.items].map((f) => f._id)).toEqual(byNumber.map((f) => f._id));
    expect(second.nextCursor).toBe("");
    await expect(t.listing.list("org_b", q, 0, 4, first.nextCursor)).rejects.toMatchObject({ errorCode: "VALIDATION_ERROR", field: "cursor" });
    await expect(t.listing.list("org_a", listQuery({}, "severity", "desc"), 0, 4, first.nextCursor)).rejects.toMatchObject({ field: "cursor" });
  });

  it("lists only the organization's own findings", async () => {
    const t = await seeded(3);
    expect((await t.listing.list("org_b", listQuery({}), 1, 20)).items.map((f) => f.org_id)).toEqual(["org_b"]);
    expect((await t.listing.list("org_c", listQuery({}), 1, 20)).total).toBe(0);
  });

  it("computes stats from the counts, per organization and with the triage state", async () => {
    const t = await seeded(5);
    const [one] = (await t.listing.list("org_a", listQuery({ severity: "critical" }), 1, 1)).items;
    await t.triage.update("org_a", one!._id, { status: "resolved" }, undefined);
    const s = await t.listing.stats("org_a", {});
    expect(s).toMatchObject({
      total: 5,
      by_severity: { critical: 1, high: 1, medium: 1, low: 1, info: 1 },
      by_status: { open: 4, resolved: 1 },
      by_tool: { tls: 3, nmap: 2 },
      trends: { new_this_week: 5, resolved_this_week: 1 },
    });
    expect((await t.listing.stats("org_b", {})).total).toBe(1);
    await expect(Promise.resolve().then(() => t.listing.stats("org_a", { from: new Date("2026-03-02"), to: new Date("2026-03-01") }))).rejects.toMatchObject({
      field: "from_date",
    });
  });
});
