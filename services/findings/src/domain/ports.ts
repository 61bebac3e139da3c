import type { AiAnalysis } from "../ai/provider.js";
import type { Change } from "./changes.js";
import type { FindingEvent } from "./events.js";
import type { Anchor, ListFilter, ListQuery } from "./list.js";
import type { Stats } from "./stats.js";
import type { FindingDoc, Severity, Status } from "./types.js";

/*
 * What the use cases need from storage. Every read and write of tenant data takes the
 * organization id (new findings carry theirs in `org_id`), so a lookup that forgets the tenant
 * cannot be written by accident: a finding of another organization is simply not found.
 * A write stores a finding's events and its move in the counts with the finding itself.
 */

/** The finding that holds a fingerprint, and whether this call created it. */
export interface Holder {
  holder: string;
  created: boolean;
}

/** What a change did to one finding: the finding after it, null when it does not exist in the organization, or the error that stopped it. */
export type Changed = FindingDoc | null | Error;

export interface FindingRepository {
  /** One finding of the organization, or null (also for another organization's id). */
  get(orgId: string, id: string): Promise<FindingDoc | null>;
  /** The holders of fingerprints this replica has seen (from memory; the others may exist or not). */
  rememberedHolders(fps: string[]): Map<string, string>;
  /** Creates the findings, one per fingerprint ever: a fingerprint held already keeps its holder. Returns each fingerprint's holder. */
  create(found: { doc: FindingDoc; events: FindingEvent[] }[]): Promise<Map<string, Holder>>;
  /**
   * Changes findings of the organization, each as `decide` says on its current state (asked
   * again when another write got there first; null = no change).
   */
  change(orgId: string, ids: string[], decide: (f: FindingDoc) => Change | null): Promise<Map<string, Changed>>;
}

/** Reads of lists (what the list shows: no comments, history or evidence unless asked). */
export interface FindingLists {
  /** What the list is, as this store runs it: cursors are bound to it (a hash of its JSON). */
  describe(orgId: string, q: ListQuery): unknown;
  count(orgId: string, filter: ListFilter): Promise<number>;
  /** Rows [offset, offset+limit) in the list's order. */
  page(orgId: string, q: ListQuery, offset: number, limit: number): Promise<FindingDoc[]>;
  /** Up to `limit` rows strictly after `anchor` in the list's order. */
  after(orgId: string, q: ListQuery, anchor: Anchor, limit: number): Promise<FindingDoc[]>;
  /** Every row in order, read in batches (exports): memory stays flat. `details`: with comments, history and evidence. */
  stream(orgId: string, q: ListQuery, opts: { details: boolean }): AsyncIterable<FindingDoc>;
  /** A scan's findings in detection order. */
  scanFindings(orgId: string, scanId: string, severity?: Severity, status?: Status): Promise<FindingDoc[]>;
  /** Findings per severity under the filter. */
  severityCounts(orgId: string, filter: ListFilter): Promise<Record<Severity, number>>;
}

/** Counts kept as findings change (storage/rollups.ts), so stats never count findings. */
export interface FindingCounts {
  stats(orgId: string, opts: { from?: Date; to?: Date; target?: string }): Promise<Stats>;
  /** The list's total when the filter is one the counts keep; undefined otherwise (the caller counts). */
  total(orgId: string, f: { severity?: string; status?: string; tool?: string; target?: string; other: boolean }): Promise<number | undefined>;
  /** Open findings by severity and announced SLA breaches of these finding targets, summed (a target's inventory). */
  targetCounts(orgId: string, targets: string[]): Promise<TargetCounts>;
}

export interface TargetCounts {
  open: Record<Severity, number>;
  sla_breached: number;
}

export interface CachedAnalysis {
  input_hash: string;
  analysis: AiAnalysis;
}

/** The last AI analysis of each finding, with the hash of the input it answered. */
export interface AnalysisCache {
  get(orgId: string, findingId: string): Promise<CachedAnalysis | null>;
  put(orgId: string, findingId: string, entry: CachedAnalysis, at: Date): Promise<void>;
}

/** An organization's AI credits of one month (`YYYY-MM`, UTC), exact under concurrency. */
export interface AiCredits {
  used(orgId: string, month: string): Promise<number>;
  /** Takes one credit of `max`: the number taken so far including it, or undefined when all are taken. */
  take(orgId: string, month: string, max: number): Promise<number | undefined>;
}

/** Plan facts this service needs (from auth's GetPlan). */
export interface PlanPort {
  aiCredits(orgId: string): Promise<{ unlimited: boolean; max: number }>;
}

/** The export formats' writers (src/export/): rows in, chunks of the file out. */
export interface ExportWriters {
  csv(rows: AsyncIterable<FindingDoc>): AsyncGenerator<Buffer>;
  json(rows: AsyncIterable<FindingDoc>): AsyncGenerator<Buffer>;
  pdf(
    rows: AsyncIterable<FindingDoc>,
    summary: { total: number; bySeverity: Record<Severity, number>; generatedAt: Date; filters: string },
  ): AsyncGenerator<Buffer>;
}

export type Clock = () => Date;
