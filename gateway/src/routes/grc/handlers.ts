import type { MultipartFile } from "@fastify/multipart";
import type { Client } from "@connectrpc/connect";
import type { GrcService } from "@vulnscan/proto/vulnscan/grc/v1/grc_service_pb.js";
import type { FastifyRequest } from "fastify";
import { principalOf } from "../../auth/guard.js";
import { HttpError } from "../../errors.js";
import { actorOf, envelope, tsOf } from "../../rest.js";
import type { ReplyOf, RequestOf } from "../typed.js";
import * as map from "./mappers.js";
import type * as schema from "./schemas.js";

/** Largest evidence file (grc refuses larger ones too). */
export const MAX_EVIDENCE_BYTES = 10 * 1024 * 1024;
const TEXT_FIELDS = ["title", "description", "expires_at", "observed_from", "observed_to"] as const;
type TextField = (typeof TEXT_FIELDS)[number];

const invalid = (field: string, detail: string) => new HttpError(422, "VALIDATION_ERROR", detail, field);

function dateField(value: string | undefined, field: string) {
  if (value === undefined || value === "") return undefined;
  if (Number.isNaN(Date.parse(value)) || !/^\d{4}-\d{2}-\d{2}/.test(value)) throw invalid(field, `${field} must be an ISO 8601 date-time`);
  return tsOf(value);
}

/** The multipart upload: one `file` part and the text fields, the file capped at MAX_EVIDENCE_BYTES. */
async function readUpload(req: FastifyRequest) {
  if (!req.isMultipart()) throw new HttpError(400, "BAD_REQUEST", "Send the evidence as multipart/form-data with a `file` part");
  const fields: Partial<Record<TextField, string>> = {};
  let file: { name: string; contentType: string; bytes: Buffer } | undefined;
  for await (const part of req.parts({ limits: { fileSize: MAX_EVIDENCE_BYTES, files: 1, fields: 10, fieldSize: 20_000 } })) {
    if (part.type === "file") {
      if (part.fieldname !== "file") throw invalid(part.fieldname, "the file part must be named `file`");
      file = { name: part.filename, contentType: part.mimetype, bytes: await fileBytes(part) };
    } else if ((TEXT_FIELDS as readonly string[]).includes(part.fieldname)) fields[part.fieldname as TextField] = String(part.value);
    else throw invalid(part.fieldname, `unknown field ${part.fieldname}`);
  }
  if (!file) throw invalid("file", "a `file` part is required");
  return { fields, file };
}

async function fileBytes(part: MultipartFile): Promise<Buffer> {
  try {
    return await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw invalid("file", `file is larger than ${MAX_EVIDENCE_BYTES} bytes`);
    throw err;
  }
}

/** The GRC routes' handlers: validated request → one grc RPC → the mappers' JSON. */
export function grcHandlers(grc: Client<typeof GrcService>) {
  return {
    async listControls(req: RequestOf<typeof schema.listControls>) {
      const q = req.query;
      const res = await grc.listControls({
        orgId: principalOf(req).orgId,
        pagination: { page: q.page, perPage: q.per_page },
        framework: q.framework,
        status: q.status,
      });
      return envelope(res.controls.map(map.controlItem), res.pageInfo);
    },

    async getControl(req: RequestOf<typeof schema.getControl>) {
      const res = await grc.getControl({ orgId: principalOf(req).orgId, controlId: req.params.control_id });
      return map.controlDetail(res.control!);
    },

    async updateControl(req: RequestOf<typeof schema.updateControl>) {
      const p = principalOf(req);
      const b = req.body;
      const res = await grc.updateControl({
        orgId: p.orgId,
        controlId: req.params.control_id,
        status: b.status,
        owner: b.owner === null ? "" : b.owner,
        notes: b.notes,
        actor: actorOf(p),
      });
      return map.controlDetail(res.control!);
    },

    async listFrameworks(req: RequestOf<typeof schema.listFrameworks>) {
      const res = await grc.listFrameworks({ orgId: principalOf(req).orgId });
      return { items: res.frameworks.map(map.frameworkJson) };
    },

    async uploadEvidence(req: RequestOf<typeof schema.uploadEvidence>, reply: ReplyOf<typeof schema.uploadEvidence>) {
      const p = principalOf(req);
      const { fields, file } = await readUpload(req);
      const res = await grc.uploadEvidence(
        {
          orgId: p.orgId,
          controlId: req.params.control_id,
          name: file.name,
          contentType: file.contentType,
          file: file.bytes,
          title: fields.title ?? "",
          description: fields.description ?? "",
          expiresAt: dateField(fields.expires_at, "expires_at"),
          observedFrom: dateField(fields.observed_from, "observed_from"),
          observedTo: dateField(fields.observed_to, "observed_to"),
          actor: actorOf(p),
        },
        { timeoutMs: 60_000 },
      );
      return reply.code(201).send(map.evidenceJson(res.evidence!));
    },

    async listEvidence(req: RequestOf<typeof schema.listEvidence>) {
      const q = req.query;
      const res = await grc.listEvidence({ orgId: principalOf(req).orgId, pagination: { page: q.page, perPage: q.per_page }, controlId: q.control_id });
      return envelope(res.evidence.map(map.evidenceJson), res.pageInfo);
    },

    async getEvidence(req: RequestOf<typeof schema.getEvidence>) {
      const res = await grc.getEvidence({ orgId: principalOf(req).orgId, evidenceId: req.params.evidence_id });
      return map.evidenceJson(res.evidence!);
    },

    async downloadEvidence(req: RequestOf<typeof schema.downloadEvidence>, reply: ReplyOf<typeof schema.downloadEvidence>) {
      const res = await grc.downloadEvidence({ orgId: principalOf(req).orgId, evidenceId: req.params.evidence_id }, { timeoutMs: 60_000 });
      const e = res.evidence!;
      // The declared type is the uploader's claim: served as a download, never rendered inline.
      return reply
        .header("content-type", e.contentType || "application/octet-stream")
        .header("x-content-type-options", "nosniff")
        .header("content-disposition", `attachment; filename="${e.name.replace(/[^A-Za-z0-9._-]/g, "_")}"`)
        .header("x-evidence-sha256", e.sha256)
        .send(Buffer.from(res.content));
    },

    async deleteEvidence(req: RequestOf<typeof schema.deleteEvidence>, reply: ReplyOf<typeof schema.deleteEvidence>) {
      const p = principalOf(req);
      await grc.deleteEvidence({ orgId: p.orgId, evidenceId: req.params.evidence_id, actor: actorOf(p) });
      return reply.code(204).send();
    },

    async createAuditRequest(req: RequestOf<typeof schema.createAuditRequest>, reply: ReplyOf<typeof schema.createAuditRequest>) {
      const p = principalOf(req);
      const b = req.body;
      const res = await grc.createAuditRequest({
        orgId: p.orgId,
        framework: b.framework,
        controlIds: b.control_ids ?? [],
        title: b.title,
        description: b.description ?? "",
        requestedBy: b.requested_by ?? "",
        dueDate: tsOf(b.due_date),
        actor: actorOf(p),
      });
      return reply.code(201).send(map.auditJson(res.auditRequest!));
    },

    async listAuditRequests(req: RequestOf<typeof schema.listAuditRequests>) {
      const q = req.query;
      const res = await grc.listAuditRequests({ orgId: principalOf(req).orgId, pagination: { page: q.page, perPage: q.per_page }, status: q.status });
      return envelope(res.auditRequests.map(map.auditJson), res.pageInfo);
    },

    async getAuditRequest(req: RequestOf<typeof schema.getAuditRequest>) {
      const res = await grc.getAuditRequest({ orgId: principalOf(req).orgId, auditRequestId: req.params.audit_request_id });
      return map.auditJson(res.auditRequest!);
    },

    async answerAuditRequest(req: RequestOf<typeof schema.answerAuditRequest>) {
      const p = principalOf(req);
      const b = req.body;
      const res = await grc.answerAuditRequest({
        orgId: p.orgId,
        auditRequestId: req.params.audit_request_id,
        answer: b.answer,
        evidenceIds: b.evidence_ids ?? [],
        status: b.status ?? "",
        actor: actorOf(p),
      });
      return map.auditJson(res.auditRequest!);
    },
  };
}
