import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import type { Retest, RetestService } from "@vulnscan/proto/vulnscan/findings/v1/retest_service_pb.js";
import { principalOf } from "../../auth/guard.js";
import { actorOf, envelope } from "../../rest.js";
import type { ReplyOf, RequestOf } from "../typed.js";
import type * as schema from "./retest-schemas.js";

const isoOrNull = (t: Retest["requestedAt"]) => (t ? timestampDate(t).toISOString() : null);

export function retestJson(r: Retest) {
  return {
    id: r.id,
    finding_id: r.findingId,
    status: r.status,
    verdict: r.verdict || null,
    reason: r.reason || null,
    detail: r.detail,
    check: { template_id: r.templateId, tool: r.tool, affected_component: r.affectedComponent, port: r.port },
    evidence: { request: r.evidence?.request ?? "", response: r.evidence?.response ?? "" },
    requested_by: r.requestedBy,
    requested_at: isoOrNull(r.requestedAt) ?? "",
    completed_at: isoOrNull(r.completedAt),
    finding_status: r.findingStatus || null,
  };
}

/** Retest routes: one findings RPC each (RetestService). */
export function retestHandlers(retests: Client<typeof RetestService>) {
  async function requestRetest(req: RequestOf<typeof schema.requestRetest>, reply: ReplyOf<typeof schema.requestRetest>) {
    const p = principalOf(req);
    const res = await retests.requestRetest({ orgId: p.orgId, findingId: req.params.finding_id, actor: actorOf(p) });
    return reply.code(202).send({ ...retestJson(res.retest!), remaining_this_month: res.remainingThisMonth < 0 ? null : res.remainingThisMonth });
  }

  async function listRetests(req: RequestOf<typeof schema.listRetests>) {
    const res = await retests.listRetests({
      orgId: principalOf(req).orgId,
      findingId: req.params.finding_id,
      pagination: { page: req.query.page, perPage: req.query.per_page },
    });
    return envelope(res.items.map(retestJson), res.pageInfo);
  }

  return { requestRetest, listRetests };
}
