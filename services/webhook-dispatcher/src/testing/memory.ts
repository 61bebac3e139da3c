// In-memory adapters of the domain's ports, for unit tests only.
import type { DeliveryFilter, DeliveryStore, HourlyBudget, Page, WebhookCount, WebhookRepo } from "../domain/ports.js";
import type { Delivery, Webhook } from "../domain/types.js";

const page = <T>(all: T[], skip: number, limit: number): Page<T> => ({ items: all.slice(skip, skip + limit), total: all.length });
const copy = <T extends object>(v: T): T => structuredClone(v);

export class MemoryWebhooks implements WebhookRepo {
  readonly rows = new Map<string, Webhook>();

  private own(orgId: string, id: string) {
    const w = this.rows.get(id);
    return w?.orgId === orgId ? w : undefined;
  }
  async insert(w: Webhook) {
    if (this.rows.has(w.id)) throw new Error("duplicate webhook id");
    this.rows.set(w.id, copy(w));
  }
  async get(orgId: string, id: string) {
    const w = this.own(orgId, id);
    return w && copy(w);
  }
  async list(orgId: string, skip: number, limit: number) {
    const all = [...this.rows.values()].filter((w) => w.orgId === orgId).sort((a, b) => a.id.localeCompare(b.id));
    return page(all.map(copy), skip, limit);
  }
  async update(w: Webhook, restart: boolean) {
    const stored = this.own(w.orgId, w.id);
    if (!stored) return;
    const { disabledReason, failingSince } = stored;
    this.rows.set(w.id, { ...copy(w), ...(restart ? {} : { disabledReason, failingSince }) });
  }
  async remove(orgId: string, id: string) {
    return this.own(orgId, id) !== undefined && this.rows.delete(id);
  }
  async subscribed(orgId: string, event: string) {
    return [...this.rows.values()].filter((w) => w.orgId === orgId && w.active && w.events.includes(event)).map(copy);
  }
  async markFailing(orgId: string, id: string, at: Date) {
    const w = this.own(orgId, id);
    if (w && !w.failingSince) w.failingSince = at;
  }
  async clearFailing(orgId: string, id: string) {
    const w = this.own(orgId, id);
    if (w) delete w.failingSince;
  }
  async disable(orgId: string, id: string, reason: string, at: Date) {
    const w = this.own(orgId, id);
    if (!w?.active) return false;
    Object.assign(w, { active: false, disabledReason: reason, updatedAt: at });
    return true;
  }
}

export class MemoryWebhookCount implements WebhookCount {
  private readonly held = new Map<string, Set<string>>();
  async reserve(orgId: string, limit: number, webhookId: string) {
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

export class MemoryDeliveries implements DeliveryStore {
  readonly rows = new Map<string, Delivery>();
  async add(d: Delivery) {
    if (this.rows.has(d.id)) return false;
    this.rows.set(d.id, copy(d));
    return true;
  }
  async get(id: string) {
    const d = this.rows.get(id);
    return d && copy(d);
  }
  async stored(ids: readonly string[]) {
    return new Set(ids.filter((id) => this.rows.has(id)));
  }
  async due(now: Date, limit: number) {
    return [...this.rows.values()]
      .filter((d) => d.nextAttemptAt && d.nextAttemptAt <= now)
      .sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime())
      .slice(0, limit)
      .map((d) => d.id);
  }
  async take(id: string, now: Date, leaseUntil: Date, manual: boolean) {
    const d = this.rows.get(id);
    const free = manual ? !d?.leaseUntil || d.leaseUntil < now : d?.nextAttemptAt && d.nextAttemptAt <= now;
    if (!d || !free) return undefined;
    d.leaseUntil = d.nextAttemptAt = leaseUntil;
    return copy(d);
  }
  async settle(d: Delivery, lease: Date) {
    if (this.rows.get(d.id)?.leaseUntil?.getTime() === lease.getTime()) this.rows.set(d.id, copy(d));
  }
  async list(orgId: string, webhookId: string, filter: DeliveryFilter, skip: number, limit: number) {
    const all = [...this.rows.values()]
      .filter(
        (d) => d.orgId === orgId && d.webhookId === webhookId && (!filter.status || d.status === filter.status) && (!filter.event || d.event === filter.event),
      )
      .sort((a, b) => b.id.localeCompare(a.id));
    return page(all.map(copy), skip, limit);
  }
  async replayFailed(orgId: string, webhookId: string, from: Date, to: Date, now: Date, limit: number) {
    const failed = [...this.rows.values()]
      .filter((d) => d.orgId === orgId && d.webhookId === webhookId && d.status === "failed" && !d.nextAttemptAt && d.createdAt >= from && d.createdAt < to)
      .slice(0, limit);
    for (const d of failed) d.nextAttemptAt = now;
    return failed.length;
  }
  async stats() {
    const times = [...this.rows.values()].flatMap((d) => (d.nextAttemptAt ? [d.nextAttemptAt] : [])).sort((a, b) => a.getTime() - b.getTime());
    return { depth: times.length, ...(times[0] ? { oldestDueAt: times[0] } : {}) };
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
