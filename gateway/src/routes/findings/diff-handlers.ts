import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { enumName } from "@vulnscan/kit";
import type { DiffBucket, ScanDiffService } from "@vulnscan/proto/vulnscan/findings/v1/scan_diff_service_pb.js";
import { ScanStatus, type Scan, type ScanService } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { principalOf } from "../../auth/guard.js";
import { HttpError } from "../../errors.js";
import type { RequestOf } from "../typed.js";
import type * as schema from "./diff-schemas.js";

/** Scans read per page while looking for the previous completed one (newest first). */
const PREVIOUS_PAGE = 50;
const PREVIOUS_PAGES = 4;

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

const scanRef = (s: Scan) => ({
  id: s.id,
  target: s.target,
  status: enumName(ScanStatus, s.status),
  created_at: s.createdAt ? timestampDate(s.createdAt).toISOString() : "",
});

const bucketJson = (b: DiffBucket | undefined) => ({
  count: b?.count ?? 0,
  items: (b?.items ?? []).map((i) => ({
    finding_id: i.findingId,
    title: i.title,
    severity: i.severity,
    status: i.status,
    target: i.target,
    affected_component: i.affectedComponent,
    template_id: i.templateId,
    tool: i.tool,
    reason: i.reason || null,
  })),
});

/**
 * GET /api/v1/scans/{scan_id}/diff: the two scans from scan-orchestrator (existence in the
 * caller's organization, the shared target, the default `against`), the comparison from findings.
 */
export function diffHandlers(scans: Pick<Client<typeof ScanService>, "getScan" | "listScans">, diffs: Client<typeof ScanDiffService>) {
  /** The latest completed scan of the target created before `scan` (bounded: a few pages of its history). */
  async function previousCompleted(orgId: string, scan: Scan): Promise<Scan | undefined> {
    let cursor = "";
    for (let i = 0; i < PREVIOUS_PAGES; i++) {
      const res = await scans.listScans({ orgId, target: scan.target, toDate: scan.createdAt, pagination: { page: 1, perPage: PREVIOUS_PAGE }, cursor });
      const found = res.scans.find((s) => s.id !== scan.id && enumName(ScanStatus, s.status) === "completed");
      if (found) return found;
      if (!res.nextCursor) return undefined;
      cursor = res.nextCursor;
    }
    return undefined;
  }

  async function scanDiff(req: RequestOf<typeof schema.scanDiff>) {
    const orgId = principalOf(req).orgId;
    const { scan_id } = req.params;
    const { against, limit } = req.query;
    if (against === scan_id) throw new HttpError(422, "VALIDATION_ERROR", "against must name another scan", "against");
    const scan = (await scans.getScan({ orgId, scanId: scan_id })).scan!;
    if (!TERMINAL.has(enumName(ScanStatus, scan.status)))
      throw new HttpError(400, "INVALID_STATE", "Only a finished scan (completed, failed or cancelled) can be compared");
    let other: Scan | undefined;
    if (against) {
      other = (await scans.getScan({ orgId, scanId: against })).scan!;
      if (other.target !== scan.target) throw new HttpError(422, "VALIDATION_ERROR", "against must be a scan of the same target", "against");
      if (!TERMINAL.has(enumName(ScanStatus, other.status)))
        throw new HttpError(400, "INVALID_STATE", "against must be a finished scan (completed, failed or cancelled)", "against");
    } else {
      other = await previousCompleted(orgId, scan);
      if (!other) throw new HttpError(400, "INVALID_STATE", "No earlier completed scan of this target to compare with; name one with against", "against");
    }
    const d = await diffs.diffScans({ orgId, scanId: scan.id, againstScanId: other.id, limit: limit ?? 100 });
    const buckets = {
      new: bucketJson(d.new),
      fixed: bucketJson(d.fixed),
      regressed: bucketJson(d.regressed),
      unchanged: bucketJson(d.unchanged),
      not_covered: bucketJson(d.notCovered),
    };
    return {
      scan: scanRef(scan),
      against: scanRef(other),
      coverage_recorded: d.coverageRecorded,
      counts: Object.fromEntries(Object.entries(buckets).map(([k, b]) => [k, b.count])) as Record<keyof typeof buckets, number>,
      ...buckets,
    };
  }

  return { scanDiff };
}
