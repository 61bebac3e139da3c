import type { ServiceImpl } from "@connectrpc/connect";
import { DomainError, toConnectError, validationError, type Logger } from "@vulnscan/kit";
import type {
  AddCommentRequest,
  BulkUpdateRequest,
  DecideAcceptanceRequest,
  ExportFindingsRequest,
  FindingService,
  GetAiAnalysisRequest,
  GetFindingRequest,
  GetFindingsPolicyRequest,
  GetStatsRequest,
  GetTargetCountsRequest,
  ListFindingsRequest,
  ListScanFindingsRequest,
  UpdateFindingRequest,
  UpdateFindingsPolicyRequest,
} from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import type { FindingUpdate } from "../domain/changes.js";
import type { FindingsDomain } from "../domain/index.js";
import { listQuery } from "../domain/list.js";
import { actorOf, commentMsg, dateOf, filterOf, findingMsgAt, formatOf, orderOf, priorityOf, severityOf, sortOf, statusOf } from "./mappers.js";
import { acceptanceOf, policyMsg, slaDaysOf } from "./policy-mappers.js";

const requireId = (v: string, field: string) => {
  if (!v) throw validationError(field, `${field} is required`);
  return v;
};

/**
 * vulnscan.findings.v1.FindingService. Each handler maps the request (checking the org id is
 * present), calls one use case and maps the answer; errors are domain errors the kit's
 * interceptor turns into Connect codes.
 */
export class FindingRpcService implements ServiceImpl<typeof FindingService> {
  constructor(
    private readonly domain: FindingsDomain,
    private readonly logger: Logger,
    /** The service's clock: SLA states are read at it. */
    private readonly now: () => Date = () => new Date(),
  ) {}

  private get findingMsg() {
    return findingMsgAt(this.now());
  }

  async listFindings(req: ListFindingsRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const res = await this.domain.listing.list(
      orgId,
      listQuery(filterOf(req.filter), sortOf(req.sort), orderOf(req.order)),
      req.pagination?.page ?? 0,
      req.pagination?.perPage ?? 0,
      req.cursor,
    );
    return {
      findings: res.items.map(this.findingMsg),
      pageInfo: { total: res.total, page: res.page, perPage: res.perPage, pages: res.pages },
      nextCursor: res.nextCursor,
    };
  }

  async listScanFindings(req: ListScanFindingsRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const items = await this.domain.listing.scanFindings(
      orgId,
      req.scanId,
      req.severity === undefined ? undefined : severityOf(req.severity),
      req.status === undefined ? undefined : statusOf(req.status),
    );
    return { findings: items.map(this.findingMsg), total: items.length };
  }

  async getFinding(req: GetFindingRequest) {
    const f = await this.domain.triage.get(requireId(req.orgId, "org_id"), requireId(req.findingId, "finding_id"));
    return { finding: this.findingMsg(f) };
  }

  async updateFinding(req: UpdateFindingRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const u: FindingUpdate = {};
    if (req.status !== undefined) u.status = statusOf(req.status);
    if (req.assignee !== undefined) u.assignee = req.assignee.trim();
    if (req.priority !== undefined) u.priority = priorityOf(req.priority);
    if (req.clearDueDate && req.dueDate) throw validationError("due_date", "due_date cannot be set and cleared at once");
    if (req.dueDate) u.due_date = dateOf(req.dueDate);
    if (req.clearDueDate) u.due_date = null;
    if (req.notes !== undefined) u.notes = req.notes;
    const f = await this.domain.triage.update(orgId, requireId(req.findingId, "finding_id"), u, actorOf(req.actor), acceptanceOf(req.acceptance));
    return { finding: this.findingMsg(f) };
  }

  async addComment(req: AddCommentRequest) {
    const findingId = requireId(req.findingId, "finding_id");
    const c = await this.domain.triage.comment(requireId(req.orgId, "org_id"), findingId, req.text, actorOf(req.actor));
    return { comment: commentMsg(c, findingId) };
  }

  async bulkUpdate(req: BulkUpdateRequest) {
    const res = await this.domain.triage.bulk(
      requireId(req.orgId, "org_id"),
      req.findingIds,
      { ...(req.status !== undefined ? { status: statusOf(req.status, "update.status") } : {}), ...(req.notes !== undefined ? { notes: req.notes } : {}) },
      actorOf(req.actor),
      acceptanceOf(req.acceptance),
    );
    return { updated: res.updated, failed: res.failed.map((f) => ({ findingId: f.finding_id, errorCode: f.error_code, detail: f.detail })) };
  }

  async getStats(req: GetStatsRequest) {
    const s = await this.domain.listing.stats(requireId(req.orgId, "org_id"), {
      from: req.fromDate ? dateOf(req.fromDate) : undefined,
      to: req.toDate ? dateOf(req.toDate) : undefined,
      target: req.target,
    });
    return {
      total: s.total,
      bySeverity: s.by_severity,
      byStatus: {
        open: s.by_status.open,
        inProgress: s.by_status.in_progress,
        resolved: s.by_status.resolved,
        falsePositive: s.by_status.false_positive,
        accepted: s.by_status.accepted,
      },
      byTool: s.by_tool,
      trends: { newThisWeek: s.trends.new_this_week, resolvedThisWeek: s.trends.resolved_this_week, averageResolutionDays: s.trends.average_resolution_days },
      sla: { breached: s.sla.breached, atRisk: s.sla.at_risk },
    };
  }

  async getTargetCounts(req: GetTargetCountsRequest) {
    const c = await this.domain.listing.targetCounts(requireId(req.orgId, "org_id"), req.targets);
    return { open: c.open, slaBreached: c.sla_breached };
  }

  async getFindingsPolicy(req: GetFindingsPolicyRequest) {
    return { policy: policyMsg(await this.domain.policies.get(requireId(req.orgId, "org_id"))) };
  }

  async updateFindingsPolicy(req: UpdateFindingsPolicyRequest) {
    const res = await this.domain.policies.update(
      requireId(req.orgId, "org_id"),
      {
        sla_days: slaDaysOf(req.slaDays),
        require_acceptance_approval: req.requireAcceptanceApproval,
        ...(req.autoResolve !== undefined ? { auto_resolve: req.autoResolve } : {}),
      },
      actorOf(req.actor),
    );
    return { policy: policyMsg(res.policy), refreshed: res.refreshed };
  }

  async decideAcceptance(req: DecideAcceptanceRequest) {
    const orgId = requireId(req.orgId, "org_id");
    const f = await this.domain.triage.decideAcceptance(orgId, requireId(req.findingId, "finding_id"), req.approve, req.note, actorOf(req.actor));
    return { finding: this.findingMsg(f) };
  }

  async *exportFindings(req: ExportFindingsRequest) {
    // The kit's error interceptor sees only what a handler throws before it returns; a
    // stream fails later, so its errors are mapped here (never leaking internals).
    try {
      const orgId = requireId(req.orgId, "org_id");
      const format = formatOf(req.format);
      const exp = await this.domain.exports.export(orgId, format, listQuery(filterOf(req.filter), sortOf(req.sort), orderOf(req.order)));
      yield { contentType: exp.contentType, filename: exp.filename };
      for await (const chunk of exp.chunks) yield { chunk };
    } catch (err) {
      if (!(err instanceof DomainError)) this.logger.error({ err }, "export failed");
      throw toConnectError(err);
    }
  }

  async getAiAnalysis(req: GetAiAnalysisRequest) {
    const findingId = requireId(req.findingId, "finding_id");
    const res = await this.domain.analysis.analyze(requireId(req.orgId, "org_id"), findingId);
    const a = res.analysis;
    return {
      findingId,
      aiAnalysis: {
        riskAssessment: a.risk_assessment,
        attackScenarios: a.attack_scenarios,
        remediationPriority: a.remediation_priority,
        recommendedActions: a.recommended_actions,
        automationAvailable: a.automation_available,
        ansiblePlaybookId: a.ansible_playbook_id,
        category: a.category,
        source: a.source,
        sourceDetail: a.source_detail,
      },
      aiCreditsUsed: res.used,
      aiCreditsRemaining: res.remaining,
    };
  }
}
