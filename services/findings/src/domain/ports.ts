import type { AiAnalysis } from "../ai/provider.js";
import type { Change } from "./changes.js";
import type { Anchor, ListFilter, ListQuery } from "./list.js";
import type { Stats } from "./stats.js";
import type { FindingDoc, Severity, Status } from "./types.js";

/*
 * What the use cases need from storage. Every read and write of tenant data takes the
 * organization id (new findings carry theirs in `org_id`), so a lookup that forgets the tenant
 * cannot be written by accident: a finding of another organization is simply not found.
 * Writes that carry events store them with the state change (storage/finding-store.ts).
 */

/** The outcome of a fingerprint claim: the finding that holds it, and whether this call created it. */
export interface Holder {
  holder: string;
  created: boolean;
}

export interface FindingRepository {
  /** One finding of the organization, or null (also for another organization's id). */
  get(orgId: string, id: string): Promise<FindingDoc | null>;
  /** The holders of fingerprints this replica has seen (from memory; the others may exist or not). */
  rememberedHolders(fps: string[]): Map<string, string>;
  /**
   * Creates the findings of fingerprints not known to exist, de-duplicating by a fingerprint
   * claim (exactly one claim per fingerprint ever succeeds), without reading first. Each
   * document carries its organization. Returns, per fingerprint, its holder.
   */
  createMany(docs: FindingDoc[]): Promise<Map<string, Holder>>;
  /** The steps after a creation (rollup deltas, vulnerability.found events); idempotent, so a redelivery finishes a creation a crash cut short. */
  finishCreations(docs: FindingDoc[]): Promise<void>;
  /**
   * Applies `decide` to the current state of one finding of the organization, serialised with
   * every other writer. `decide` may run several times (on contention) and returns null for
   * "no change". Null when the finding does not exist in this organization.
   */
  mutate(orgId: string, id: string, decide: (f: FindingDoc) => Change | null): Promise<{ doc: FindingDoc; changed: boolean } | null>;
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
  /** Folds the organization's recorded changes soon, off the caller's path. */
  foldSoon(orgId: string): void;
}

/** Detection ids already applied: a redelivered detection changes nothing. Ids are unique across organizations. */
export interface ProcessedDetectionLog {
  seen(detectionId: string): Promise<boolean>;
  recordMany(detectionIds: string[]): Promise<void>;
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

/** Exact monthly credits under concurrency (the kit's SlotCounter). */
export interface CreditCounter {
  count(key: string, max: number): Promise<number>;
  /** The position taken (1-based), or undefined when all `max` are taken. */
  take(key: string, max: number, expiresAt: Date): Promise<number | undefined>;
}

/** Plan facts this service needs (from auth's GetPlan). */
export interface PlanPort {
  aiCredits(orgId: string): Promise<{ unlimited: boolean; max: number }>;
}

export type Clock = () => Date;
