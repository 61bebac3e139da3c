import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { enumName, enumValue } from "@vulnscan/kit/enums";
import { SCAN_TYPES } from "@vulnscan/scan-contract";
import { DetectionSchema, type Detection } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import { Confidence as ConfidencePb, Severity as SeverityPb } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { ScanReportSchema, type ScanJob, type ScanReport } from "@vulnscan/proto/vulnscan/scans/v1/jobs_pb.js";
import { ScanType as ScanTypePb } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import type { CoverageReport, JobSpec, RunnerReport } from "../engine/runner.js";
import { PHASES, type DetectionDraft, type Phase, type ScanType } from "../engine/types.js";
import { parsePortSpec } from "./ports.js";

/** Proto ⇄ engine mapping for the worker's Kafka records (enums by name, the kit's convention). */

export class BadJobError extends Error {
  override name = "BadJobError";
}

const isScanType = (t: string): t is ScanType => (SCAN_TYPES as readonly string[]).includes(t);
const isPhase = (p: string): p is Phase => (PHASES as readonly string[]).includes(p);

/** The engine's view of a ScanJob; a job that can never run (unknown phase, bad ports) throws BadJobError. */
export function jobSpecOf(job: ScanJob): JobSpec {
  if (!job.scanId || !job.orgId || !job.target) throw new BadJobError("job without scan id, org id or target");
  const scanType = enumName(ScanTypePb, job.scanType);
  if (!isScanType(scanType)) throw new BadJobError(`unknown scan type ${job.scanType}`);
  const unknown = job.phases.filter((p) => !isPhase(p));
  if (unknown.length) throw new BadJobError(`unknown phases: ${unknown.join(", ")}`);
  let ports: number[];
  try {
    ports = parsePortSpec(job.ports);
  } catch (err) {
    throw new BadJobError((err as Error).message);
  }
  return {
    scanId: job.scanId,
    orgId: job.orgId,
    target: job.target,
    scanType,
    ports,
    frameworks: [...job.frameworks],
    phases: job.phases as Phase[],
    attempt: job.attempt,
    ...(job.deadline ? { deadline: timestampDate(job.deadline) } : {}),
  };
}

/**
 * An attempt's coverage as records of the detections topic (detection.proto): one per host, so
 * a wide scan stays far below Kafka's record size limit.
 */
export function coverageRecords(c: CoverageReport, job: Pick<JobSpec, "scanId" | "orgId">): Detection[] {
  return c.hosts.map((h) =>
    create(DetectionSchema, {
      orgId: job.orgId,
      scanId: job.scanId,
      coverage: {
        attempt: c.attempt,
        outcome: c.outcome,
        startedAt: timestampFromDate(c.startedAt),
        target: h.target,
        address: h.address,
        alive: h.alive,
        hostChecks: h.hostChecks,
        ports: h.ports.map((p) => ({ port: p.port, outcome: p.outcome, checks: p.checks })),
      },
    }),
  );
}

export function detectionRecord(d: DetectionDraft, meta: { job: JobSpec; phase: Phase; detectionId: string; detectedAt: Date }): Detection {
  return create(DetectionSchema, {
    detectionId: meta.detectionId,
    orgId: meta.job.orgId,
    scanId: meta.job.scanId,
    target: d.target,
    templateId: d.templateId,
    title: d.title,
    severity: enumValue(SeverityPb, d.severity),
    confidence: enumValue(ConfidencePb, d.confidence),
    cvssScore: d.cvssScore,
    cvssVector: d.cvssVector,
    cweIds: d.cweIds,
    cveIds: d.cveIds,
    tool: d.tool,
    affectedComponent: d.affectedComponent,
    description: d.description,
    impact: d.impact,
    remediation: { summary: d.remediation.summary, steps: d.remediation.steps, codeExample: d.remediation.codeExample, references: d.remediation.references },
    evidence: { request: d.evidence.request, response: d.evidence.response },
    frameworks: (d.frameworks ?? []).map((f) => ({ name: f.name, controls: f.controls })),
    ...(d.epssScore !== undefined ? { epssScore: d.epssScore } : {}),
    kev: d.kev ?? false,
    ...(d.kevDueDate ? { kevDueDate: timestampFromDate(d.kevDueDate) } : {}),
    detectedAt: timestampFromDate(meta.detectedAt),
    phase: meta.phase,
  });
}

export function reportRecord(
  r: RunnerReport,
  meta: { job: Pick<JobSpec, "scanId" | "orgId" | "attempt">; workerId: string; reportId: string; sentAt: Date },
): ScanReport {
  const base = {
    reportId: meta.reportId,
    scanId: meta.job.scanId,
    orgId: meta.job.orgId,
    attempt: meta.job.attempt,
    workerId: meta.workerId,
    sentAt: timestampFromDate(meta.sentAt),
  };
  switch (r.kind) {
    case "phaseStarted":
      return create(ScanReportSchema, { ...base, report: { case: "phaseStarted", value: { phase: r.phase, tool: r.tool } } });
    case "phaseCompleted":
      return create(ScanReportSchema, {
        ...base,
        report: {
          case: "phaseCompleted",
          value: { phase: r.phase, progress: r.progress, phasesCompleted: r.phasesCompleted, phasesRemaining: r.phasesRemaining, findings: r.findings },
        },
      });
    case "completed":
      return create(ScanReportSchema, { ...base, report: { case: "completed", value: { findings: r.findings, coverageRecords: r.coverageRecords } } });
    case "failed":
      return create(ScanReportSchema, { ...base, report: { case: "failed", value: { reason: r.reason, phase: r.phase, retryable: r.retryable } } });
    case "heartbeat":
      return create(ScanReportSchema, { ...base, report: { case: "heartbeat", value: { phase: r.phase, currentTool: r.currentTool, progress: r.progress } } });
  }
}
