import type { Target } from "@vulnscan/proto/vulnscan/scans/v1/targets_service_pb.js";
import { iso } from "../../schemas.js";

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
