import type { ServiceImpl } from "@connectrpc/connect";
import { validationError } from "@vulnscan/kit";
import type { DiffScansRequest, ScanDiffService } from "@vulnscan/proto/vulnscan/findings/v1/scan_diff_service_pb.js";
import { DIFF_LIMIT_MAX, type DiffItem, type ScanDiffs } from "../domain/coverage.js";

const requireId = (v: string, field: string) => {
  if (!v) throw validationError(field, `${field} is required`);
  return v;
};

const itemMsg = (i: DiffItem) => ({
  findingId: i.finding._id,
  title: i.finding.title,
  severity: i.finding.severity,
  status: i.finding.status,
  target: i.finding.target,
  affectedComponent: i.finding.affected_component,
  templateId: i.finding.template_id,
  tool: i.finding.tool,
  reason: i.reason ?? "",
});

/** vulnscan.findings.v1.ScanDiffService: thin, like FindingRpcService. */
export class ScanDiffRpcService implements ServiceImpl<typeof ScanDiffService> {
  constructor(private readonly diffs: ScanDiffs) {}

  async diffScans(req: DiffScansRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const scanId = requireId(req.scanId, "scan_id");
    const againstId = requireId(req.againstScanId, "against");
    const limit = Math.min(DIFF_LIMIT_MAX, Math.max(1, req.limit || 100));
    const when = req.coverageRecords > 0 ? { attempt: req.coverageAttempt, records: req.coverageRecords } : undefined;
    const d = await this.diffs.diff(orgId, scanId, againstId, when);
    if (!d) return { ready: false };
    const bucket = (items: DiffItem[]) => ({ count: items.length, items: items.slice(0, limit).map(itemMsg) });
    return {
      new: bucket(d.new),
      fixed: bucket(d.fixed),
      regressed: bucket(d.regressed),
      unchanged: bucket(d.unchanged),
      notCovered: bucket(d.not_covered),
      coverageRecorded: d.coverage_recorded,
      ready: true,
    };
  }
}
