import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AcceptanceRequest, FindingsPolicySchema, SlaDays } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import type { AcceptanceInput } from "../domain/acceptance.js";
import type { FindingsPolicy } from "../domain/sla.js";
import { SEVERITIES, type Severity } from "../domain/types.js";

/** Proto ⇄ domain for the findings policy and risk acceptance (unset day counts are "no deadline"). */

export function slaDaysOf(d: SlaDays | undefined): Partial<Record<Severity, number | null>> {
  return Object.fromEntries(SEVERITIES.map((s) => [s, d?.[s] ?? null]));
}

export function policyMsg(p: FindingsPolicy): MessageInitShape<typeof FindingsPolicySchema> {
  const slaDays = Object.fromEntries(SEVERITIES.flatMap((s) => (p.sla_days[s] === null ? [] : [[s, p.sla_days[s]]])));
  return {
    slaDays,
    requireAcceptanceApproval: p.require_acceptance_approval,
    autoResolve: p.auto_resolve ?? false,
    ...(p.updated_at ? { updatedAt: timestampFromDate(p.updated_at) } : {}),
    updatedBy: p.updated_by,
    refreshState: p.refresh?.state ?? "done",
    refreshed: p.refresh?.refreshed ?? 0,
  };
}

/** A request's acceptance; undefined when absent (the domain then refuses a move to accepted). */
export function acceptanceOf(a: AcceptanceRequest | undefined): Partial<AcceptanceInput> | undefined {
  if (!a) return undefined;
  return { ...(a.expiresAt ? { expires_at: timestampDate(a.expiresAt) } : {}), justification: a.justification };
}
