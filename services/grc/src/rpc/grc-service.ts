import type { ServiceImpl } from "@connectrpc/connect";
import { validationError } from "@vulnscan/kit";
import type {
  AnswerAuditRequestRequest,
  CreateAuditRequestRequest,
  DeleteEvidenceRequest,
  DownloadEvidenceRequest,
  GetAuditRequestRequest,
  GetControlRequest,
  GetEvidenceRequest,
  GrcService,
  ListAuditRequestsRequest,
  ListControlsRequest,
  ListEvidenceRequest,
  ListFrameworksRequest,
  UpdateControlRequest,
  UploadEvidenceRequest,
} from "@vulnscan/proto/vulnscan/grc/v1/grc_service_pb.js";
import type { GrcDomain } from "../domain/index.js";
import { auditMsg, controlMsg, dateOf, evidenceMsg, frameworkMsg, pageInfo, pageOf, userOf } from "./mappers.js";

const requireId = (v: string, field: string) => {
  if (!v) throw validationError(field, `${field} is required`);
  return v;
};

/**
 * vulnscan.grc.v1.GrcService. Each handler checks the org id is present, calls one use case and
 * maps the answer; domain errors become Connect codes in the kit's interceptor.
 */
export class GrcRpcService implements ServiceImpl<typeof GrcService> {
  constructor(private readonly domain: GrcDomain) {}

  async listControls(req: ListControlsRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const { page, perPage } = pageOf(req.pagination);
    const res = await this.domain.controls.list(orgId, { framework: req.framework, status: req.status }, page, perPage);
    return { controls: res.items.map((c) => controlMsg(orgId, c)), pageInfo: pageInfo(res.total, page, perPage) };
  }

  async getControl(req: GetControlRequest) {
    const orgId = requireId(req.orgId, "org_id");
    return { control: controlMsg(orgId, await this.domain.controls.get(orgId, req.controlId)) };
  }

  async updateControl(req: UpdateControlRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const c = await this.domain.controls.update(orgId, req.controlId, { status: req.status, owner: req.owner, notes: req.notes }, userOf(req.actor));
    return { control: controlMsg(orgId, c) };
  }

  async uploadEvidence(req: UploadEvidenceRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const doc = await this.domain.evidence.upload({
      orgId,
      controlId: req.controlId,
      name: req.name,
      title: req.title,
      description: req.description,
      contentType: req.contentType,
      file: req.file,
      expiresAt: dateOf(req.expiresAt),
      observedFrom: dateOf(req.observedFrom),
      observedTo: dateOf(req.observedTo),
      uploadedBy: userOf(req.actor),
    });
    return { evidence: evidenceMsg(doc) };
  }

  async listEvidence(req: ListEvidenceRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const { page, perPage } = pageOf(req.pagination);
    const res = await this.domain.evidence.list(orgId, req.controlId, page, perPage);
    return { evidence: res.items.map(evidenceMsg), pageInfo: pageInfo(res.total, page, perPage) };
  }

  async getEvidence(req: GetEvidenceRequest) {
    const orgId = requireId(req.orgId, "org_id");
    return { evidence: evidenceMsg(await this.domain.evidence.get(orgId, req.evidenceId)) };
  }

  async downloadEvidence(req: DownloadEvidenceRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const { doc, content } = await this.domain.evidence.download(orgId, req.evidenceId);
    return { evidence: evidenceMsg(doc), content };
  }

  async deleteEvidence(req: DeleteEvidenceRequest) {
    const orgId = requireId(req.orgId, "org_id");
    await this.domain.evidence.delete(orgId, req.evidenceId, userOf(req.actor));
    return {};
  }

  async listFrameworks(req: ListFrameworksRequest) {
    const orgId = requireId(req.orgId, "org_id");
    return { frameworks: (await this.domain.controls.frameworks(orgId)).map(frameworkMsg) };
  }

  async createAuditRequest(req: CreateAuditRequestRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const doc = await this.domain.audits.create({
      orgId,
      framework: req.framework,
      controlIds: req.controlIds,
      title: req.title,
      description: req.description,
      requestedBy: req.requestedBy || userOf(req.actor),
      dueDate: dateOf(req.dueDate),
    });
    return { auditRequest: auditMsg(doc) };
  }

  async listAuditRequests(req: ListAuditRequestsRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const { page, perPage } = pageOf(req.pagination);
    const res = await this.domain.audits.list(orgId, req.status, page, perPage);
    return { auditRequests: res.items.map(auditMsg), pageInfo: pageInfo(res.total, page, perPage) };
  }

  async getAuditRequest(req: GetAuditRequestRequest) {
    const orgId = requireId(req.orgId, "org_id");
    return { auditRequest: auditMsg(await this.domain.audits.get(orgId, req.auditRequestId)) };
  }

  async answerAuditRequest(req: AnswerAuditRequestRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const doc = await this.domain.audits.answer(orgId, req.auditRequestId, {
      answer: req.answer,
      evidenceIds: req.evidenceIds,
      status: req.status,
      user: userOf(req.actor),
    });
    return { auditRequest: auditMsg(doc) };
  }
}
