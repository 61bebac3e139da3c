import multipart from "@fastify/multipart";
import type { Client } from "@connectrpc/connect";
import type { GrcService } from "@vulnscan/proto/vulnscan/grc/v1/grc_service_pb.js";
import type { FastifyPluginAsync, FastifySchema } from "fastify";
import { liftErrorCodes } from "../../plugins/openapi-document.js";
import { typed } from "../typed.js";
import { grcHandlers } from "./handlers.js";
import { MAX_EVIDENCE_BYTES } from "./upload.js";
import * as schema from "./schemas.js";

const read = { permission: "read:grc" } as const;
const write = { permission: "write:grc" } as const;

/**
 * Compliance: controls (the spec's `GET /api/v1/controls` and beyond), framework scores, evidence
 * and audit requests, served by grc. Multipart parsing is registered here only, for the upload.
 */
export const grcRoutes =
  (grc: Client<typeof GrcService>, controlPageFreshMs?: number): FastifyPluginAsync =>
  async (fastify) => {
    await fastify.register(multipart, { limits: { fileSize: MAX_EVIDENCE_BYTES, files: 1 } });
    const app = typed(fastify);
    const h = grcHandlers(grc, controlPageFreshMs);
    const reading = <S>(s: S) => ({ config: read, schema: s });
    const writing = <S>(s: S) => ({ config: write, schema: s });
    evidenceRoutes(app, h);
    // Controls (the spec's listing first) and framework scores.
    app.get("/api/v1/controls", reading(schema.listControls), h.listControls);
    app.get("/api/v1/controls/:control_id", reading(schema.getControl), h.getControl);
    app.patch("/api/v1/controls/:control_id", writing(schema.updateControl), h.updateControl);
    app.get("/api/v1/frameworks", reading(schema.listFrameworks), h.listFrameworks);
    // Audit requests.
    app.post("/api/v1/audit-requests", writing(schema.createAuditRequest), h.createAuditRequest);
    app.get("/api/v1/audit-requests", reading(schema.listAuditRequests), h.listAuditRequests);
    app.get("/api/v1/audit-requests/:audit_request_id", reading(schema.getAuditRequest), h.getAuditRequest);
    app.post("/api/v1/audit-requests/:audit_request_id/answer", writing(schema.answerAuditRequest), h.answerAuditRequest);
  };

/** Evidence files: upload on a control, then by evidence id. */
function evidenceRoutes(app: ReturnType<typeof typed>, h: ReturnType<typeof grcHandlers>) {
  const readBy = <S>(s: S) => ({ config: read, schema: s });
  // The multipart body is shown in the document only (uploadEvidenceForm): the handler streams the
  // parts. A route's own transform replaces the global one, so it states the permission and error codes too.
  const documented = {
    swaggerTransform: ({ schema: s, url }: { schema: FastifySchema; url: string }) => ({
      schema: liftErrorCodes({ ...s, body: schema.uploadEvidenceForm, "x-permission": write.permission }) as FastifySchema,
      url,
    }),
  };
  app.post("/api/v1/controls/:control_id/evidence", { config: { ...write, ...documented }, schema: schema.uploadEvidence }, h.uploadEvidence);
  app.get("/api/v1/evidence", readBy(schema.listEvidence), h.listEvidence);
  app.get("/api/v1/evidence/:evidence_id", readBy(schema.getEvidence), h.getEvidence);
  app.get("/api/v1/evidence/:evidence_id/download", readBy(schema.downloadEvidence), h.downloadEvidence);
  app.delete("/api/v1/evidence/:evidence_id", { config: write, schema: schema.deleteEvidence }, h.deleteEvidence);
}
