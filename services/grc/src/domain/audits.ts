import { isFrameworkId } from "@vulnscan/compliance-catalogue";
import { newId, validationError } from "@vulnscan/kit/core";
import type { Controls } from "./controls.js";
import type { AuditStore, EvidenceStore } from "./ports.js";
import { AUDIT_STATUSES, type AuditDoc, type AuditStatus } from "./types.js";
import { found } from "./view.js";

export interface NewAuditRequest {
  orgId: string;
  framework: string;
  controlIds: string[];
  title: string;
  description: string;
  requestedBy: string;
  dueDate?: Date;
}

const MAX_IDS = 100;

function statusOf(value: string, field: string): AuditStatus {
  if (!(AUDIT_STATUSES as readonly string[]).includes(value)) throw validationError(field, `${field} must be one of ${AUDIT_STATUSES.join(", ")}`);
  return value as AuditStatus;
}

/** Auditors' requests for evidence or explanations: opened (audit.request_created), listed, answered. */
export class Audits {
  constructor(private readonly deps: { audits: AuditStore; controls: Controls; evidence: EvidenceStore; now: () => Date }) {}

  async create(input: NewAuditRequest): Promise<AuditDoc> {
    if (!isFrameworkId(input.framework)) throw validationError("framework", `Unknown framework "${input.framework}"`);
    const title = input.title.trim();
    if (!title || title.length > 200) throw validationError("title", "title is required (at most 200 characters)");
    if (input.description.length > 10_000) throw validationError("description", "description is longer than 10000 characters");
    if (input.requestedBy.length > 320) throw validationError("requested_by", "requested_by is longer than 320 characters");
    if (input.controlIds.length > MAX_IDS) throw validationError("control_ids", `at most ${MAX_IDS} controls`);
    const view = await this.deps.controls.view(input.orgId);
    const controlIds = [...new Set(input.controlIds)];
    for (const id of controlIds) if (!view.get(id)) throw validationError("control_ids", `Unknown control ${id}`);
    const now = this.deps.now();
    const doc: AuditDoc = {
      _id: newId("audit", now.getTime()),
      org_id: input.orgId,
      framework: input.framework,
      control_ids: controlIds,
      title,
      description: input.description,
      status: "open",
      requested_by: input.requestedBy.trim(),
      due_date: input.dueDate ?? null,
      created_at: now,
      answer: "",
      answered_by: "",
      answered_at: null,
      evidence_ids: [],
    };
    await this.deps.audits.insert(doc, [{ type: "audit.request_created", audit: doc }]);
    return doc;
  }

  get = async (orgId: string, id: string): Promise<AuditDoc> => found(await this.deps.audits.get(orgId, id), "Audit request");

  /** Newest first, optionally of one status. */
  list = (orgId: string, status: string | undefined, page: number, perPage: number) =>
    this.deps.audits.list(orgId, status === undefined ? undefined : statusOf(status, "status"), page, perPage).then((res) => ({ ...res, page, perPage }));

  async answer(orgId: string, id: string, input: { answer: string; evidenceIds: string[]; status: string; user: string }): Promise<AuditDoc> {
    const doc = await this.get(orgId, id);
    const answer = input.answer.trim();
    if (!answer || answer.length > 10_000) throw validationError("answer", "answer is required (at most 10000 characters)");
    const status = statusOf(input.status || "closed", "status");
    if (status === "open") throw validationError("status", "an answered request is in_progress or closed");
    if (input.evidenceIds.length > MAX_IDS) throw validationError("evidence_ids", `at most ${MAX_IDS} evidence items`);
    const evidenceIds = [...new Set(input.evidenceIds)];
    for (const eid of evidenceIds) if (!(await this.deps.evidence.get(orgId, eid))) throw validationError("evidence_ids", `Unknown evidence ${eid}`);
    const set = { answer, evidence_ids: evidenceIds, status, answered_by: input.user, answered_at: this.deps.now() };
    await this.deps.audits.update(orgId, id, set);
    return { ...doc, ...set };
  }
}
