import multipart from "@fastify/multipart";
import type { Client } from "@connectrpc/connect";
import type { GrcService } from "@vulnscan/proto/vulnscan/grc/v1/grc_service_pb.js";
import type { FastifyPluginAsync } from "fastify";
import { typed } from "../typed.js";
import { grcHandlers, MAX_EVIDENCE_BYTES } from "./handlers.js";
import * as schema from "./schemas.js";

const read = { permission: "read:grc" } as const;
const write = { permission: "write:grc" } as const;

/**
 * Compliance: controls (the spec's `GET /api/v1/controls` and beyond), framework scores, evidence
 * and audit requests, served by grc. Multipart parsing is registered here only, for the upload.
 */
export const grcRoutes =
  (grc: Client<typeof GrcService>): FastifyPluginAsync =>
  async (fastify) => {
    await fastify.register(multipart, { limits: { fileSize: MAX_EVIDENCE_BYTES, files: 1 } });
    const app = typed(fastify);
    const h = grcHandlers(grc);
    app.get("/api/v1/controls", { config: read, schema: schema.listControls }, h.listControls);
    app.get("/api/v1/controls/:control_id", { config: read, schema: schema.getControl }, h.getControl);
    app.patch("/api/v1/controls/:control_id", { config: write, schema: schema.updateControl }, h.updateControl);
    app.post("/api/v1/controls/:control_id/evidence", { config: write, schema: schema.uploadEvidence }, h.uploadEvidence);
    app.get("/api/v1/frameworks", { config: read, schema: schema.listFrameworks }, h.listFrameworks);
    app.get("/api/v1/evidence", { config: read, schema: schema.listEvidence }, h.listEvidence);
    app.get("/api/v1/evidence/:evidence_id", { config: read, schema: schema.getEvidence }, h.getEvidence);
    app.get("/api/v1/evidence/:evidence_id/download", { config: read, schema: schema.downloadEvidence }, h.downloadEvidence);
    app.delete("/api/v1/evidence/:evidence_id", { config: write, schema: schema.deleteEvidence }, h.deleteEvidence);
    app.post("/api/v1/audit-requests", { config: write, schema: schema.createAuditRequest }, h.createAuditRequest);
    app.get("/api/v1/audit-requests", { config: read, schema: schema.listAuditRequests }, h.listAuditRequests);
    app.get("/api/v1/audit-requests/:audit_request_id", { config: read, schema: schema.getAuditRequest }, h.getAuditRequest);
    app.post("/api/v1/audit-requests/:audit_request_id/answer", { config: write, schema: schema.answerAuditRequest }, h.answerAuditRequest);
  };
