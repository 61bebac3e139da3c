import { describe, expect, it } from "vitest";
import { testFindings } from "../testing.js";
import { detection } from "./test-fixtures.js";

describe("ingestion (in-memory store)", () => {
  it("creates a finding once per fingerprint, folding a batch's repeats into it, and announces it once", async () => {
    const t = testFindings();
    const res = await t.ingestion.ingestBatch([
      detection({ detection_id: "d1", scan_id: "scan_1" }),
      detection({ detection_id: "d2", scan_id: "scan_2" }),
      detection({ detection_id: "d3", template_id: "other-template", severity: "low" }),
    ]);
    expect(res.map((r) => r.created)).toEqual([true, false, true]);
    expect(res[1]!.findingId).toBe(res[0]!.findingId);
    const f = await t.triage.get("org_a", res[0]!.findingId);
    expect(f.scan_ids).toEqual(["scan_1", "scan_2"]);
    expect(t.repos.findings.events.filter((e) => e.type === "vulnerability.found")).toHaveLength(2);
    // d2 folded into the creation: recorded on the finding, so its redelivery changes nothing.
    expect(f.detection_ids).toEqual(["d1", "d2"]);
  });

  it("de-duplicates later scans and redeliveries: a known fingerprint updates, a seen detection changes nothing", async () => {
    const t = testFindings();
    const first = await t.ingestion.ingest(detection({ detection_id: "d1" }));
    t.advance(60_000);
    const later = await t.ingestion.ingest(detection({ detection_id: "d2", scan_id: "scan_9" }));
    expect(later).toEqual({ findingId: first.findingId, created: false });
    const before = await t.triage.get("org_a", first.findingId);
    expect(await t.ingestion.ingestBatch([detection({ detection_id: "d1" }), detection({ detection_id: "d2", scan_id: "scan_9" })])).toEqual([
      { findingId: first.findingId, created: false },
      { findingId: first.findingId, created: false },
    ]);
    const f = await t.triage.get("org_a", first.findingId);
    expect(f).toEqual(before);
    expect(f.scan_ids).toEqual(["scan_1", "scan_9"]);
    expect(t.repos.findings.docs.size).toBe(1);
  });

  it("keeps organizations apart: the same detection in another org is another finding", async () => {
    const t = testFindings();
    const a = await t.ingestion.ingest(detection({ detection_id: "d1", org_id: "org_a" }));
    const b = await t.ingestion.ingest(detection({ detection_id: "d2", org_id: "org_b" }));
    expect(b.created).toBe(true);
    expect(b.findingId).not.toBe(a.findingId);
  });
});
