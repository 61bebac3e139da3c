import { decodeCursor, encodeCursor, validationError } from "@vulnscan/kit/core";
import { anchorOf, normalizePage, pagesOf, timedFilter, type ListFilter, type ListQuery } from "./list.js";
import type { Clock, FindingCounts, FindingLists, TargetCounts } from "./ports.js";
import type { SlaQueue } from "./sla-upkeep.js";
import type { Stats } from "./stats.js";
import type { FindingDoc, Severity, Status } from "./types.js";

/** Hosts one inventory asks about at most (the orchestrator sends the target and the hosts scans reported). */
export const MAX_TARGET_HOSTS = 500;

export interface ListPage {
  items: FindingDoc[];
  total: number;
  page: number;
  perPage: number;
  pages: number;
  /** The cursor of the next page when this one is full; "" otherwise. */
  nextCursor: string;
}

/** Lists, a scan's findings and the statistics. */
export class Listing {
  constructor(private readonly deps: { lists: FindingLists; counts: FindingCounts; slaQueue: SlaQueue; now: Clock }) {}

  /**
   * A page of the list: by number (a bounded skip, see storage/finding-reads.ts), or after a
   * cursor (a range after the previous page's last row: deep pages cost what the first does).
   * Every full page carries the cursor of the next, bound to this list (another filter, sort or
   * organization refuses it).
   */
  async list(orgId: string, q: ListQuery, page: number, perPage: number, cursor = ""): Promise<ListPage> {
    const { lists } = this.deps;
    if (q.filter.accepted_expiring_within_days !== undefined && q.filter.status !== undefined && q.filter.status !== "accepted")
      throw validationError("accepted_expiring_within", "accepted_expiring_within lists accepted findings: leave status out or set it to accepted");
    const description = lists.describe(orgId, q);
    const after = cursor ? decodeCursor(cursor, description) : undefined;
    const p = normalizePage(after ? after.page : page, perPage);
    const [total, items] = await Promise.all([
      this.total(orgId, q.filter),
      after ? lists.after(orgId, q, after.anchor, p.perPage) : lists.page(orgId, q, p.offset, p.perPage),
    ]);
    const last = items.at(-1);
    const nextCursor = last && items.length === p.perPage ? encodeCursor(description, p.page + 1, anchorOf(q, last)) : "";
    return { items, total, page: p.page, perPage: p.perPage, pages: pagesOf(total, p.perPage), nextCursor };
  }

  /** The list's total: from the counts for the filters they keep, else a count of the matches. */
  private async total(orgId: string, filter: ListFilter): Promise<number> {
    const other =
      filter.scan_id !== undefined || filter.cve !== undefined || filter.confidence !== undefined || filter.search !== undefined || timedFilter(filter);
    const kept = await this.deps.counts.total(orgId, { severity: filter.severity, status: filter.status, tool: filter.tool, target: filter.target, other });
    return kept ?? this.deps.lists.count(orgId, filter);
  }

  scanFindings(orgId: string, scanId: string, severity?: Severity, status?: Status): Promise<FindingDoc[]> {
    if (!scanId) throw validationError("scan_id", "scan_id is required");
    return this.deps.lists.scanFindings(orgId, scanId, severity, status);
  }

  /** A target inventory's counts (issue 29): kept counts of at most MAX_TARGET_HOSTS finding targets. */
  targetCounts(orgId: string, targets: string[]): Promise<TargetCounts> {
    if (targets.length > MAX_TARGET_HOSTS) throw validationError("targets", `at most ${MAX_TARGET_HOSTS} targets`);
    return this.deps.counts.targetCounts(orgId, targets);
  }

  /** The counts, plus the SLA's breached and at-risk findings at this moment (counted: they move with time, no count can be kept). */
  async stats(orgId: string, opts: { from?: Date; to?: Date; target?: string }): Promise<Stats & { sla: { breached: number; at_risk: number } }> {
    if (opts.from && opts.to && opts.from > opts.to) throw validationError("from_date", "from_date must not be after to_date");
    const [stats, sla] = await Promise.all([this.deps.counts.stats(orgId, opts), this.deps.slaQueue.slaCounts(orgId, opts, this.deps.now())]);
    return { ...stats, sla };
  }
}
