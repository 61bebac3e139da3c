import type { Client } from "@connectrpc/connect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { FindingService, FindingsPolicy } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { principalOf } from "../../auth/guard.js";
import { actorOf } from "../../rest.js";
import type { RequestOf } from "../typed.js";
import * as map from "./mappers.js";
import type * as schema from "./policy-schemas.js";

const SEVERITY_KEYS = ["critical", "high", "medium", "low", "info"] as const;

/** A policy as JSON: every severity present, null for "no deadline". */
function policyJson(p: FindingsPolicy | undefined) {
  const days = p?.slaDays;
  return {
    sla_days: Object.fromEntries(SEVERITY_KEYS.map((s) => [s, days?.[s] ?? null])) as Record<(typeof SEVERITY_KEYS)[number], number | null>,
    require_acceptance_approval: p?.requireAcceptanceApproval ?? false,
    auto_resolve: p?.autoResolve ?? false,
    updated_at: p?.updatedAt ? timestampDate(p.updatedAt).toISOString() : null,
    updated_by: p?.updatedBy ?? "",
    refresh_state: (p?.refreshState || "done") as "running" | "done",
    refreshed: p?.refreshed ?? 0,
  };
}

/** The findings policy routes and the acceptance decision: one findings RPC each. */
export function policyHandlers(findings: Client<typeof FindingService>) {
  async function getPolicy(req: RequestOf<typeof schema.getPolicy>) {
    const res = await findings.getFindingsPolicy({ orgId: principalOf(req).orgId });
    return policyJson(res.policy);
  }

  async function putPolicy(req: RequestOf<typeof schema.putPolicy>) {
    const p = principalOf(req);
    const d = req.body.sla_days;
    // null (no deadline) is an unset optional on the wire.
    const slaDays = Object.fromEntries(SEVERITY_KEYS.flatMap((s) => (d[s] === null ? [] : [[s, d[s]]])));
    const res = await findings.updateFindingsPolicy({
      orgId: p.orgId,
      slaDays,
      requireAcceptanceApproval: req.body.require_acceptance_approval,
      ...(req.body.auto_resolve !== undefined ? { autoResolve: req.body.auto_resolve } : {}),
      actor: actorOf(p),
    });
    return policyJson(res.policy);
  }

  async function decideAcceptance(req: RequestOf<typeof schema.decideAcceptance>) {
    const p = principalOf(req);
    const res = await findings.decideAcceptance({
      orgId: p.orgId,
      findingId: req.params.finding_id,
      approve: req.body.decision === "approve",
      note: req.body.note ?? "",
      actor: actorOf(p),
    });
    return map.detail(res.finding!);
  }

  return { getPolicy, putPolicy, decideAcceptance };
}
