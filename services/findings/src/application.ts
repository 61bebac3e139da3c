import { createHash } from "node:crypto";
import { decodeCursor, encodeCursor, isDuplicateKey, newId, notFound, quotaExceeded, validationError, type Logger, type SlotCounter } from "@vulnscan/kit";
import type { Collection } from "mongodb";
import type { AiAnalysis, AiProvider, AnalysisInput } from "./ai/provider.js";
import { addComment, applyDetection, applyUpdate, COMMENT_MAX_CHARS, newFinding, type FindingUpdate } from "./domain/changes.js";
import { fingerprint } from "./domain/fingerprint.js";
import { anchorOf, filterQuery, normalizePage, pagesOf, sortSpec, type ListFilter } from "./domain/query.js";
import type { Stats } from "./domain/stats.js";
import { SEVERITIES, type Actor, type CommentDoc, type DetectionFacts, type FindingDoc, type Severity, type SortField, type SortOrder, type Status } from "./domain/types.js";
import { actorName } from "./domain/types.js";
import { pdfExport } from "./export/pdf-export.js";
import { csvExport, jsonExport } from "./export/text-exports.js";
import type { FindingReads } from "./storage/finding-reads.js";
import type { FindingStore } from "./storage/finding-store.js";
import type { ProcessedDetections } from "./storage/processed-detections.js";

/** Plan facts this service needs (from auth's GetPlan). */
export interface PlanPort {
  aiCredits(orgId: string): Promise<{ unlimited: boolean; max: number }>;
}

export interface AiCacheDoc {
  _id: string;
  org_id: string;
  input_hash: string;
  analysis: AiAnalysis;
  created_at: Date;
}

export type ExportFormat = "csv" | "json" | "pdf";
const CONTENT_TYPES: Record<ExportFormat, string> = { csv: "text/csv", json: "application/json", pdf: "application/pdf" };

export const BULK_MAX = 1000;
const BULK_CONCURRENCY = 8;

/** The use cases: transport-free, so tests drive them without a network. */
export class FindingsApp {
  constructor(
    private readonly deps: {
      store: FindingStore;
      reads: FindingReads;
      ai: AiProvider;
      aiCache: Collection<AiCacheDoc>;
      credits: SlotCounter;
      plans: PlanPort;
      processed: ProcessedDetections;
      logger: Logger;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** One detection (see ingestBatch). */
  async ingest(d: DetectionFacts): Promise<{ findingId: string; created: boolean }> {
    return (await this.ingestBatch([d]))[0]!;
  }

  /**
   * A batch of detections, in order: for fingerprints this replica has not seen, one bulk
   * fingerprint claim (the de-duplication, without reads) and one bulk insert of the findings
   * that won their claims (their events and rollup deltas follow); then the serialised update
   * path (storage/finding-store.ts) for known findings that change.
   * Redelivered detections change nothing: the creating detection finishes its creation
   * (idempotent steps), the last one applied is on the finding, others are marked in
   * processed_detections once applied. Detections of one new fingerprint in the same batch
   * fold into the one new finding.
   */
  async ingestBatch(ds: DetectionFacts[]): Promise<{ findingId: string; created: boolean }[]> {
    const { store, processed } = this.deps;
    const fps = ds.map((d) => fingerprint(d));
    const holders = store.rememberedHolders(fps);
    const results: { findingId: string; created: boolean }[] = new Array(ds.length);
    const applied: string[] = [];

    // Fingerprints not known to exist: the first detection creates, later ones in the batch fold
    // into it. No read first: the fingerprint claim tells which exist (store.createMany).
    const fresh = new Map<string, { doc: FindingDoc; idx: number[] }>();
    const known: number[] = [];
    for (const [i, d] of ds.entries()) {
      const fp = fps[i]!;
      if (holders.has(fp)) {
        known.push(i);
        continue;
      }
      const now = this.now();
      const entry = fresh.get(fp);
      if (!entry) {
        fresh.set(fp, { doc: newFinding(d, fp, newId("finding", now.getTime()), now).doc, idx: [i] });
        continue;
      }
      const change = applyDetection(entry.doc, d, now);
      if (change) Object.assign(entry.doc, change.set);
      entry.idx.push(i);
    }
    const outcomes = await store.createMany([...fresh.values()].map((e) => e.doc));
    for (const [fp, e] of fresh) {
      const { holder, created } = outcomes.get(fp)!;
      if (created) {
        for (const [n, i] of e.idx.entries()) {
          results[i] = { findingId: holder, created: n === 0 };
          if (n > 0) applied.push(ds[i]!.detection_id);
        }
        continue;
      }
      // The fingerprint is held already (an earlier scan, a racing writer, or this batch's
      // redelivery): these detections update its finding.
      holders.set(fp, holder);
      known.push(...e.idx);
    }

    // Known findings: per finding in detection order, findings in parallel.
    known.sort((a, b) => a - b);
    const byFinding = new Map<string, number[]>();
    for (const i of known) {
      const id = holders.get(fps[i]!)!;
      byFinding.set(id, [...(byFinding.get(id) ?? []), i]);
    }
    const docs = await Promise.all([...byFinding.keys()].map((id) => store.get(ds[byFinding.get(id)![0]!]!.org_id, id)));
    const current = new Map(docs.filter((f): f is FindingDoc => f !== null).map((f) => [f._id, f]));
    const groups = [...byFinding];
    let next = 0;
    const worker = async () => {
      while (next < groups.length) {
        const [id, idx] = groups[next++]!;
        const f = current.get(id);
        for (const i of idx) {
          const d = ds[i]!;
          results[i] = { findingId: id, created: false };
          if (f?.first_detection_id === d.detection_id) {
            await store.finishCreations([f]); // the creating detection again: finish what a crash may have cut short
            continue;
          }
          if (f?.last_detection_id === d.detection_id || (await processed.seen(d.detection_id))) continue;
          await store.mutate(d.org_id, id, (doc) => applyDetection(doc, d, this.now()));
          applied.push(d.detection_id);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(16, groups.length) }, worker));
    await processed.recordMany(applied);
    // Folding is off the batch's path: readers add unfolded deltas themselves.
    for (const org of new Set(ds.map((d) => d.org_id))) store.rollups.foldSoon(org);
    return results;
  }

  /**
   * A page of the list: by number (a bounded skip, see storage/finding-reads.ts), or after a
   * cursor (a range after the previous page's last row: deep pages cost what the first does).
   * Every full page carries the cursor of the next.
   */
  async list(orgId: string, filter: ListFilter, sort: SortField | undefined, order: SortOrder | undefined, page: number, perPage: number, cursor = "") {
    const q = filterQuery(orgId, filter);
    const spec = sortSpec(sort, order);
    const after = cursor ? decodeCursor(cursor, [q, spec]) : undefined;
    const p = normalizePage(after ? after.page : page, perPage);
    const [total, items] = await Promise.all([
      this.total(orgId, filter, q),
      after ? this.deps.reads.after(q, spec, after.anchor, p.perPage) : this.deps.reads.page(q, spec, p.offset, p.perPage),
    ]);
    const last = items.at(-1);
    const nextCursor = last && items.length === p.perPage ? encodeCursor([q, spec], p.page + 1, anchorOf(spec, last as unknown as Record<string, unknown>)) : "";
    return { items, total, page: p.page, perPage: p.perPage, pages: pagesOf(total, p.perPage), nextCursor };
  }

  /** The list's total: from the rollups for the filters they keep, else a count (a scan on FerretDB). */
  private async total(orgId: string, filter: ListFilter, q: ReturnType<typeof filterQuery>): Promise<number> {
    const other = filter.scan_id !== undefined || filter.cve !== undefined;
    const fromRollups = await this.deps.store.rollups.total(orgId, { severity: filter.severity, status: filter.status, tool: filter.tool, target: filter.target, other });
    return fromRollups ?? this.deps.reads.count(q);
  }

  scanFindings(orgId: string, scanId: string, severity?: Severity, status?: Status): Promise<FindingDoc[]> {
    if (!scanId) throw validationError("scan_id", "scan_id is required");
    return this.deps.reads.scanFindings(orgId, scanId, severity, status);
  }

  async get(orgId: string, id: string): Promise<FindingDoc> {
    const f = await this.deps.store.get(orgId, id);
    if (!f) throw notFound("Finding");
    return f;
  }

  async update(orgId: string, id: string, u: FindingUpdate, actor: Actor | undefined): Promise<FindingDoc> {
    if (u.notes !== undefined && u.notes.length > COMMENT_MAX_CHARS) throw validationError("notes", `notes must be at most ${COMMENT_MAX_CHARS} characters`);
    if (u.assignee !== undefined && u.assignee.length > 320) throw validationError("assignee", "assignee must be at most 320 characters");
    const res = await this.deps.store.mutate(orgId, id, (f) => applyUpdate(f, u, actor, this.now()));
    if (!res) throw notFound("Finding");
    return res.doc;
  }

  async comment(orgId: string, id: string, text: string, actor: Actor | undefined): Promise<CommentDoc> {
    const body = text.trim();
    if (!body) throw validationError("text", "text must not be empty");
    if (body.length > COMMENT_MAX_CHARS) throw validationError("text", `text must be at most ${COMMENT_MAX_CHARS} characters`);
    let comment: CommentDoc | undefined;
    const res = await this.deps.store.mutate(orgId, id, (f) => {
      const now = this.now();
      comment = { id: newId("comment", now.getTime()), user: actorName(actor), user_id: actor?.user_id ?? "", text: body, created_at: now };
      return addComment(f, comment);
    });
    if (!res || !comment) throw notFound("Finding");
    return comment;
  }

  /**
   * Status and/or notes on up to 1000 findings, each on its own. Ids of other organizations are
   * reported exactly like unknown ids (NOT_FOUND) and never touched. Duplicated ids count once.
   */
  async bulk(orgId: string, ids: string[], u: { status?: Status; notes?: string }, actor: Actor | undefined) {
    const distinct = [...new Set(ids)];
    if (distinct.length === 0) throw validationError("finding_ids", "finding_ids must list at least one id");
    if (distinct.length > BULK_MAX) throw validationError("finding_ids", `finding_ids may list at most ${BULK_MAX} ids`);
    if (u.status === undefined && u.notes === undefined) throw validationError("update", "update must set status or notes");
    if (u.notes !== undefined && u.notes.length > COMMENT_MAX_CHARS) throw validationError("update.notes", `notes must be at most ${COMMENT_MAX_CHARS} characters`);
    let updated = 0;
    const failed: { finding_id: string; error_code: string; detail: string }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < distinct.length) {
        const id = distinct[next++]!;
        try {
          const res = await this.deps.store.mutate(orgId, id, (f) => applyUpdate(f, u, actor, this.now()));
          if (res) updated++;
          else failed.push({ finding_id: id, error_code: "NOT_FOUND", detail: "Finding not found" });
        } catch (err) {
          this.deps.logger.error({ err, finding_id: id }, "bulk update of one finding failed");
          failed.push({ finding_id: id, error_code: "INTERNAL_ERROR", detail: "Could not update this finding; retry" });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, distinct.length) }, worker));
    this.deps.store.rollups.foldSoon(orgId);
    const order = new Map(distinct.map((id, i) => [id, i]));
    failed.sort((a, b) => order.get(a.finding_id)! - order.get(b.finding_id)!);
    return { updated, failed };
  }

  stats(orgId: string, opts: { from?: Date; to?: Date; target?: string }): Promise<Stats> {
    if (opts.from && opts.to && opts.from > opts.to) throw validationError("from_date", "from_date must not be after to_date");
    return this.deps.store.rollups.stats(orgId, opts);
  }

  /** The export's metadata and its byte stream (read in batches, never all at once). */
  async export(orgId: string, format: ExportFormat, filter: ListFilter, sort?: SortField, order?: SortOrder) {
    const q = filterQuery(orgId, filter);
    const spec = sortSpec(sort, order);
    const now = this.now();
    const filename = `findings-${now.toISOString().slice(0, 10)}.${format}`;
    const { reads } = this.deps;
    let chunks: AsyncGenerator<Buffer>;
    if (format === "csv") chunks = csvExport(reads.cursor(q, spec, { comments: 0, history: 0, evidence: 0 }));
    else if (format === "json") chunks = jsonExport(reads.cursor(q, spec));
    else {
      const counts = await reads.severityCounts(q);
      const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
      for (const c of counts) if ((SEVERITIES as readonly unknown[]).includes(c._id)) bySeverity[c._id as Severity] += c.n;
      const filters = Object.entries(filter)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(", ");
      chunks = pdfExport(reads.cursor(q, spec, { comments: 0, history: 0, evidence: 0 }), {
        total: Object.values(bySeverity).reduce((a, b) => a + b, 0),
        bySeverity,
        generatedAt: now,
        filters,
      });
    }
    return { contentType: CONTENT_TYPES[format], filename, chunks };
  }

  /**
   * AI guidance. An unchanged finding is answered from the cache at no cost. Otherwise one
   * credit is taken first (SlotCounter position in `<org>:ai:<YYYY-MM>`, exact under
   * concurrency), then the provider runs. Unlimited plans are not counted.
   */
  async aiAnalysis(orgId: string, id: string): Promise<{ analysis: AiAnalysis; used: number; remaining: number }> {
    const f = await this.get(orgId, id);
    const input = analysisInput(f);
    const hash = createHash("sha256").update(this.deps.ai.id).update(JSON.stringify(input)).digest("hex");
    const limit = await this.deps.plans.aiCredits(orgId);
    const now = this.now();
    const month = now.toISOString().slice(0, 7);
    const key = `${orgId}:ai:${month}`;
    const cached = await this.deps.aiCache.findOne({ _id: id });
    if (cached && cached.org_id === orgId && cached.input_hash === hash) {
      const usedSoFar = limit.unlimited ? 0 : await this.deps.credits.count(key, limit.max);
      return { analysis: cached.analysis, used: 0, remaining: limit.unlimited ? 0 : Math.max(0, limit.max - usedSoFar) };
    }
    let remaining = 0;
    if (!limit.unlimited) {
      const expires = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1));
      const position = await this.deps.credits.take(key, limit.max, expires);
      if (position === undefined) {
        const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
        throw quotaExceeded("AI_QUOTA_EXCEEDED", `AI analysis credits for ${month} are used up (${limit.max} per month on this plan)`, (nextMonth - now.getTime()) / 1000);
      }
      remaining = limit.max - position;
    }
    const analysis = await this.deps.ai.analyze(input);
    try {
      await this.deps.aiCache.replaceOne({ _id: id }, { org_id: orgId, input_hash: hash, analysis, created_at: now }, { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // a concurrent first analysis stored it
    }
    return { analysis, used: 1, remaining };
  }
}

export function analysisInput(f: FindingDoc): AnalysisInput {
  return {
    finding_id: f._id,
    title: f.title,
    severity: f.severity,
    cvss_score: f.cvss_score,
    cvss_vector: f.cvss_vector,
    epss_score: f.epss_score,
    kev: f.kev,
    cwe_ids: f.cwe_ids,
    cve_ids: f.cve_ids,
    tool: f.tool,
    template_id: f.template_id,
    target: f.target,
    affected_component: f.affected_component,
    description: f.description,
    remediation_summary: f.remediation.summary,
    remediation_steps: f.remediation.steps,
  };
}
