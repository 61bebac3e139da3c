import type { Client } from "@connectrpc/connect";
import type { GrcService } from "@vulnscan/proto/vulnscan/grc/v1/grc_service_pb.js";
import type { FastifyRequest } from "fastify";
import { principalOf } from "../../auth/guard.js";
import { actorOf, dateParam, envelope } from "../../rest.js";
import type { ReplyOf, RequestOf } from "../typed.js";
import { ControlPages } from "./control-pages.js";
import * as map from "./mappers.js";
import type * as schema from "./schemas.js";
import { readUpload } from "./upload.js";

function dateField(value: string | undefined, field: string) {
  return value ? dateParam(value, field) : undefined;
}

/** The caller's organization and who acts, as every write sends them. */
function scoped(req: FastifyRequest) {
  const p = principalOf(req);
  return { orgId: p.orgId, actor: actorOf(p) };
}

const org = (req: FastifyRequest) => ({ orgId: principalOf(req).orgId });
const pageOf = (q: { page: number; per_page: number }) => ({ pagination: { page: q.page, perPage: q.per_page } });

/**
 * The GRC routes' handlers: validated request → one grc RPC → the mappers' JSON. A control
 * listing grc confirmed less than `controlPageFreshMs` ago is answered from memory (ControlPages).
 */
export function grcHandlers(grc: Client<typeof GrcService>, controlPageFreshMs = 250) {
  const controlPages = new ControlPages<ReturnType<typeof envelope<ReturnType<typeof map.controlItem>>>>(controlPageFreshMs);
  /** A write that may change the organization's listing: its pages are asked about again, even if it failed midway. */
  const changing = async <R>(req: FastifyRequest, write: Promise<R>): Promise<R> => {
    try {
      return await write;
    } finally {
      controlPages.changed(principalOf(req).orgId);
    }
  };
  return {
    async listControls(req: RequestOf<typeof schema.listControls>) {
      const { framework, status } = req.query;
      const query = { ...org(req), framework, status, page: req.query.page, perPage: req.query.per_page };
      const fresh = controlPages.fresh(query);
      if (fresh) return fresh;
      const held = controlPages.held(query);
      const askedAt = controlPages.clock();
      const res = await grc.listControls({ ...org(req), ...pageOf(req.query), framework, status, ifVersion: held?.version ?? "" });
      const body = res.notModified && held ? held.body : envelope(res.controls.map(map.controlItem), res.pageInfo);
      controlPages.keep(query, res.version, body, askedAt);
      return body;
    },

    async getControl(req: RequestOf<typeof schema.getControl>) {
      return map.controlDetail((await grc.getControl({ ...org(req), controlId: req.params.control_id })).control!);
    },

    async updateControl(req: RequestOf<typeof schema.updateControl>) {
      const { status, owner, notes } = req.body;
      const res = await changing(
        req,
        grc.updateControl({ ...scoped(req), controlId: req.params.control_id, status, owner: owner === null ? "" : owner, notes }),
      );
      return map.controlDetail(res.control!);
    },

    async listFrameworks(req: RequestOf<typeof schema.listFrameworks>) {
      return { items: (await grc.listFrameworks(org(req))).frameworks.map(map.frameworkJson) };
    },

    async uploadEvidence(req: RequestOf<typeof schema.uploadEvidence>, reply: ReplyOf<typeof schema.uploadEvidence>) {
      const { fields, file } = await readUpload(req);
      const res = await changing(
        req,
        grc.uploadEvidence(
          {
            ...scoped(req),
            controlId: req.params.control_id,
            name: file.name,
            contentType: file.contentType,
            file: file.bytes,
            title: fields.title ?? "",
            description: fields.description ?? "",
            expiresAt: dateField(fields.expires_at, "expires_at"),
            observedFrom: dateField(fields.observed_from, "observed_from"),
            observedTo: dateField(fields.observed_to, "observed_to"),
          },
          { timeoutMs: 60_000 },
        ),
      );
      return reply.code(201).send(map.evidenceJson(res.evidence!));
    },

    async listEvidence(req: RequestOf<typeof schema.listEvidence>) {
      const res = await grc.listEvidence({ ...org(req), ...pageOf(req.query), controlId: req.query.control_id });
      return envelope(res.evidence.map(map.evidenceJson), res.pageInfo);
    },

    async getEvidence(req: RequestOf<typeof schema.getEvidence>) {
      return map.evidenceJson((await grc.getEvidence({ ...org(req), evidenceId: req.params.evidence_id })).evidence!);
    },

    async downloadEvidence(req: RequestOf<typeof schema.downloadEvidence>, reply: ReplyOf<typeof schema.downloadEvidence>) {
      const res = await grc.downloadEvidence({ ...org(req), evidenceId: req.params.evidence_id }, { timeoutMs: 60_000 });
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
      await changing(req, grc.deleteEvidence({ ...scoped(req), evidenceId: req.params.evidence_id }));
      return reply.code(204).send();
    },

    async createAuditRequest(req: RequestOf<typeof schema.createAuditRequest>, reply: ReplyOf<typeof schema.createAuditRequest>) {
      const { framework, title, description = "", control_ids = [], requested_by = "", due_date } = req.body;
      const init = { framework, title, description, controlIds: control_ids, requestedBy: requested_by, dueDate: dateParam(due_date, "due_date") };
      return reply.code(201).send(map.auditJson((await grc.createAuditRequest({ ...scoped(req), ...init })).auditRequest!));
    },

    async listAuditRequests(req: RequestOf<typeof schema.listAuditRequests>) {
      const res = await grc.listAuditRequests({ ...org(req), ...pageOf(req.query), status: req.query.status });
      return envelope(res.auditRequests.map(map.auditJson), res.pageInfo);
    },

    async getAuditRequest(req: RequestOf<typeof schema.getAuditRequest>) {
      return map.auditJson((await grc.getAuditRequest({ ...org(req), auditRequestId: req.params.audit_request_id })).auditRequest!);
    },

    async answerAuditRequest(req: RequestOf<typeof schema.answerAuditRequest>) {
      const { answer, evidence_ids = [], status = "" } = req.body;
      const res = await grc.answerAuditRequest({ ...scoped(req), auditRequestId: req.params.audit_request_id, answer, evidenceIds: evidence_ids, status });
      return map.auditJson(res.auditRequest!);
    },
  };
}
