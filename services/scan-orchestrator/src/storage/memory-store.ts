import type { ProjectedFields } from "../domain/projection.js";
import type { ConcurrencySlots, MonthlyCounter, ScanFilter, ScanStore, ScheduleStore, Volatile } from "../domain/ports.js";
import type { Page, PageRequest, ScanAnchor, ScanCommand, ScanEvent, ScanPage, ScanRecord, ScheduleRecord, Transition } from "../domain/types.js";

/* In-memory stores for unit tests: the same contracts as the Mongo ones, inserts unique by id. */

const copy = <T>(x: T): T => structuredClone(x);

export class MemoryScanStore implements ScanStore {
  readonly scans = new Map<string, ScanRecord>();
  readonly transitionsById = new Map<string, Transition>();
  /** Stored, not yet published (by document id). */
  private readonly pending = new Map<string, { events: ScanEvent[]; commands: ScanCommand[] }>();
  /** What was published, in order. */
  readonly published: { events: ScanEvent[]; commands: ScanCommand[] } = { events: [], commands: [] };

  async insert(scan: ScanRecord, events: ScanEvent[], commands: ScanCommand[]): Promise<void> {
    if (this.scans.has(scan._id)) throw Object.assign(new Error("duplicate key"), { code: 11000 });
    this.scans.set(scan._id, copy(scan));
    this.pending.set(scan._id, { events, commands });
  }

  async get(orgId: string, scanId: string): Promise<ScanRecord | null> {
    const s = this.scans.get(scanId);
    return s && s.org_id === orgId ? copy(s) : null;
  }

  async list(orgId: string, filter: ScanFilter, page: PageRequest, after?: ScanAnchor): Promise<ScanPage> {
    const all = [...this.scans.values()]
      .filter((s) => s.org_id === orgId)
      .filter((s) => !filter.status || s.status === filter.status)
      .filter((s) => filter.target === undefined || s.target === filter.target)
      .filter((s) => !filter.from || s.created_at >= filter.from)
      .filter((s) => !filter.to || s.created_at < filter.to)
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a._id < b._id ? 1 : -1));
    // After an anchor: the same range the Mongo store asks for, older, or as old with a smaller id.
    const rest = after
      ? all.filter((s) => s.created_at.getTime() < after.createdAt.getTime() || (s.created_at.getTime() === after.createdAt.getTime() && s._id < after.id))
      : all.slice((page.page - 1) * page.perPage);
    return { items: rest.slice(0, page.perPage).map(copy), total: all.length, more: rest.length > page.perPage };
  }

  async transitions(scanId: string): Promise<Transition[]> {
    return [...this.transitionsById.values()].filter((t) => t.scan_id === scanId).map(copy);
  }

  async claim(t: Transition, events: ScanEvent[], commands: ScanCommand[]): Promise<boolean> {
    if (this.transitionsById.has(t._id)) return false;
    this.transitionsById.set(t._id, copy(t));
    this.pending.set(t._id, { events, commands });
    return true;
  }

  async transitionsOf(scanIds: string[]): Promise<Map<string, Transition[]>> {
    const out = new Map<string, Transition[]>();
    for (const id of scanIds) out.set(id, await this.transitions(id));
    return out;
  }

  async save(scanId: string, fields: ProjectedFields): Promise<void> {
    this.assign(scanId, { ...fields });
  }

  async touch(scanId: string, fields: Volatile): Promise<void> {
    this.assign(scanId, { ...fields });
  }

  private assign(scanId: string, fields: Record<string, unknown>): void {
    const s = this.scans.get(scanId);
    if (!s) return;
    for (const [k, v] of Object.entries(fields)) {
      if (v === undefined) delete (s as unknown as Record<string, unknown>)[k];
      else (s as unknown as Record<string, unknown>)[k] = copy(v);
    }
  }

  async activeAcrossOrganizations(limit: number, afterId?: string): Promise<ScanRecord[]> {
    return [...this.scans.values()]
      .filter((s) => s.status === "pending" || s.status === "running")
      .filter((s) => !afterId || s._id > afterId)
      .sort((a, b) => (a._id < b._id ? -1 : 1))
      .slice(0, limit)
      .map(copy);
  }

  private flush(id: string) {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    this.published.events.push(...p.events);
    this.published.commands.push(...p.commands);
  }

  async publishScan(scanId: string): Promise<void> {
    this.flush(scanId);
  }

  async publishTransition(transitionId: string): Promise<void> {
    this.flush(transitionId);
  }

  /** Event types published so far, in order. */
  eventTypes(): string[] {
    return this.published.events.map((e) => e.type);
  }
}

export class MemoryScheduleStore implements ScheduleStore {
  readonly schedules = new Map<string, ScheduleRecord>();
  readonly runs = new Map<string, { claimedAt: Date; scanId?: string; error?: string }>();

  async insert(schedule: ScheduleRecord): Promise<void> {
    this.schedules.set(schedule._id, copy(schedule));
  }

  async list(orgId: string, page: PageRequest): Promise<Page<ScheduleRecord>> {
    const all = [...this.schedules.values()].filter((s) => s.org_id === orgId).sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    const start = (page.page - 1) * page.perPage;
    return { items: all.slice(start, start + page.perPage).map(copy), total: all.length };
  }

  async delete(orgId: string, scheduleId: string): Promise<boolean> {
    const s = this.schedules.get(scheduleId);
    if (!s || s.org_id !== orgId) return false;
    return this.schedules.delete(scheduleId);
  }

  async dueAcrossOrganizations(now: Date, limit: number): Promise<ScheduleRecord[]> {
    return [...this.schedules.values()]
      .filter((s) => s.next_run_at <= now)
      .sort((a, b) => a.next_run_at.getTime() - b.next_run_at.getTime())
      .slice(0, limit)
      .map(copy);
  }

  private key = (s: ScheduleRecord, runAt: Date) => `${s._id}@${runAt.toISOString()}`;

  async claimRun(schedule: ScheduleRecord, runAt: Date, claimedAt: Date): Promise<boolean> {
    const k = this.key(schedule, runAt);
    if (this.runs.has(k)) return false;
    this.runs.set(k, { claimedAt });
    return true;
  }

  async releaseRun(schedule: ScheduleRecord, runAt: Date): Promise<void> {
    this.runs.delete(this.key(schedule, runAt));
  }

  async runClaimedAt(schedule: ScheduleRecord, runAt: Date): Promise<Date | undefined> {
    return this.runs.get(this.key(schedule, runAt))?.claimedAt;
  }

  async finishRun(schedule: ScheduleRecord, runAt: Date, outcome: { scanId?: string; error?: string }, at: Date, next: Date) {
    const run = this.runs.get(this.key(schedule, runAt));
    if (run) Object.assign(run, outcome);
    const s = this.schedules.get(schedule._id);
    if (!s) return;
    s.last_run_at = at;
    s.last_error = outcome.error ?? "";
    if (outcome.scanId) s.last_scan_id = outcome.scanId;
    s.next_run_at = next;
  }

  async advance(scheduleId: string, runAt: Date, next: Date): Promise<void> {
    const s = this.schedules.get(scheduleId);
    if (s && s.next_run_at.getTime() === runAt.getTime()) s.next_run_at = next;
  }
}

export class MemorySlots implements ConcurrencySlots {
  readonly held = new Map<string, { key: string; holder: string; at: Date }>();
  constructor(private readonly now: () => Date = () => new Date()) {}

  async acquire(key: string, limit: number, holder: string): Promise<number | undefined> {
    for (let p = 1; p <= limit; p++) {
      const id = `${key}#${p}`;
      if (!this.held.has(id)) {
        this.held.set(id, { key, holder, at: this.now() });
        return p;
      }
    }
    return undefined;
  }

  async release(key: string, holder: string): Promise<boolean> {
    let any = false;
    for (const [id, h] of this.held) {
      if (h.key === key && h.holder === holder) {
        this.held.delete(id);
        any = true;
      }
    }
    return any;
  }

  async heldBefore(before: Date): Promise<{ key: string; holder: string }[]> {
    return [...this.held.values()].filter((h) => h.at < before).map(({ key, holder }) => ({ key, holder }));
  }

  holders(key: string): string[] {
    return [...this.held.values()].filter((h) => h.key === key).map((h) => h.holder);
  }
}

export class MemoryCounter implements MonthlyCounter {
  readonly counts = new Map<string, number>();

  async take(key: string, limit: number): Promise<number | undefined> {
    const n = this.counts.get(key) ?? 0;
    if (n >= limit) return undefined;
    this.counts.set(key, n + 1);
    return n + 1;
  }

  async count(key: string, limit: number): Promise<number> {
    return Math.min(this.counts.get(key) ?? 0, limit);
  }
}
