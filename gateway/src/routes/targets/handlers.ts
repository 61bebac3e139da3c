import type { Client } from "@connectrpc/connect";
import type { FindingService } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import type { TargetService } from "@vulnscan/proto/vulnscan/scans/v1/targets_service_pb.js";
import { principalOf } from "../../auth/guard.js";
import { actorOf, envelope } from "../../rest.js";
import type { ReplyOf, RequestOf } from "../typed.js";
import { inventoryJson, targetJson } from "./mappers.js";
import type * as schema from "./schemas.js";

/** The targets routes' handlers: validated request → one scan-orchestrator RPC (and findings' counts for one target's inventory) → JSON. */
export function targetHandlers(targets: Client<typeof TargetService>, findings: Client<typeof FindingService>) {
  async function createTarget(req: RequestOf<typeof schema.createTarget>, reply: ReplyOf<typeof schema.createTarget>) {
    const p = principalOf(req);
    const { target } = await targets.createTarget({ orgId: p.orgId, target: req.body.target, actor: actorOf(p) });
    return reply.code(201).send(targetJson(target!));
  }

  async function listTargets(req: RequestOf<typeof schema.listTargets>) {
    const q = req.query;
    const res = await targets.listTargets({
      orgId: principalOf(req).orgId,
      pagination: { page: q.page, perPage: q.per_page },
      status: q.status,
      kind: q.kind,
    });
    return envelope(
      res.targets.map((t) => targetJson(t)),
      res.pageInfo,
    );
  }

  async function getTarget(req: RequestOf<typeof schema.getTarget>) {
    const orgId = principalOf(req).orgId;
    const { target } = await targets.getTarget({ orgId, targetId: req.params.target_id });
    // The orchestrator knows which hosts scans reported for the target; findings keeps their counts.
    const counts = await findings.getTargetCounts({ orgId, targets: target!.inventory?.hosts ?? [target!.target] });
    return { ...targetJson(target!, true), inventory: inventoryJson(target!.inventory, counts) };
  }

  async function deleteTarget(req: RequestOf<typeof schema.deleteTarget>) {
    const { target_id } = req.params;
    await targets.deleteTarget({ orgId: principalOf(req).orgId, targetId: target_id });
    return { id: target_id, status: "deleted", message: "Target deleted" };
  }

  async function verifyTarget(req: RequestOf<typeof schema.verifyTarget>) {
    const p = principalOf(req);
    const { target } = await targets.verifyTarget({ orgId: p.orgId, targetId: req.params.target_id, method: req.body?.method ?? "", actor: actorOf(p) });
    return targetJson(target!, true);
  }

  return { createTarget, listTargets, getTarget, deleteTarget, verifyTarget };
}
