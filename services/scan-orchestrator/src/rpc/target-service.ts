import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import { validationError } from "@vulnscan/kit/errors";
import { TargetSchema, TargetService } from "@vulnscan/proto/vulnscan/scans/v1/targets_service_pb.js";
import type { Inventory, TargetInventory } from "../domain/inventory.js";
import { challengesOf, type TargetUseCases } from "../domain/targets.js";
import {
  TARGET_KINDS,
  VERIFICATION_STATUSES,
  type AttemptRecord,
  type TargetKind,
  type TargetRecord,
  type VerificationStatus,
} from "../domain/targets-types.js";
import type { ActorRecord } from "../domain/types.js";
import { actorFrom, pageFrom, pageInfo } from "./mappers.js";

/* vulnscan.scans.v1.TargetService: map, delegate, map back. */

const orgOf = (req: { orgId: string }) => {
  if (!req.orgId) throw validationError("org_id", "org_id is required");
  return req.orgId;
};

const ts = (d: Date | undefined) => (d ? timestampFromDate(d) : undefined);
const actorTo = (a: ActorRecord | undefined) => (a ? { userId: a.user_id, apiKeyId: a.api_key_id, displayName: a.display_name } : undefined);

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], field: string): T | undefined {
  if (value === undefined || value === "") return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw validationError(field, `${field} must be one of ${allowed.join(", ")}`);
  return value as T;
}

function inventoryTo(inv: Inventory) {
  return {
    lastScan: inv.last_scan ? { scanId: inv.last_scan.scan_id, status: inv.last_scan.status, endedAt: ts(inv.last_scan.ended_at) } : undefined,
    ports: inv.ports.map((p) => ({
      host: p.host ?? p.address,
      address: p.address,
      port: p.port,
      transport: p.transport ?? "",
      service: p.service ?? "",
      product: p.product ?? "",
      firstSeenAt: ts(p.first_seen_at),
      lastSeenAt: ts(p.last_seen_at),
      lastScanId: p.last_scan_id ?? "",
    })),
    hosts: inv.hosts,
  };
}

export function targetTo(t: TargetRecord, attempts: AttemptRecord[] = [], inventory?: Inventory) {
  return create(TargetSchema, {
    id: t._id,
    orgId: t.org_id,
    target: t.target,
    kind: t.kind,
    createdAt: ts(t.created_at),
    createdBy: actorTo(t.created_by),
    verification: {
      status: t.status,
      // The token and what to publish stay visible after verification too: re-checks need them published.
      token: t.token,
      challenges: challengesOf(t),
      method: t.method ?? "",
      verifiedAt: ts(t.verified_at),
      nextCheckAt: ts(t.next_check_at),
      expiredAt: ts(t.expired_at),
      lastError: t.last_error,
      includeSubdomains: t.include_subdomains,
      provenAddresses: t.proven_addresses,
    },
    attempts: attempts.map((a) => ({
      method: a.method,
      at: ts(a.at),
      actor: actorTo(a.actor),
      source: a.source,
      ok: a.ok,
      answer: a.answer,
      error: a.error,
    })),
    inventory: inventory ? inventoryTo(inventory) : undefined,
  });
}

export function targetServiceImpl(targets: TargetUseCases, inventory: TargetInventory): ServiceImpl<typeof TargetService> {
  return {
    async createTarget(req) {
      return { target: targetTo(await targets.create(orgOf(req), req.target, actorFrom(req.actor))) };
    },
    async listTargets(req) {
      const page = pageFrom(req.pagination);
      const filter = {
        status: oneOf<VerificationStatus>(req.status, VERIFICATION_STATUSES, "status"),
        kind: oneOf<TargetKind>(req.kind, TARGET_KINDS, "kind"),
      };
      const result = await targets.list(orgOf(req), filter, page);
      return { targets: result.items.map((t) => targetTo(t)), pageInfo: pageInfo(page, result.total) };
    },
    async getTarget(req) {
      const t = await targets.get(orgOf(req), req.targetId);
      const [attempts, inv] = await Promise.all([targets.attempts(t.org_id, t._id), inventory.of(t)]);
      return { target: targetTo(t, attempts, inv) };
    },
    async deleteTarget(req) {
      await targets.delete(orgOf(req), req.targetId);
      await inventory.forget(orgOf(req), req.targetId);
      return {};
    },
    async verifyTarget(req) {
      const t = await targets.verify(orgOf(req), req.targetId, req.method, actorFrom(req.actor));
      return { target: targetTo(t, await targets.attempts(t.org_id, t._id)) };
    },
    async attestTarget(req) {
      const t = await targets.attest(orgOf(req), req.targetId, req.reason, req.operator);
      return { target: targetTo(t, await targets.attempts(t.org_id, t._id)) };
    },
  };
}

export const targetServiceNames = [TargetService.typeName];

export const targetRoutes = (impl: ServiceImpl<typeof TargetService>) => (router: ConnectRouter) => {
  router.service(TargetService, impl);
};
