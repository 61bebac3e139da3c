import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Confidence, Severity } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { ScanJobSchema } from "@vulnscan/proto/vulnscan/scans/v1/jobs_pb.js";
import { ScanType } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { describe, expect, it } from "vitest";
import { BadJobError, detectionRecord, jobSpecOf, reportRecord } from "./codec.js";
import { DEFAULT_PORTS, parsePortSpec, PortSpecError } from "./ports.js";

describe("ports", () => {
  it("honours the spec exactly, or uses the default list", () => {
    expect(parsePortSpec("443, 22,80-82,81")).toEqual([22, 80, 81, 82, 443]);
    expect(parsePortSpec("")).toEqual([...DEFAULT_PORTS]);
    expect(DEFAULT_PORTS).toContain(6379);
    expect(parsePortSpec("1-65535")).toHaveLength(65535);
    for (const bad of ["0", "65536", "90-80", "http", "1,,2"]) expect(() => parsePortSpec(bad), bad).toThrow(PortSpecError);
  });
});

describe("codec", () => {
  const job = (x: object = {}) =>
    create(ScanJobSchema, {
      scanId: "scan_1",
      orgId: "org_1",
      target: "127.0.0.1",
      scanType: ScanType.QUICK,
      ports: "8080",
      frameworks: ["pci_dss"],
      phases: ["discovery", "reporting"],
      attempt: 2,
      deadline: timestampFromDate(new Date("2030-01-01T00:00:00Z")),
      ...x,
    });

  it("turns a ScanJob into the engine's job", () => {
    expect(jobSpecOf(job())).toEqual({
      scanId: "scan_1",
      orgId: "org_1",
      target: "127.0.0.1",
      scanType: "quick",
      ports: [8080],
      frameworks: ["pci_dss"],
      phases: ["discovery", "reporting"],
      attempt: 2,
      deadline: new Date("2030-01-01T00:00:00Z"),
    });
  });

  it("refuses jobs that can never run", () => {
    expect(() => jobSpecOf(job({ phases: ["discovery", "rm_rf"] }))).toThrow(/unknown phases: rm_rf/);
    expect(() => jobSpecOf(job({ ports: "99999" }))).toThrow(BadJobError);
    expect(() => jobSpecOf(job({ scanType: ScanType.UNSPECIFIED }))).toThrow(/scan type/);
    expect(() => jobSpecOf(job({ target: "" }))).toThrow(BadJobError);
  });

  it("builds Detection and ScanReport records", () => {
    const spec = jobSpecOf(job());
    const rec = detectionRecord(
      {
        templateId: "t",
        confidence: "confirmed",
        title: "T",
        severity: "high",
        cvssScore: 7.5,
        cvssVector: "v",
        cweIds: ["CWE-1"],
        cveIds: [],
        tool: "templates",
        target: "h",
        affectedComponent: "c",
        description: "d",
        impact: "i",
        remediation: { summary: "s", steps: ["a"], codeExample: "x", references: ["https://r"] },
        evidence: { request: "q", response: "r" },
        frameworks: [{ name: "pci_dss", controls: ["6.2.4"] }],
      },
      { job: spec, phase: "web_analysis", detectionId: "uuid-1", detectedAt: new Date(0) },
    );
    expect(rec).toMatchObject({
      detectionId: "uuid-1",
      orgId: "org_1",
      scanId: "scan_1",
      severity: Severity.HIGH,
      confidence: Confidence.CONFIRMED,
      kev: false,
      phase: "web_analysis",
      frameworks: [{ name: "pci_dss", controls: ["6.2.4"] }],
    });
    expect(rec.epssScore).toBeUndefined();
    const r = reportRecord(
      { kind: "failed", reason: "cancelled", phase: "discovery", retryable: false },
      { job: spec, workerId: "w1", reportId: "r1", sentAt: new Date(0) },
    );
    expect(r).toMatchObject({
      reportId: "r1",
      scanId: "scan_1",
      attempt: 2,
      workerId: "w1",
      report: { case: "failed", value: { reason: "cancelled", phase: "discovery", retryable: false } },
    });
  });
});
