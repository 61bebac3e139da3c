import { describe, expect, it } from "vitest";
import { applyUpdate, newFinding } from "../domain/changes.js";
import { detection } from "../domain/test-fixtures.js";
import { envelopeOf } from "./finding-events.js";

const t0 = new Date("2026-01-10T10:00:05Z");

describe("finding events as envelopes", () => {
  it("gives vulnerability.critical the spec's data plus the finding's confidence", () => {
    const { events } = newFinding(detection({ severity: "critical", cvss_score: 9.8, confidence: "version_match" }), "fp_1", "finding_1", t0);
    expect(envelopeOf(events[1]!)).toEqual({
      type: "vulnerability.critical",
      orgId: "org_a",
      payload: {
        case: "vulnerabilityCritical",
        value: {
          findingId: "finding_1",
          title: "Weak TLS cipher suites",
          severity: "critical",
          cvssScore: 9.8,
          target: "app.example.test",
          affectedComponent: "nginx on 10.0.0.5:443",
          cveIds: ["CVE-2016-2183"],
          scanId: "scan_1",
          confidence: "version_match",
        },
      },
    });
    expect(envelopeOf(events[0]!).payload).toMatchObject({
      case: "vulnerabilityFound",
      value: { tool: "tls", cweIds: ["CWE-327"], frameworks: [{ name: "pci_dss" }] },
    });
  });

  it("sends an empty confidence, as the event schema documents, for a finding stored before the scanner said", () => {
    const { doc, events } = newFinding(detection({ severity: "high", confidence: "confirmed" }), "fp_1", "finding_1", t0);
    // A document written before the field existed has none.
    const older = { ...doc, confidence: undefined };
    expect(events.map((e) => e.type)).toEqual(["vulnerability.found", "vulnerability.high"]);
    for (const e of events) {
      expect((envelopeOf({ ...e, finding: older }).payload!.value as { confidence: string }).confidence, e.type).toBe("");
      expect((envelopeOf(e).payload!.value as { confidence: string }).confidence, e.type).toBe("confirmed");
    }
  });

  it("says who moved the status and when it was resolved", () => {
    const { doc } = newFinding(detection(), "fp_1", "finding_1", t0);
    const at = new Date("2026-01-12T00:00:00Z");
    const c = applyUpdate(doc, { status: "resolved" }, { user_id: "u", api_key_id: "", display_name: "alice@a.test" }, at)!;
    const [changed, resolved] = c.events.map(envelopeOf);
    expect(changed!.payload).toEqual({
      case: "vulnerabilityStatusChanged",
      value: {
        findingId: "finding_1",
        title: "Weak TLS cipher suites",
        severity: "high",
        target: "app.example.test",
        user: "alice@a.test",
        from: "open",
        to: "resolved",
      },
    });
    expect(resolved!.payload).toMatchObject({
      case: "vulnerabilityResolved",
      value: { findingId: "finding_1", user: "alice@a.test", scanId: "scan_1", resolvedAt: { seconds: BigInt(at.getTime() / 1000) } },
    });
  });
});
