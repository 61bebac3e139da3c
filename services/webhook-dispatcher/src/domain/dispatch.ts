import { deliveryHeaders, deliveryIdOf, webhookBody } from "./payload.js";
import type { Clock, DeliveryStore, HourlyBudget, PlanPort, Sender, WebhookRepo } from "./ports.js";
import { nextAttemptAt, nextHour, shouldDisable } from "./schedule.js";
import { succeeded, TEST_EVENT, type Delivery, type DispatchEvent, type Webhook } from "./types.js";

/**
 * How long one replica holds an attempt: the 30 s deadline (DELIVERY_TIMEOUT_MS at most) with 15 s
 * to read before it and record after. A holder that dies is replaced once it ends, so it is as
 * short as that allows (it was 90 s; the fault run waits for one lease after its faults).
 */
export const LEASE_MS = 45_000;
/** How far an event's time may precede its webhook's creation and still be delivered (clock skew between services). */
export const CLOCK_SKEW_MS = 30_000;
/** Deferred deliveries spread over this much after the hour turns. */
const DEFER_SPREAD_MS = 60_000;

export type AttemptOutcome = "success" | "retry" | "failed" | "deferred";

/** Told about every attempt (metrics, logs); the domain stays free of both. */
export interface DispatchObserver {
  attempted(outcome: AttemptOutcome, d: Delivery): void;
  disabled(w: Webhook, reason: string): void;
}

export interface DispatcherDeps {
  webhooks: WebhookRepo;
  deliveries: DeliveryStore;
  plans: PlanPort;
  budget: HourlyBudget;
  sender: Sender;
  now: Clock;
  random?: () => number;
  observer?: DispatchObserver;
  /** The delay before each attempt; default the spec's (tests of a whole system shorten it). */
  delays?: readonly number[];
}

/** A new delivery of `event` to `w`, not yet attempted, due at `now`. */
export function deliveryOf(id: string, w: Webhook, event: DispatchEvent, now: Date): Delivery {
  return {
    id,
    orgId: w.orgId,
    webhookId: w.id,
    eventId: event.id,
    event: event.type,
    body: webhookBody(id, event),
    status: "pending",
    attempts: 0,
    responseCode: 0,
    responseTimeMs: 0,
    createdAt: now,
    nextAttemptAt: now,
    budgeted: false,
  };
}

/**
 * The delivery state machine: fan-out, attempts, their schedule. A delivery document carries its
 * state, its next attempt's due time and the lease of the attempt in flight. An attempt is made
 * by the one replica that took its lease (a conditional update of the delivery), and its result is
 * written only while that lease holds; a holder that dies leaves the attempt due when its lease
 * ends, when it is made again under the same number. So the receiver sees every attempt the
 * history counts, and at most one more per crash.
 */
export class Dispatcher {
  private readonly random: () => number;

  constructor(private readonly deps: DispatcherDeps) {
    this.random = deps.random ?? Math.random;
  }

  /** The deliveries of an event: one per active subscribed webhook that existed when it happened. Nothing is written. */
  async fanOut(event: DispatchEvent): Promise<Delivery[]> {
    const now = this.deps.now();
    // A webhook receives what happens from its creation on (clocks of two services may differ).
    const hooks = await this.deps.webhooks.subscribed(event.orgId, event.type);
    return hooks
      .filter((w) => event.occurredAt.getTime() >= w.createdAt.getTime() - CLOCK_SKEW_MS)
      .map((w) => deliveryOf(deliveryIdOf(event.id, w.id, event.occurredAt), w, event, now));
  }

  /**
   * Records a new delivery: due now, or, `attemptNow`, with its first attempt's lease taken by the
   * caller (who then calls `attempt`). false when it exists: its event came again.
   */
  admit(d: Delivery, attemptNow: boolean): Promise<boolean> {
    if (attemptNow) d.leaseUntil = d.nextAttemptAt = this.leaseEnd();
    return this.deps.deliveries.add(d);
  }

  /** Takes the next attempt of a delivery: when due, or at once when `manual`; undefined when not to be made by us. */
  take(id: string, manual = false): Promise<Delivery | undefined> {
    return this.deps.deliveries.take(id, this.deps.now(), this.leaseEnd(), manual);
  }

  private leaseEnd(): Date {
    return new Date(this.deps.now().getTime() + LEASE_MS);
  }

  /** Takes and makes every due attempt (up to `limit`, `parallel` at a time); returns how many were due. */
  async runDue(limit = 200, parallel = 16): Promise<number> {
    const due = await this.deps.deliveries.due(this.deps.now(), limit);
    let next = 0;
    const worker = async () => {
      while (next < due.length) {
        // Taken only when a worker is free, so the lease runs from the attempt, not from the poll.
        const d = await this.take(due[next++]!);
        if (d) await this.attempt(d);
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallel, due.length) }, worker));
    return due.length;
  }

  /**
   * Makes the attempt of a delivery whose lease the caller took (`admit`, `take`), and records its
   * result; `manual` (the API's retry and test) ignores the webhook's state and the hourly cap.
   * `answered` is called once the receiver has answered, before the result is written (a caller
   * bounding requests in flight frees its slot there). Returns the delivery as this attempt left it.
   */
  async attempt(d: Delivery, manual = false, answered?: () => void): Promise<Delivery> {
    const lease = d.leaseUntil!;
    const webhook = await this.deps.webhooks.get(d.orgId, d.webhookId);
    const isTest = d.event === TEST_EVENT;
    if (!webhook || (!webhook.active && !manual && !isTest)) {
      return this.settle(d, lease, { status: "failed", error: webhook ? "webhook is inactive" : "webhook was deleted" });
    }
    if (!d.budgeted && !manual && !isTest) {
      const deferTo = await this.overHourlyCap(d.orgId);
      if (deferTo) return this.settle(d, lease, { deferredUntil: deferTo, nextAttemptAt: deferTo }, "deferred");
      d.budgeted = true;
    }

    const result = await this.deps.sender.send({
      url: webhook.url,
      headers: deliveryHeaders({ deliveryId: d.id, event: d.event, body: d.body, now: this.deps.now(), ...(webhook.secret ? { secret: webhook.secret } : {}) }),
      body: d.body,
    });
    answered?.();
    const done = this.deps.now();
    d.attempts += 1;
    d.responseCode = result.responseCode;
    d.responseTimeMs = result.responseTimeMs;
    if (succeeded(result)) {
      if (webhook.failingSince) await this.deps.webhooks.clearFailing(webhook.orgId, webhook.id);
      delete d.error;
      return this.settle(d, lease, { status: "success", deliveredAt: done }, "success");
    }
    const error = result.error ?? `HTTP ${result.responseCode}`;
    if (!webhook.failingSince) await this.deps.webhooks.markFailing(webhook.orgId, webhook.id, done);
    const next = isTest ? undefined : nextAttemptAt(d.attempts, done, result.retryAfterMs, this.random, this.deps.delays);
    if (next) return this.settle(d, lease, { status: "failed", error, nextAttemptAt: next }, "retry");
    const settled = await this.settle(d, lease, { status: "failed", error }, "failed");
    if (!isTest && webhook.active && shouldDisable(webhook.failingSince, done)) await this.disable(webhook, done);
    return settled;
  }

  /** When the organization's events/hour are spent: the time in the next hour its delivery is deferred to. */
  private async overHourlyCap(orgId: string): Promise<Date | undefined> {
    const now = this.deps.now();
    const { eventsPerHour } = await this.deps.plans.webhookPlan(orgId);
    if (eventsPerHour === undefined || (await this.deps.budget.take(orgId, eventsPerHour, now))) return undefined;
    return new Date(nextHour(now).getTime() + Math.floor(this.random() * DEFER_SPREAD_MS));
  }

  /** Records the state an attempt ended in (its next attempt's due time, or none: final) and ends its lease. */
  private async settle(d: Delivery, lease: Date, end: Partial<Delivery>, outcome?: AttemptOutcome): Promise<Delivery> {
    delete d.nextAttemptAt;
    delete d.leaseUntil;
    Object.assign(d, end);
    // Written only while the lease holds: once it expired, another holder made this attempt again and its result stands.
    await this.deps.deliveries.settle(d, lease);
    if (outcome) this.deps.observer?.attempted(outcome, d);
    return d;
  }

  private async disable(w: Webhook, at: Date): Promise<void> {
    const reason = "every delivery attempt failed for 3 days; re-enable with PATCH active=true";
    if (await this.deps.webhooks.disable(w.orgId, w.id, reason, at)) this.deps.observer?.disabled(w, reason);
  }
}
