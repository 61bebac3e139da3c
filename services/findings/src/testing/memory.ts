import type { Change } from "../domain/changes.js";
import type { FindingEvent } from "../domain/events.js";
import { anchorOf, type Anchor, type ListFilter, type ListQuery } from "../domain/list.js";
import type {
  AiCredits,
  AnalysisCache,
  CachedAnalysis,
  Changed,
  Clock,
  FindingCounts,
  FindingLists,
  FindingRepository,
  Holder,
  TargetCounts,
} from "../domain/ports.js";
import { addDays, addTo, contributionOf, dayOf, dayRange, emptyCounts, statsOf, targetCountsOf, WEEK_DAYS } from "../domain/rollup.js";
import type { Stats } from "../domain/stats.js";
import { matchesSearch } from "../domain/search.js";
import { NEVER, slaStateAt } from "../domain/sla.js";
import { SEVERITIES, type FindingDoc, type Severity, type Status } from "../domain/types.js";

/*
 * In-memory adapters of the ports, for unit tests: the same contracts as the Mongo adapters
 * (org-scoped reads, one holder per fingerprint, serialised changes, list order and anchors),
 * without the database. Stored documents are copies, so a test cannot change them by accident.
 */

const copy = <T>(v: T): T => structuredClone(v);

/** What a list row leaves out (the Mongo list projection). */
function listRow(f: FindingDoc): FindingDoc {
  const { comments: _c, history: _h, evidence: _e, ...rest } = copy(f);
  return rest as FindingDoc;
}

function matches(f: FindingDoc, orgId: string, filter: ListFilter, now: Date = new Date()): boolean {
  const due = f.due_sort ?? NEVER;
  return (
    (filter.sla_state === undefined || slaStateAt(f, now) === filter.sla_state) &&
    (filter.due_before === undefined || (due < filter.due_before && due < NEVER)) &&
    (filter.due_after === undefined || (due >= filter.due_after && due < NEVER)) &&
    (filter.accepted_expiring_within_days === undefined ||
      (f.status === "accepted" && !!f.accepted_until && f.accepted_until.getTime() <= now.getTime() + filter.accepted_expiring_within_days * 86_400_000)) &&
    f.org_id === orgId &&
    (filter.severity === undefined || f.severity === filter.severity) &&
    (filter.status === undefined || f.status === filter.status) &&
    (filter.scan_id === undefined || f.scan_ids.includes(filter.scan_id)) &&
    (filter.target === undefined || f.target === filter.target) &&
    (filter.tool === undefined || f.tool === filter.tool) &&
    (filter.cve === undefined || f.cve_keys.includes(filter.cve.trim().toUpperCase())) &&
    (filter.search === undefined || matchesSearch(f.search_text ?? "", filter.search)) &&
    (filter.confidence === undefined || f.confidence === filter.confidence)
  );
}

/** Compares two positions in the list's order (the domain's order: see domain/list.ts). */
function compareIn(q: ListQuery): (a: Anchor, b: Anchor) => number {
  const desc = q.sort.order === "desc";
  // Severity compares ranks (1 = critical): "most severe first" is ascending rank.
  const keyDir = q.sort.field === "severity" ? (desc ? 1 : -1) : desc ? -1 : 1;
  const idDir = desc ? -1 : 1;
  const cmp = (x: Anchor["key"] | string, y: Anchor["key"] | string) => (x < y ? -1 : x > y ? 1 : 0);
  return (a, b) => cmp(a.key, b.key) * keyDir || cmp(a.id, b.id) * idDir;
}

export class MemoryFindings implements FindingRepository, FindingLists {
  readonly docs = new Map<string, FindingDoc>();
  /** Events in the order the writes stored them. */
  readonly events: FindingEvent[] = [];
  private readonly holders = new Map<string, string>();
  /** The clock time-dependent filters are read at (the test's). */
  clock: Clock = () => new Date();

  async get(orgId: string, id: string): Promise<FindingDoc | null> {
    const f = this.docs.get(id);
    return f && f.org_id === orgId ? copy(f) : null;
  }

  rememberedHolders(fps: string[]): Map<string, string> {
    return new Map(fps.flatMap((fp) => (this.holders.has(fp) ? [[fp, this.holders.get(fp)!] as const] : [])));
  }

  async create(found: { doc: FindingDoc; events: FindingEvent[] }[]): Promise<Map<string, Holder>> {
    const out = new Map<string, Holder>();
    for (const { doc, events } of found) {
      const holder = [...this.docs.values()].find((f) => f.fingerprint === doc.fingerprint)?._id;
      out.set(doc.fingerprint, { holder: holder ?? doc._id, created: !holder });
      this.holders.set(doc.fingerprint, holder ?? doc._id);
      if (holder) continue;
      this.docs.set(doc._id, copy(doc));
      this.events.push(...events);
    }
    return out;
  }

  async change(orgId: string, ids: string[], decide: (f: FindingDoc) => Change | null): Promise<Map<string, Changed>> {
    const out = new Map<string, Changed>();
    for (const id of new Set(ids)) {
      const current = await this.get(orgId, id);
      const change = current && decide(current);
      if (!current || !change) {
        out.set(id, current);
        continue;
      }
      const doc = { ...current, ...copy(change.set) } as FindingDoc;
      this.docs.set(id, copy(doc));
      this.events.push(...change.events);
      out.set(id, doc);
    }
    return out;
  }

  /** The organization's findings as stored (tests and MemoryCounts). */
  of(orgId: string): FindingDoc[] {
    return [...this.docs.values()].filter((f) => f.org_id === orgId);
  }

  describe(orgId: string, q: ListQuery): unknown {
    return [orgId, q];
  }

  async count(orgId: string, filter: ListFilter): Promise<number> {
    return this.of(orgId).filter((f) => matches(f, orgId, filter, this.clock())).length;
  }

  private sorted(orgId: string, q: ListQuery): FindingDoc[] {
    const cmp = compareIn(q);
    return this.of(orgId)
      .filter((f) => matches(f, orgId, q.filter, this.clock()))
      .sort((a, b) => cmp(anchorOf(q, a), anchorOf(q, b)));
  }

  async page(orgId: string, q: ListQuery, offset: number, limit: number): Promise<FindingDoc[]> {
    return this.sorted(orgId, q)
      .slice(offset, offset + limit)
      .map(listRow);
  }

  async after(orgId: string, q: ListQuery, anchor: Anchor, limit: number): Promise<FindingDoc[]> {
    const cmp = compareIn(q);
    return this.sorted(orgId, q)
      .filter((f) => cmp(anchorOf(q, f), anchor) > 0)
      .slice(0, limit)
      .map(listRow);
  }

  async *stream(orgId: string, q: ListQuery, opts: { details: boolean }): AsyncIterable<FindingDoc> {
    for (const f of this.sorted(orgId, q)) yield opts.details ? copy(f) : listRow(f);
  }

  async scanFindings(orgId: string, scanId: string, severity?: Severity, status?: Status): Promise<FindingDoc[]> {
    return this.sorted(orgId, { filter: { scan_id: scanId, severity, status }, sort: { field: "created_at", order: "asc" } }).map(listRow);
  }

  async severityCounts(orgId: string, filter: ListFilter): Promise<Record<Severity, number>> {
    const out = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
    for (const f of this.of(orgId)) if (matches(f, orgId, filter, this.clock())) out[f.severity]++;
    return out;
  }
}

/** Stats counted from the stored findings with the rollups' pure functions; every list total is left to a count. */
export class MemoryCounts implements FindingCounts {
  constructor(
    private readonly findings: MemoryFindings,
    private readonly now: Clock,
  ) {}

  async stats(orgId: string, opts: { from?: Date; to?: Date; target?: string }): Promise<Stats> {
    const today = dayOf(this.now());
    const weekFirst = addDays(today, -(WEEK_DAYS - 1));
    const r = dayRange(opts.from, opts.to);
    const range = emptyCounts();
    const week = emptyCounts();
    for (const f of this.findings.of(orgId)) {
      if (opts.target !== undefined && f.target !== opts.target) continue;
      const x = contributionOf(f);
      if ((r.first && x.day < r.first) || (r.end && x.day >= r.end)) continue;
      addTo(range, x, 1);
      if (x.day >= weekFirst) addTo(week, x, 1);
    }
    return statsOf(range, week, today);
  }

  async total(): Promise<number | undefined> {
    return undefined;
  }

  async targetCounts(orgId: string, targets: string[]): Promise<TargetCounts> {
    const c = emptyCounts();
    const wanted = new Set(targets);
    for (const f of this.findings.of(orgId)) if (wanted.has(f.target)) addTo(c, contributionOf(f), 1);
    return targetCountsOf(c);
  }
}

export class MemoryAnalysisCache implements AnalysisCache {
  private readonly entries = new Map<string, CachedAnalysis & { org_id: string }>();
  async get(orgId: string, findingId: string): Promise<CachedAnalysis | null> {
    const e = this.entries.get(findingId);
    return e && e.org_id === orgId ? { input_hash: e.input_hash, analysis: copy(e.analysis) } : null;
  }
  async put(orgId: string, findingId: string, entry: CachedAnalysis): Promise<void> {
    this.entries.set(findingId, { ...copy(entry), org_id: orgId });
  }
}

export class MemoryCredits implements AiCredits {
  private readonly taken = new Map<string, number>();
  async used(orgId: string, month: string): Promise<number> {
    return this.taken.get(`${orgId}:${month}`) ?? 0;
  }
  async take(orgId: string, month: string, max: number): Promise<number | undefined> {
    const n = await this.used(orgId, month);
    if (n >= max) return undefined;
    this.taken.set(`${orgId}:${month}`, n + 1);
    return n + 1;
  }
}
