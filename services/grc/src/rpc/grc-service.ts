import type { ServiceImpl } from "@connectrpc/connect";
import { validationError } from "@vulnscan/kit";
import type { Pagination } from "@vulnscan/proto/vulnscan/common/v1/pagination_pb.js";
import type * as pb from "@vulnscan/proto/vulnscan/grc/v1/grc_service_pb.js";
import type { GrcDomain } from "../domain/index.js";
import { auditMsg, controlListMsg, controlMsg, dateOf, evidenceMsg, frameworkMsg, pageInfo, pageOf, userOf } from "./mappers.js";

/** One page of a listing, mapped, with the page info of common/v1. */
async function paged<T, M>(p: Pagination | undefined, load: (page: number, perPage: number) => Promise<{ items: T[]; total: number }>, map: (t: T) => M) {
  const { page, perPage } = pageOf(p);
  const res = await load(page, perPage);
  return { items: res.items.map(map), pageInfo: pageInfo(res.total, page, perPage) };
}

const requireId = (v: string, field: string) => {
  if (!v) throw validationError(field, `${field} is required`);
  return v;
};

/**
 * vulnscan.grc.v1.GrcService. Each handler checks the org id is present, calls one use case and
 * maps the answer; domain errors become Connect codes in the kit's interceptor.
 */
export class GrcRpcService implements ServiceImpl<typeof pb.GrcService> {
  constructor(private readonly domain: GrcDomain) {}

  async listControls(req: pb.ListControlsRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const { page, perPage } = pageOf(req.pagination);
    const res = await this.domain.controls.list(orgId, { framework: req.framework, status: req.status }, page, perPage, req.ifVersion || undefined);
    if (res.notModified) return { version: res.version, notModified: true };
    return { controls: res.items.map(controlListMsg), pageInfo: pageInfo(res.total, page, perPage), version: res.version };
  }

  async getControl(req: pb.GetControlRequest) {
    const orgId = requireId(req.orgId, "org_id");
    return { control: controlMsg(orgId, await this.domain.controls.get(orgId, req.controlId)) };
  }

  async updateControl(req: pb.UpdateControlRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const c = await this.domain.controls.update(orgId, req.controlId, { status: req.status, owner: req.owner, notes: req.notes }, userOf(req.actor));
    return { control: controlMsg(orgId, c) };
  }

  async uploadEvidence(req: pb.UploadEvidenceRequest) {
    const { controlId, name, title, description, contentType, file } = req;
    const dates = { expiresAt: dateOf(req.expiresAt), observedFrom: dateOf(req.observedFrom), observedTo: dateOf(req.observedTo) };
    const input = { orgId: requireId(req.orgId, "org_id"), controlId, name, title, description, contentType, file, ...dates };
    return { evidence: evidenceMsg(await this.domain.evidence.upload({ ...input, uploadedBy: userOf(req.actor) })) };
  }

  async listEvidence(req: pb.ListEvidenceRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const { items, pageInfo } = await paged(req.pagination, (page, perPage) => this.domain.evidence.list(orgId, req.controlId, page, perPage), evidenceMsg);
    return { evidence: items, pageInfo };
  }

  async getEvidence(req: pb.GetEvidenceRequest) {
    const orgId = requireId(req.orgId, "org_id");
    return { evidence: evidenceMsg(await this.domain.evidence.get(orgId, req.evidenceId)) };
  }

  async downloadEvidence(req: pb.DownloadEvidenceRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const { doc, content } = await this.domain.evidence.download(orgId, req.evidenceId);
    return { evidence: evidenceMsg(doc), content };
  }

  async deleteEvidence(req: pb.DeleteEvidenceRequest) {
    const orgId = requireId(req.orgId, "org_id");
    await this.domain.evidence.delete(orgId, req.evidenceId, userOf(req.actor));
    return {};
  }

  async listFrameworks(req: pb.ListFrameworksRequest) {
    const orgId = requireId(req.orgId, "org_id");
    return { frameworks: (await this.domain.controls.frameworks(orgId)).map(frameworkMsg) };
  }

  async createAuditRequest(req: pb.CreateAuditRequestRequest) {
    const { framework, controlIds, title, description } = req;
    const orgId = requireId(req.orgId, "org_id");
    const requester = { requestedBy: req.requestedBy || userOf(req.actor), dueDate: dateOf(req.dueDate) };
    return { auditRequest: auditMsg(await this.domain.audits.create({ orgId, framework, controlIds, title, description, ...requester })) };
  }

  async getAuditRequest(req: pb.GetAuditRequestRequest) {
    const orgId = requireId(req.orgId, "org_id");
    return { auditRequest: auditMsg(await this.domain.audits.get(orgId, req.auditRequestId)) };
  }

  async listAuditRequests(req: pb.ListAuditRequestsRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const list = (page: number, perPage: number) => this.domain.audits.list(orgId, req.status, page, perPage);
    const { items: auditRequests, pageInfo } = await paged(req.pagination, list, auditMsg);
    return { auditRequests, pageInfo };
  }

  async answerAuditRequest(req: pb.AnswerAuditRequestRequest) {
    const { answer, evidenceIds, status } = req;
    const doc = await this.domain.audits.answer(requireId(req.orgId, "org_id"), req.auditRequestId, { answer, evidenceIds, status, user: userOf(req.actor) });
    return { auditRequest: auditMsg(doc) };
  }
}
