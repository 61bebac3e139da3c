import type { GetTargetCountsResponse } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import type { Target, TargetInventory } from "@vulnscan/proto/vulnscan/scans/v1/targets_service_pb.js";
import { iso } from "../../schemas.js";

/** The inventory: the orchestrator's summary and findings' counts of its hosts. */
export function inventoryJson(inv: TargetInventory | undefined, counts: GetTargetCountsResponse) {
  const o = counts.open;
  const open = { critical: o?.critical ?? 0, high: o?.high ?? 0, medium: o?.medium ?? 0, low: o?.low ?? 0, info: o?.info ?? 0 };
  const last = inv?.lastScan;
  return {
    last_scan: last ? { scan_id: last.scanId, status: last.status, ended_at: iso(last.endedAt) } : null,
    open_findings: { ...open, total: Object.values(open).reduce((a, b) => a + b, 0) },
    sla_breaches: counts.slaBreached,
    ports: (inv?.ports ?? []).map((p) => ({
      host: p.host,
      address: p.address,
      port: p.port,
      transport: p.transport,
      service: p.service,
      product: p.product,
      first_seen_at: iso(p.firstSeenAt),
      last_seen_at: iso(p.lastSeenAt),
      last_scan_id: p.lastScanId,
    })),
  };
}

/** A target as the REST API shows it: unset times and empty optional strings are omitted. */
export function targetJson(t: Target, withAttempts = false) {
  const v = t.verification;
  return {
    id: t.id,
    target: t.target,
    kind: t.kind,
    verification: {
      status: v?.status ?? "pending",
      token: v?.token ?? "",
      challenges: (v?.challenges ?? []).map((c) => ({ method: c.method, location: c.location, value: c.value, instructions: c.instructions })),
      ...(v?.method ? { method: v.method } : {}),
      ...(v?.verifiedAt ? { verified_at: iso(v.verifiedAt) } : {}),
      ...(v?.nextCheckAt ? { next_check_at: iso(v.nextCheckAt) } : {}),
      ...(v?.expiredAt ? { expired_at: iso(v.expiredAt) } : {}),
      last_error: v?.lastError ?? "",
      include_subdomains: v?.includeSubdomains ?? false,
      proven_addresses: v?.provenAddresses ?? [],
    },
    created_at: iso(t.createdAt),
    ...(withAttempts
      ? {
          attempts: t.attempts.map((a) => ({
            method: a.method,
            at: iso(a.at),
            ...(a.actor?.displayName ? { by: a.actor.displayName } : {}),
            source: a.source,
            ok: a.ok,
            answer: a.answer,
            ...(a.error ? { error: a.error } : {}),
          })),
        }
      : {}),
  };
}
