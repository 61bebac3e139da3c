import { create } from "@bufbuild/protobuf";
import { DetectionSchema } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import { Severity } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { describe, expect, it } from "vitest";
import { detectionFacts } from "./mappers.js";

describe("detectionFacts", () => {
  it("shows NUL characters of scanner text as \\x00 (PostgreSQL's jsonb cannot store them)", () => {
    const facts = detectionFacts(
      create(DetectionSchema, {
        detectionId: "d1",
        orgId: "org_1",
        scanId: "scan_1",
        target: "10.0.0.1",
        templateId: "banner",
        title: "Banner\u0000",
        severity: Severity.LOW,
        evidence: { request: "", response: "SSH-2.0\u0000\u0000x" },
        remediation: { steps: ["a\u0000"] },
      }),
    );
    expect(facts.evidence.response).toBe("SSH-2.0\\x00\\x00x");
    expect(facts.title).toBe("Banner\\x00");
    expect(facts.remediation.steps).toEqual(["a\\x00"]);
    expect(facts.detected_at).toBeInstanceOf(Date);
    expect(JSON.stringify(facts)).not.toContain("\\u0000");
  });
});
