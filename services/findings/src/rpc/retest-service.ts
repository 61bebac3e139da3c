import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { validationError } from "@vulnscan/kit";
import type { ListRetestsRequest, RequestRetestRequest, RetestService } from "@vulnscan/proto/vulnscan/findings/v1/retest_service_pb.js";
import type { RetestDoc, Retests } from "../domain/retest.js";
import { actorOf } from "./mappers.js";

const requireId = (v: string, field: string) => {
  if (!v) throw validationError(field, `${field} is required`);
  return v;
};

export const retestMsg = (r: RetestDoc) => ({
  id: r._id,
  findingId: r.finding_id,
  status: r.status,
  verdict: r.verdict,
  reason: r.reason,
  detail: r.detail,
  templateId: r.template_id,
  tool: r.tool,
  affectedComponent: r.affected_component,
  port: r.port,
  evidence: { request: r.evidence.request, response: r.evidence.response },
  requestedBy: r.requested_by,
  requestedAt: timestampFromDate(r.requested_at),
  ...(r.completed_at ? { completedAt: timestampFromDate(r.completed_at) } : {}),
  findingStatus: r.finding_status,
});

/** vulnscan.findings.v1.RetestService: thin, like FindingRpcService. */
export class RetestRpcService implements ServiceImpl<typeof RetestService> {
  constructor(private readonly retests: Retests) {}

  async requestRetest(req: RequestRetestRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const findingId = requireId(req.findingId, "finding_id");
    const { retest, remaining } = await this.retests.request(orgId, findingId, actorOf(req.actor));
    return { retest: retestMsg(retest), remainingThisMonth: remaining };
  }

  async listRetests(req: ListRetestsRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const findingId = requireId(req.findingId, "finding_id");
    const page = Math.max(1, req.pagination?.page || 1);
    const perPage = Math.min(100, Math.max(1, req.pagination?.perPage || 20));
    const { items, total } = await this.retests.list(orgId, findingId, page, perPage);
    return { items: items.map(retestMsg), pageInfo: { total, page, perPage, pages: Math.ceil(total / perPage) } };
  }
}
