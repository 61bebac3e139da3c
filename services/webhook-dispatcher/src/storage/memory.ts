// In-memory adapters of the domain's ports, for unit tests only.
import { isDeliverable } from "../domain/types.js";
import type { Delivery, Webhook } from "../domain/types.js";
import type { DeliveryFilter, DeliveryRepo, HourlyBudget, Page, Schedule, WebhookRepo, WebhookSlots } from "../domain/ports.js";

const page = <T>(all: T[], skip: number, limit: number): Page<T> => ({ items: all.slice(skip, skip + limit), total: all.length });
const copy = <T extends object>(v: T): T => structuredClone(v);

export class MemoryWebhooks implements WebhookRepo {
  readonly rows = new Map<string, Webhook>();

  async insert(w: Webhook) {
    if (this.rows.has(w.id)) throw new Error("duplicate webhook id");
    this.rows.set(w.id, copy(w));
  }
  async get(orgId: string, id: string) {
    const w = this.rows.get(id);
    return w && w.orgId === orgId ? copy(w) : undefined;
  }
  async list(orgId: string, skip: number, limit: number) {
    const all = [...this.rows.values()].filter((w) => w.orgId === orgId).sort((a, b) => a.id.localeCompare(b.id));
    return page(all.map(copy), skip, limit);
  }
  async save(w: Webhook) {
    if (this.rows.get(w.id)?.orgId === w.orgId) this.rows.set(w.id, copy(w));
  }
  async remove(orgId: string, id: string) {
    return this.rows.get(id)?.orgId === orgId && this.rows.delete(id);
  }
  async subscribed(orgId: string, event: string) {
    return isDeliverable(event) ? [...this.rows.values()].filter((w) => w.orgId === orgId && w.active && w.events.includes(event)).map(copy) : [];
  }
  async markFailing(orgId: string, id: string, at: Date) {
    const w = this.rows.get(id);
    if (w?.orgId === orgId && !w.failingSince) w.failingSince = at;
  }
  async clearFailing(orgId: string, id: string) {
    const w = this.rows.get(id);
    if (w?.orgId === orgId) delete w.failingSince;
  }
}

export class MemorySlots implements WebhookSlots {
  private readonly held = new Map<string, Set<string>>();
  async acquire(orgId: string, limit: number, webhookId: string) {
    const set = this.held.get(orgId) ?? new Set();
    this.held.set(orgId, set);
    if (set.size >= limit) return false;
    set.add(webhookId);
    return true;
  }
  async release(orgId: string, webhookId: string) {
    this.held.get(orgId)?.delete(webhookId);
  }
}

export class MemoryDeliveries implements DeliveryRepo {
  readonly rows = new Map<string, Delivery>();
  async insertOnce(d: Delivery) {
    if (this.rows.has(d.id)) return false;
    this.rows.set(d.id, copy(d));
    return true;
  }
  async get(id: string) {
    const d = this.rows.get(id);
    return d ? copy(d) : undefined;
  }
  async save(d: Delivery) {
    const stored = this.rows.get(d.id);
    if (stored && stored.attempts > d.attempts) return;
    this.rows.set(d.id, copy(d));
  }
  async list(orgId: string, webhookId: string, filter: DeliveryFilter, skip: number, limit: number) {
    const all = [...this.rows.values()]
      .filter(
        (d) => d.orgId === orgId && d.webhookId === webhookId && (!filter.status || d.status === filter.status) && (!filter.event || d.event === filter.event),
      )
      .sort((a, b) => b.id.localeCompare(a.id));
    return page(all.map(copy), skip, limit);
  }
  async failedBetween(orgId: string, webhookId: string, from: Date, to: Date, limit: number) {
    return [...this.rows.values()]
      .filter((d) => d.orgId === orgId && d.webhookId === webhookId && d.status === "failed" && !d.nextRetry && d.createdAt >= from && d.createdAt < to)
      .slice(0, limit)
      .map(copy);
  }
}

export class MemorySchedule implements Schedule {
  readonly entries = new Map<string, Date>();
  readonly leases = new Map<string, Date>();
  async put(id: string, at: Date) {
    this.entries.set(id, at);
  }
  async enter(id: string, at: Date) {
    const held = this.entries.get(id);
    if (!held || at < held) this.entries.set(id, at);
  }
  async remove(id: string) {
    this.entries.delete(id);
  }
  async due(now: Date, limit: number) {
    return [...this.entries]
      .filter(([, at]) => at <= now)
      .sort((a, b) => a[1].getTime() - b[1].getTime())
      .slice(0, limit)
      .map(([deliveryId, dueAt]) => ({ deliveryId, dueAt }));
  }
  async stats() {
    const times = [...this.entries.values()].sort((a, b) => a.getTime() - b.getTime());
    return { depth: times.length, ...(times[0] ? { oldestDueAt: times[0] } : {}) };
  }
  async claim(id: string, attempt: number, now: Date, leaseMs: number) {
    const key = `${id}#${attempt}`;
    const held = this.leases.get(key);
    if (held && held >= now) return undefined;
    this.leases.set(key, new Date(now.getTime() + leaseMs));
    return held ? ("retaken" as const) : ("fresh" as const);
  }
  async release(id: string, attempt: number) {
    if (this.leases.has(`${id}#${attempt}`)) this.leases.set(`${id}#${attempt}`, new Date(0));
  }
}

export class MemoryBudget implements HourlyBudget {
  private readonly counts = new Map<string, number>();
  async take(orgId: string, limit: number, now: Date) {
    const key = `${orgId}#${now.toISOString().slice(0, 13)}`;
    const n = this.counts.get(key) ?? 0;
    if (n >= limit) return false;
    this.counts.set(key, n + 1);
    return true;
  }
}
