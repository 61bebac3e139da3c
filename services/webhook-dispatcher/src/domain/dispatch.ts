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

/** Writes the state an attempt ended in, given the lease it was made under. */
type Recorder = (d: Delivery, lease: Date) => Promise<void>;

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
 * ends, when it is made again under the same number. A first attempt is made by the consumer of
 * its event before any record (`first`): Kafka gives the event's partition to one consumer at a
 * time, and its offset waits for the record. So the receiver sees every attempt the history
 * counts, and at most one more per crash.
 */
export class Dispatcher {
  private readonly random: () => number;
  /**
   * First attempts in flight here, until their delivery is recorded: a copy of the event (produced
   * twice, or redelivered within one batch) waits for the attempt rather than making it again.
   */
  private readonly firsts = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: DispatcherDeps) {
    this.random = deps.random ?? Math.random;
  }

  /**
   * The deliveries of an event not yet recorded: one per active subscribed webhook that existed
   * when it happened. Nothing is written; a redelivered event whose deliveries are recorded has none.
   */
  async fanOut(event: DispatchEvent): Promise<Delivery[]> {
    const now = this.deps.now();
    // A webhook receives what happens from its creation on (clocks of two services may differ).
    const hooks = await this.deps.webhooks.subscribed(event.orgId, event.type);
    const all = hooks
      .filter((w) => event.occurredAt.getTime() >= w.createdAt.getTime() - CLOCK_SKEW_MS)
      .map((w) => deliveryOf(deliveryIdOf(event.id, w.id, event.occurredAt), w, event, now));
    // Read before a first attempt is made without a record (`first`): a redelivery sends nothing again.
    const stored = await this.deps.deliveries.stored(all.map((d) => d.id));
    return all.filter((d) => !stored.has(d.id));
  }

  /**
   * Records a new delivery: due now, or, `attemptNow`, with its first attempt's lease taken by the
   * caller (who then calls `attempt`). false when it exists: its event came again.
   */
  admit(d: Delivery, attemptNow: boolean): Promise<boolean> {
    if (attemptNow) d.leaseUntil = d.nextAttemptAt = this.leaseEnd();
    return this.deps.deliveries.add(d);
  }

  /**
   * Makes the first attempt of a new delivery (from `fanOut`) before it is recorded, so that one
   * answered within `handOverMs` costs one write: its insert, holding the result. `durable`
   * resolves once the delivery no longer needs its event: recorded with that result, or, still in
   * flight after `handOverMs`, recorded with this attempt's lease (its result then follows under
   * that lease, as for any attempt). `settled` resolves with the delivery as the attempt left it.
   * A holder that dies before either is replaced by Kafka's redelivery of the event, which makes
   * the attempt again: the receiver sees at most one more attempt per crash than the history counts.
   * `settled` resolves with undefined for a copy of a first attempt in flight here (nothing sent).
   */
  first(d: Delivery, handOverMs: number, answered?: () => void): { durable: Promise<unknown>; settled: Promise<Delivery | undefined> } {
    const inFlight = this.firsts.get(d.id);
    if (inFlight) return { durable: inFlight, settled: inFlight.then(() => undefined) };
    const lease = this.leaseEnd();
    // What a hand-over records: the delivery as not yet attempted, its lease held (`attempt` changes `d`).
    const pending: Delivery = { ...d, leaseUntil: lease, nextAttemptAt: lease };
    d.leaseUntil = d.nextAttemptAt = lease;
    let handedOver: Promise<boolean> | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const handOver = new Promise<boolean>((resolve, reject) => {
      timer = setTimeout(() => {
        handedOver = this.deps.deliveries.add(pending);
        handedOver.then(resolve, reject);
      }, handOverMs);
    });
    const record = async (done: Delivery, held: Date) => {
      clearTimeout(timer);
      // Not handed over: one insert (false: another consumer of the event recorded it first, and its record stands).
      if (!handedOver) return void (await this.deps.deliveries.add(done));
      // Handed over: the result as for any attempt; a hand-over that found the delivery recorded holds nothing.
      if (await handedOver) await this.deps.deliveries.settle(done, held);
    };
    const settled = this.attemptAndRecord(d, false, answered, record);
    // A failed attempt is not handed over: the event's redelivery makes it again.
    settled.catch(() => clearTimeout(timer));
    // A rejected hand-over also ends `durable`; `settled` reports its own failure to its caller.
    handOver.catch(() => undefined);
    const durable = Promise.race([settled, handOver]);
    this.firsts.set(d.id, durable);
    const done = () => void this.firsts.delete(d.id);
    durable.then(done, done);
    return { durable, settled };
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
  attempt(d: Delivery, manual = false, answered?: () => void): Promise<Delivery> {
    return this.attemptAndRecord(d, manual, answered, (done, lease) => this.deps.deliveries.settle(done, lease));
  }

  /** `attempt`, with the result written by `record` (under the lease the attempt was made with). */
  private async attemptAndRecord(d: Delivery, manual: boolean, answered: (() => void) | undefined, record: Recorder): Promise<Delivery> {
    const lease = d.leaseUntil!;
    const settle = (end: Partial<Delivery>, outcome?: AttemptOutcome) => this.settle(d, lease, end, record, outcome);
    const webhook = await this.deps.webhooks.get(d.orgId, d.webhookId);
    const isTest = d.event === TEST_EVENT;
    if (!webhook || (!webhook.active && !manual && !isTest)) {
      return settle({ status: "failed", error: webhook ? "webhook is inactive" : "webhook was deleted" });
    }
    if (!d.budgeted && !manual && !isTest) {
      const deferTo = await this.overHourlyCap(d.orgId);
      if (deferTo) return settle({ deferredUntil: deferTo, nextAttemptAt: deferTo }, "deferred");
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
      return settle({ status: "success", deliveredAt: done }, "success");
    }
    const error = result.error ?? `HTTP ${result.responseCode}`;
    if (!webhook.failingSince) await this.deps.webhooks.markFailing(webhook.orgId, webhook.id, done);
    const next = isTest ? undefined : nextAttemptAt(d.attempts, done, result.retryAfterMs, this.random, this.deps.delays);
    if (next) return settle({ status: "failed", error, nextAttemptAt: next }, "retry");
    const settled = await settle({ status: "failed", error }, "failed");
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
  private async settle(d: Delivery, lease: Date, end: Partial<Delivery>, record: Recorder, outcome?: AttemptOutcome): Promise<Delivery> {
    delete d.nextAttemptAt;
    delete d.leaseUntil;
    Object.assign(d, end);
    // Written only while the lease holds: once it expired, another holder made this attempt again and its result stands.
    await record(d, lease);
    if (outcome) this.deps.observer?.attempted(outcome, d);
    return d;
  }

  private async disable(w: Webhook, at: Date): Promise<void> {
    const reason = "every delivery attempt failed for 3 days; re-enable with PATCH active=true";
    if (await this.deps.webhooks.disable(w.orgId, w.id, reason, at)) this.deps.observer?.disabled(w, reason);
  }
}
