import { newId, notFound, validationError, type Logger } from "@vulnscan/kit/core";
import { applyAcceptance, checkAcceptance, decideAcceptance, endAcceptance, type AcceptanceInput } from "./acceptance.js";
import { addComment, applyUpdate, COMMENT_MAX_CHARS, type Change, type FindingUpdate } from "./changes.js";
import type { Clock, FindingRepository } from "./ports.js";
import type { PolicyStore } from "./sla-upkeep.js";
import { actorName, type Actor, type CommentDoc, type FindingDoc, type Status } from "./types.js";

export const BULK_MAX = 1000;

/** Reading one finding and changing it: triage fields, comments, bulk status changes. */
export class Triage {
  constructor(private readonly deps: { findings: FindingRepository; logger: Logger; now: Clock; policies: PolicyStore }) {}

  async get(orgId: string, id: string): Promise<FindingDoc> {
    const f = await this.deps.findings.get(orgId, id);
    if (!f) throw notFound("Finding");
    return f;
  }

  /** One finding changed as `decide` says; NOT_FOUND for an id the organization does not have. */
  private async changeOne(orgId: string, id: string, decide: (f: FindingDoc) => Change | null): Promise<FindingDoc> {
    const res = (await this.deps.findings.change(orgId, [id], decide)).get(id);
    if (res instanceof Error) throw res;
    if (!res) throw notFound("Finding");
    return res;
  }

  /** `acceptance`: required with status accepted, refused without it (domain/acceptance.ts). */
  async update(orgId: string, id: string, u: FindingUpdate, actor: Actor | undefined, acceptance?: Partial<AcceptanceInput>): Promise<FindingDoc> {
    if (u.notes !== undefined && u.notes.length > COMMENT_MAX_CHARS) throw validationError("notes", `notes must be at most ${COMMENT_MAX_CHARS} characters`);
    if (u.assignee !== undefined && u.assignee.length > 320) throw validationError("assignee", "assignee must be at most 320 characters");
    return this.changeOne(orgId, id, await this.decider(orgId, u, actor, acceptance, "acceptance"));
  }

  /** How a person's update changes one finding: the acceptance rules when it moves to accepted, else plain triage (ending any acceptance). */
  private async decider(orgId: string, u: FindingUpdate, actor: Actor | undefined, acceptance: Partial<AcceptanceInput> | undefined, field: string) {
    const input = checkAcceptance(u.status, acceptance, this.deps.now(), field);
    if (!input) return (f: FindingDoc) => endAcceptance(f, applyUpdate(f, u, actor, this.deps.now()));
    const approval = (await this.deps.policies.get(orgId))?.require_acceptance_approval ?? false;
    return (f: FindingDoc) => applyAcceptance(f, u, input, approval, actor, this.deps.now());
  }

  /** Approves or rejects a finding's pending acceptance (a user other than the requester). */
  async decideAcceptance(orgId: string, id: string, approve: boolean, note: string, actor: Actor | undefined): Promise<FindingDoc> {
    if (note.length > 2000) throw validationError("note", "note must be at most 2000 characters");
    return this.changeOne(orgId, id, (f) => decideAcceptance(f, approve, note.trim(), actor, this.deps.now()));
  }

  async comment(orgId: string, id: string, text: string, actor: Actor | undefined): Promise<CommentDoc> {
    const body = text.trim();
    if (!body) throw validationError("text", "text must not be empty");
    if (body.length > COMMENT_MAX_CHARS) throw validationError("text", `text must be at most ${COMMENT_MAX_CHARS} characters`);
    let comment: CommentDoc | undefined;
    await this.changeOne(orgId, id, (f) => {
      const now = this.deps.now();
      comment = { id: newId("comment", now.getTime()), user: actorName(actor), user_id: actor?.user_id ?? "", text: body, created_at: now };
      return addComment(f, comment);
    });
    return comment!;
  }

  /**
   * Status and/or notes on up to 1000 findings, each on its own. Ids of other organizations are
   * reported exactly like unknown ids (NOT_FOUND) and never touched. Duplicated ids count once.
   */
  async bulk(orgId: string, ids: string[], u: { status?: Status; notes?: string }, actor: Actor | undefined, acceptance?: Partial<AcceptanceInput>) {
    const distinct = [...new Set(ids)];
    if (distinct.length === 0) throw validationError("finding_ids", "finding_ids must list at least one id");
    if (distinct.length > BULK_MAX) throw validationError("finding_ids", `finding_ids may list at most ${BULK_MAX} ids`);
    if (u.status === undefined && u.notes === undefined) throw validationError("update", "update must set status or notes");
    if (u.notes !== undefined && u.notes.length > COMMENT_MAX_CHARS)
      throw validationError("update.notes", `notes must be at most ${COMMENT_MAX_CHARS} characters`);
    const results = await this.deps.findings.change(orgId, distinct, await this.decider(orgId, u, actor, acceptance, "update.acceptance"));
    let updated = 0;
    const failed: { finding_id: string; error_code: string; detail: string }[] = [];
    for (const id of distinct) {
      const res = results.get(id);
      if (res instanceof Error) {
        this.deps.logger.error({ err: res, finding_id: id }, "bulk update of one finding failed");
        failed.push({ finding_id: id, error_code: "INTERNAL_ERROR", detail: "Could not update this finding; retry" });
      } else if (res) updated++;
      else failed.push({ finding_id: id, error_code: "NOT_FOUND", detail: "Finding not found" });
    }
    return { updated, failed };
  }
}
