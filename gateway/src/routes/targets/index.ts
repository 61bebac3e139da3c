import type { Client } from "@connectrpc/connect";
import type { FindingService } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import type { TargetService } from "@vulnscan/proto/vulnscan/scans/v1/targets_service_pb.js";
import type { FastifyPluginAsync } from "fastify";
import { typed } from "../typed.js";
import { targetHandlers } from "./handlers.js";
import * as schema from "./schemas.js";

const read = { permission: "read:scans" } as const;
const write = { permission: "write:scans" } as const;

/** Targets an organization proves it owns (issue 29), served by scan-orchestrator; findings counts an inventory's findings. */
export const targetRoutes =
  (targets: Client<typeof TargetService>, findings: Client<typeof FindingService>): FastifyPluginAsync =>
  async (fastify) => {
    const app = typed(fastify);
    const h = targetHandlers(targets, findings);
    app.post("/api/v1/targets", { config: write, schema: schema.createTarget }, h.createTarget);
    app.get("/api/v1/targets", { config: read, schema: schema.listTargets }, h.listTargets);
    app.get("/api/v1/targets/:target_id", { config: read, schema: schema.getTarget }, h.getTarget);
    app.delete("/api/v1/targets/:target_id", { config: write, schema: schema.deleteTarget }, h.deleteTarget);
    app.post("/api/v1/targets/:target_id/verify", { config: write, schema: schema.verifyTarget }, h.verifyTarget);
  };
