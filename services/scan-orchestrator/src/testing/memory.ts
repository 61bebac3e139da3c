import { withDuration } from "../domain/estimate.js";
import type { Activity, ScanDurations, ScanFilter, ScanLimits, ScanStore, ScheduleStore } from "../domain/ports.js";
import type { Page, PageRequest, ScanAnchor, ScanCommand, ScanEvent, ScanPage, ScanRecord, ScheduleRecord } from "../domain/types.js";
import { commandInit, eventPayload, type CommandInit } from "../events/messages.js";

/* In-memory stores for unit tests: the same contracts as the Mongo ones, inserts unique by id. */

const copy = <T>(x: T): T => structuredClone(x);

export class MemoryScanStore implements ScanStore {
  readonly scans = new Map<string, ScanRecord>();
  /** Stored, not yet published (by scan id). */
  private readonly pending = new Map<string, { events: ScanEvent[]; commands: ScanCommand[] }>();
  /** What was published, in order, as it travels (event type and payload; scanner records). */
  readonly published: { events: { type: string; payload: ReturnType<typeof eventPayload> }[]; commands: CommandInit[] } = { events: [], commands: [] };

  async insert(scan: ScanRecord, events: ScanEvent[], commands: ScanCommand[]): Promise<void> {
    if (this.scans.has(scan._id)) throw Object.assign(new Error("duplicate key"), { code: 11000 });
    this.scans.set(scan._id, copy(scan));
    this.pending.set(scan._id, { events, commands });
  }

  async get(orgId: string, scanId: string): Promise<ScanRecord | null> {
    const s = this.scans.get(scanId);
    return s && s.org_id === orgId ? copy(s) : null;
  }

  view(orgId: string, scanId: string): Promise<ScanRecord | null> {
    return this.get(orgId, scanId);
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

  async transition(from: ScanRecord, to: ScanRecord, events: ScanEvent[], commands: ScanCommand[]): Promise<boolean> {
    const stored = this.scans.get(from._id);
    if (!stored || stored.version !== from.version) return false;
    this.scans.set(to._id, copy(to));
    const p = this.pending.get(to._id) ?? { events: [], commands: [] };
    this.pending.set(to._id, { events: [...p.events, ...events], commands: [...p.commands, ...commands] });
    return true;
  }

  async recordActivity(scan: Pick<ScanRecord, "_id" | "attempt">, activity: Activity): Promise<void> {
    const s = this.scans.get(scan._id);
    if (s && s.attempt === scan.attempt && s.status === "running") Object.assign(s, copy(activity));
  }

  async activeAcrossOrganizations(limit: number, afterId?: string): Promise<ScanRecord[]> {
    return [...this.scans.values()]
      .filter((s) => s.status === "pending" || s.status === "running")
      .filter((s) => !afterId || s._id > afterId)
      .sort((a, b) => (a._id < b._id ? -1 : 1))
      .slice(0, limit)
      .map(copy);
  }

  async publish(scanId: string): Promise<void> {
    const p = this.pending.get(scanId);
    if (!p) return;
    this.pending.delete(scanId);
    this.published.events.push(...p.events.map((e) => ({ type: e.type, payload: eventPayload(e) })));
    this.published.commands.push(...p.commands.map(commandInit));
  }

  /** Event types published so far, in order. */
  eventTypes(): string[] {
    return this.published.events.map((e) => e.type);
  }
}

export class MemoryScheduleStore implements ScheduleStore {
  readonly schedules = new Map<string, ScheduleRecord>();

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

  /** The run last taken per schedule (the Mongo store keeps it on the schedule). */
  private readonly taken = new Map<string, number>();

  async takeRun(scheduleId: string, runAt: Date, next: Date): Promise<boolean> {
    const s = this.schedules.get(scheduleId);
    if (!s || s.next_run_at.getTime() !== runAt.getTime() || this.taken.get(scheduleId) === runAt.getTime()) return false;
    s.next_run_at = next;
    this.taken.set(scheduleId, runAt.getTime());
    return true;
  }

  async returnRun(scheduleId: string, runAt: Date, next: Date): Promise<void> {
    const s = this.schedules.get(scheduleId);
    if (!s || s.next_run_at.getTime() !== next.getTime() || this.taken.get(scheduleId) !== runAt.getTime()) return;
    s.next_run_at = runAt;
    this.taken.delete(scheduleId);
  }

  async skipRun(scheduleId: string, runAt: Date, next: Date): Promise<void> {
    const s = this.schedules.get(scheduleId);
    if (s && s.next_run_at.getTime() === runAt.getTime() && this.taken.get(scheduleId) === runAt.getTime()) s.next_run_at = next;
  }

  async recordRun(scheduleId: string, outcome: { scanId?: string; error?: string }, at: Date): Promise<void> {
    const s = this.schedules.get(scheduleId);
    if (!s) return;
    s.last_run_at = at;
    s.last_error = outcome.error ?? "";
    if (outcome.scanId) s.last_scan_id = outcome.scanId;
  }
}

/** In-memory ScanDurations (unit tests): the same running summary as storage/durations.ts. */
export class MemoryScanDurations implements ScanDurations {
  readonly byKey = new Map<string, number[]>();

  async record(orgId: string, scanType: string, seconds: number): Promise<void> {
    const key = `${orgId}|${scanType}`;
    this.byKey.set(key, withDuration(this.byKey.get(key) ?? [], seconds));
  }

  async recent(orgId: string, scanType: string): Promise<number[]> {
    return [...(this.byKey.get(`${orgId}|${scanType}`) ?? [])];
  }
}

export class MemoryScanLimits implements ScanLimits {
  /** Holders of places per organization. */
  readonly places = new Map<string, string[]>();
  /** Scans counted per `<org>:<month>`. */
  readonly months = new Map<string, number>();

  async holdPlace(orgId: string, scanId: string, limit: number): Promise<boolean> {
    const held = this.places.get(orgId) ?? [];
    if (held.length >= limit || held.includes(scanId)) return false;
    this.places.set(orgId, [...held, scanId]);
    return true;
  }

  async freePlace(orgId: string, scanId: string): Promise<void> {
    this.places.set(
      orgId,
      (this.places.get(orgId) ?? []).filter((id) => id !== scanId),
    );
  }

  async placesHeld(): Promise<{ orgId: string; scanId: string }[]> {
    return [...this.places].flatMap(([orgId, held]) => held.map((scanId) => ({ orgId, scanId })));
  }

  /** Every scan holding a place, of any organization. */
  holders(): string[] {
    return [...this.places.values()].flat();
  }

  async countScan(orgId: string, month: string, limit: number): Promise<boolean> {
    const n = this.months.get(`${orgId}:${month}`) ?? 0;
    if (n >= limit) return false;
    this.months.set(`${orgId}:${month}`, n + 1);
    return true;
  }

  async scansCounted(orgId: string, month: string): Promise<number> {
    return this.months.get(`${orgId}:${month}`) ?? 0;
  }
}
