import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { newId, notFound } from "@vulnscan/kit";
import { type EventEnvelope, EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { deliveryHeaders, deliveryIdOf, webhookBody } from "./payload.js";
import type { Clock, DeliveryFilter, DeliveryRepo, HourlyBudget, PlanPort, Schedule, Sender, WebhookRepo } from "./ports.js";
import { nextAttemptAt, nextHour, shouldDisable } from "./schedule.js";
import { isDeliverable, succeeded, TEST_EVENT, type Delivery, type Webhook } from "./types.js";
import type { WebhookRegistry } from "./webhooks.js";

/** How long one replica holds an attempt: past the 30 s deadline with room to record it. */
export const LEASE_MS = 90_000;
/** How far an event's time may precede its webhook's creation and still be delivered (clock skew between services). */
export const CLOCK_SKEW_MS = 30_000;
/** Deferred deliveries spread over this much after the hour turns. */
const DEFER_SPREAD_MS = 60_000;
export const REPLAY_MAX = 1000;

export type AttemptOutcome = "success" | "retry" | "failed" | "deferred";

/** Told about every attempt (metrics, logs); the domain stays free of both. */
export interface DispatchObserver {
  attempted(outcome: AttemptOutcome, d: Delivery): void;
  disabled(w: Webhook, reason: string): void;
}

export interface DispatcherDeps {
  webhooks: WebhookRepo;
  deliveries: DeliveryRepo;
  schedule: Schedule;
  plans: PlanPort;
  budget: HourlyBudget;
  sender: Sender;
  registry: WebhookRegistry;
  now: Clock;
  random?: () => number;
  observer?: DispatchObserver;
  /** The delay before each attempt; default the spec's (tests of a whole system shorten it). */
  delays?: readonly number[];
}

/** A delivery whose attempt is due now; `leased` when this caller already holds that attempt's lease. */
export interface Due {
  delivery: Delivery;
  leased: boolean;
}

const isFinal = (d: Delivery) => d.status === "success" || (d.status === "failed" && !d.nextRetry);

/**
 * Fan-out, attempts and their schedule. A delivery exists once per (event, webhook) — its id is
 * derived from both and inserted under a unique key —, each attempt is made by the one replica
 * holding its lease, and every state change is written before the schedule moves, so a crash at
 * any point leaves either a due entry or a final delivery, never a lost or doubled attempt.
 */
export class Dispatcher {
  private readonly random: () => number;

  constructor(private readonly deps: DispatcherDeps) {
    this.random = deps.random ?? Math.random;
  }

  /**
   * One delivery per active subscribed webhook; returns those with an attempt due now. The first
   * attempt's lease is taken beside the insert (one round trip instead of two before the first
   * send): `leased` when it was free, so `attempt(…, leased)` may skip its own claim. A caller
   * that does not attempt a leased delivery at once gives the lease back with `unlease`.
   */
  async fanOut(env: EventEnvelope): Promise<Due[]> {
    if (!isDeliverable(env.type) || !env.orgId || !env.id) return [];
    const now = this.deps.now();
    const occurredAt = env.occurredAt ? timestampDate(env.occurredAt) : now;
    // A webhook receives what happens from its creation on (clocks of two services may differ).
    const hooks = (await this.deps.webhooks.subscribed(env.orgId, env.type)).filter((w) => occurredAt.getTime() >= w.createdAt.getTime() - CLOCK_SKEW_MS);
    const due: Due[] = [];
    for (const w of hooks) {
      const id = deliveryIdOf(env.id, w.id, occurredAt);
      const d = this.newDelivery(id, w, env, now);
      const [created, lease] = await Promise.all([this.deps.deliveries.insertOnce(d), this.deps.schedule.claim(id, 1, now, LEASE_MS)]);
      if (created) {
        await this.deps.schedule.add(id, now);
        due.push({ delivery: d, leased: lease === "fresh" });
        continue;
      }
      // A redelivered event. A lease that was free is given back as it was (no lease: attempt 1
      // not made); a retaken one stays, since an expired lease may stand for a made attempt.
      if (lease === "fresh") await this.deps.schedule.release(id, 1);
      // Schedule it again only if the first pass stopped before its entry.
      const existing = await this.deps.deliveries.get(id);
      if (existing?.status !== "pending" || existing.attempts > 0 || existing.deferredUntil) continue;
      await this.deps.schedule.put(id, now);
      due.push({ delivery: existing, leased: false });
    }
    return due;
  }

  /** Gives back the first attempt's lease of a delivery `fanOut` leased but nobody attempted. */
  async unlease(due: Due): Promise<void> {
    if (due.leased) await this.deps.schedule.release(due.delivery.id, due.delivery.attempts + 1);
  }

  private newDelivery(id: string, w: Webhook, env: EventEnvelope, now: Date): Delivery {
    return {
      id,
      orgId: w.orgId,
      webhookId: w.id,
      eventId: env.id,
      event: env.type,
      body: webhookBody(id, env),
      status: "pending",
      attempts: 0,
      responseCode: 0,
      responseTimeMs: 0,
      createdAt: now,
      nextRetry: now,
      budgeted: false,
    };
  }

  /** Attempts every due delivery (up to `limit`, `parallel` at a time); returns how many were looked at. */
  async runDue(limit = 200, parallel = 16): Promise<number> {
    const due = await this.deps.schedule.due(this.deps.now(), limit);
    let next = 0;
    const worker = async () => {
      while (next < due.length) {
        const entry = due[next++]!;
        await this.attempt(entry.deliveryId);
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallel, due.length) }, worker));
    return due.length;
  }

  /**
   * Makes the next attempt of a delivery if it is due (or at once when `manual`), under its
   * lease. Returns the delivery as it now stands, or undefined when another replica holds it.
   */
  async attempt(id: string, manual = false, known?: Delivery, leased = false): Promise<Delivery | undefined> {
    const { deliveries, schedule } = this.deps;
    const now = this.deps.now();
    const seen = known ?? (await deliveries.get(id));
    if (!seen) return void (await schedule.remove(id));
    if (!manual && isFinal(seen)) {
      await schedule.remove(id);
      return seen;
    }
    if (!manual && seen.nextRetry && seen.nextRetry > now) {
      await schedule.put(id, seen.nextRetry); // a stale entry (a crash between the two writes): heal it
      return seen;
    }
    const attemptNo = seen.attempts + 1;
    const claim = leased ? "fresh" : await schedule.claim(id, attemptNo, now, LEASE_MS);
    if (!claim) return undefined;
    // A fresh lease of attempt N means nobody made attempt N (its lease would still exist), so
    // what we read stands; a lease retaken after expiry may follow a holder that finished late.
    const d = claim === "fresh" ? seen : await deliveries.get(id);
    if (!d || d.attempts + 1 !== attemptNo) return d;

    const webhook = await this.deps.webhooks.get(d.orgId, d.webhookId);
    const isTest = d.event === TEST_EVENT;
    if (!webhook || (!webhook.active && !manual && !isTest)) {
      return this.finish(d, { status: "failed", error: webhook ? "webhook is inactive" : "webhook was deleted" });
    }
    if (!d.budgeted && !manual && !isTest && (await this.overHourlyCap(d, now))) return d;

    const sentAt = this.deps.now();
    const result = await this.deps.sender.send({
      url: webhook.url,
      headers: deliveryHeaders({ deliveryId: d.id, event: d.event, body: d.body, now: sentAt, ...(webhook.secret ? { secret: webhook.secret } : {}) }),
      body: d.body,
    });
    const done = this.deps.now();
    d.attempts = attemptNo;
    d.responseCode = result.responseCode;
    d.responseTimeMs = result.responseTimeMs;
    if (succeeded(result)) {
      if (webhook.failingSince) await this.deps.webhooks.clearFailing(webhook.orgId, webhook.id);
      return this.finish(d, { status: "success", deliveredAt: done }, "success");
    }
    const next = isTest ? undefined : nextAttemptAt(attemptNo, done, result.retryAfterMs, this.random, this.deps.delays);
    d.error = result.error ?? `HTTP ${result.responseCode}`;
    if (!webhook.failingSince) await this.deps.webhooks.markFailing(webhook.orgId, webhook.id, done);
    if (next) return this.reschedule(d, next, "retry");
    const finished = await this.finish(d, { status: "failed", error: d.error }, "failed");
    if (!isTest && webhook.active && shouldDisable(webhook.failingSince, done)) await this.disable(webhook);
    return finished;
  }

  /** Takes one event from the organization's hourly budget; when none is left, defers the delivery to the next hour. */
  private async overHourlyCap(d: Delivery, now: Date): Promise<boolean> {
    const plan = await this.deps.plans.webhookPlan(d.orgId);
    if (plan.eventsPerHour !== undefined && !(await this.deps.budget.take(d.orgId, plan.eventsPerHour, now))) {
      const until = new Date(nextHour(now).getTime() + Math.floor(this.random() * DEFER_SPREAD_MS));
      d.deferredUntil = until;
      await this.reschedule(d, until, "deferred");
      await this.deps.schedule.release(d.id, d.attempts + 1);
      return true;
    }
    d.budgeted = true;
    return false;
  }

  private async reschedule(d: Delivery, at: Date, outcome: AttemptOutcome): Promise<Delivery> {
    d.nextRetry = at;
    if (outcome === "retry") d.status = "failed";
    await this.deps.deliveries.save(d);
    await this.deps.schedule.put(d.id, at);
    this.deps.observer?.attempted(outcome, d);
    return d;
  }

  private async finish(d: Delivery, end: Partial<Delivery> & Pick<Delivery, "status">, outcome?: AttemptOutcome): Promise<Delivery> {
    Object.assign(d, end);
    delete d.nextRetry;
    if (d.status === "success") delete d.error;
    await this.deps.deliveries.save(d);
    await this.deps.schedule.remove(d.id);
    if (outcome) this.deps.observer?.attempted(outcome, d);
    return d;
  }

  private async disable(w: Webhook): Promise<void> {
    const reason = "every delivery attempt failed for 3 days; re-enable with PATCH active=true";
    await this.deps.webhooks.save({ ...w, active: false, disabledReason: reason, updatedAt: this.deps.now() });
    this.deps.observer?.disabled(w, reason);
  }

  /** The test operation: a webhook.test delivery sent now, once, recorded like any other. */
  async test(orgId: string, webhookId: string): Promise<Delivery> {
    const w = await this.deps.registry.get(orgId, webhookId);
    const now = this.deps.now();
    const env = create(EventEnvelopeSchema, {
      id: newId("evt", now.getTime()),
      type: TEST_EVENT,
      orgId,
      occurredAt: timestampFromDate(now),
      payload: { case: "webhookTest", value: { webhookId, message: "This is a test event from vulnscan" } },
    });
    const d = this.newDelivery(newId("delivery", now.getTime()), w, env, now);
    await this.deps.deliveries.insertOnce(d);
    return (await this.attempt(d.id, true)) ?? d;
  }

  async listDeliveries(orgId: string, webhookId: string, filter: DeliveryFilter, page: number, perPage: number) {
    await this.deps.registry.get(orgId, webhookId);
    return this.deps.deliveries.list(orgId, webhookId, filter, (page - 1) * perPage, perPage);
  }

  private async ownDelivery(orgId: string, webhookId: string, deliveryId: string): Promise<Delivery> {
    await this.deps.registry.get(orgId, webhookId);
    const d = await this.deps.deliveries.get(deliveryId);
    if (!d || d.orgId !== orgId || d.webhookId !== webhookId) throw notFound("Delivery");
    return d;
  }

  /** Replays one delivery now (beyond the spec); a failure schedules the next step if attempts remain. */
  async retry(orgId: string, webhookId: string, deliveryId: string): Promise<Delivery> {
    const d = await this.ownDelivery(orgId, webhookId, deliveryId);
    return (await this.attempt(d.id, true)) ?? d;
  }

  /** Schedules every final failed delivery created in [from, to) for one more attempt now. */
  async replayFailed(orgId: string, webhookId: string, from: Date, to: Date): Promise<number> {
    await this.deps.registry.get(orgId, webhookId);
    const now = this.deps.now();
    const failed = await this.deps.deliveries.failedBetween(orgId, webhookId, from, to, REPLAY_MAX);
    for (const d of failed) {
      d.nextRetry = now;
      await this.deps.deliveries.save(d);
      await this.deps.schedule.put(d.id, now);
    }
    return failed.length;
  }
}
