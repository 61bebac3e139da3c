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
/** Bound of the abandoned first attempts remembered (see `Dispatcher.abandoned`). */
const ABANDONED_MAX = 10_000;

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

/** How a caller makes an attempt (see `Dispatcher.attempt`). */
export interface AttemptOptions {
  /** Made now whatever the schedule says (the API's retry and test operations). */
  manual?: boolean;
  /** The delivery as the caller just read or created it (saves a read). */
  known?: Delivery;
  /** The caller holds this attempt's lease already (`fanOut` took it), and the delivery may not be stored yet. */
  owned?: boolean;
  /** For an owned attempt: whether it has been handed to the schedule meanwhile (it has an entry). */
  handedOver?: () => boolean;
  /** Called once the receiver has answered, before the result is written (frees the caller's slot). */
  answered?: () => void;
}

/** Where an attempt's result is written (see `attempt`). */
interface Writes {
  record: boolean;
  entered: () => boolean;
}

const isFinal = (d: Delivery) => d.status === "success" || (d.status === "failed" && !d.nextRetry);

/**
 * Fan-out, attempts and their schedule. Each attempt is made by the one replica holding its
 * lease, an insert-once document per (delivery, attempt number); the first attempt's lease is
 * also the exactly-once key of the (event, webhook) pair, since the delivery id derives from both.
 * Every state change is written before the schedule moves, so a crash at any point leaves either
 * a due entry, an event Kafka redelivers, or a final delivery: never a lost or doubled attempt.
 *
 * The hot path is two inserts a delivery: the first attempt's lease, then the delivery record
 * with the attempt's result. Updates cost a MongoDB-protocol server several times an insert
 * (FerretDB measured in docs/decisions.md), and the consumer resolves an event's offset only once
 * its deliveries are recorded or handed to the schedule (`handOver`), so a first attempt needs no
 * schedule entry. The price: a first attempt in flight (at most the 30 s deadline) is not yet in
 * the delivery history.
 */
export class Dispatcher {
  private readonly random: () => number;
  /**
   * First attempts whose lease this process holds and whose run failed (the database went away
   * mid-attempt) before the delivery was recorded or handed over. A redelivery of the event takes
   * them back at once instead of waiting out the lease nobody else holds. Memory only: after a
   * restart the lease is waited out as for any holder that died.
   */
  private readonly abandoned = new Set<string>();

  constructor(private readonly deps: DispatcherDeps) {
    this.random = deps.random ?? Math.random;
  }

  /**
   * One delivery per active subscribed webhook. Returns the deliveries whose first attempt's
   * lease this call took: the caller attempts them (`attempt` with `owned`) or hands them over.
   * A redelivered event whose delivery was never recorded (its first holder crashed, or is late)
   * is handed to the schedule for when that lease expires, and returns nothing.
   */
  async fanOut(env: EventEnvelope): Promise<Delivery[]> {
    if (!isDeliverable(env.type) || !env.orgId || !env.id) return [];
    const now = this.deps.now();
    const occurredAt = env.occurredAt ? timestampDate(env.occurredAt) : now;
    // A webhook receives what happens from its creation on (clocks of two services may differ).
    const hooks = (await this.deps.webhooks.subscribed(env.orgId, env.type)).filter((w) => occurredAt.getTime() >= w.createdAt.getTime() - CLOCK_SKEW_MS);
    const leased = await Promise.all(
      hooks.map(async (w) => {
        const d = this.newDelivery(deliveryIdOf(env.id, w.id, occurredAt), w, env, now);
        const lease = await this.deps.schedule.claim(d.id, 1, now, LEASE_MS);
        if (lease === "fresh") return d;
        const existing = await this.deps.deliveries.get(d.id);
        // Nothing recorded, and either an expired lease retaken (its holder died before the
        // attempt ended) or a lease this process holds for an attempt that failed to run.
        const ours = this.abandoned.delete(d.id);
        if (!existing && (lease === "retaken" || ours)) return d;
        if (!existing) return void (await this.handOver(d, "after-lease"));
        // A lease given back by a handover, retaken by this redelivery: give it back again.
        if (lease === "retaken") await this.deps.schedule.release(d.id, 1);
        await this.ensureEntry(existing, now);
        return undefined;
      }),
    );
    return leased.filter((d): d is Delivery => d !== undefined);
  }

  /**
   * Gives a first attempt to the schedule: records the delivery as pending and enters it, `now`
   * with the lease given back (nobody attempted it), or `after-lease` (its holder is still at it
   * or crashed: the schedule takes it once the lease expires, so a holder that is only slow is
   * never doubled). A delivery recorded meanwhile by its holder needs no entry.
   */
  async handOver(d: Delivery, when: "now" | "after-lease"): Promise<void> {
    await this.handOverOnce(d, when);
    this.abandoned.delete(d.id);
  }

  private async handOverOnce(d: Delivery, when: "now" | "after-lease"): Promise<void> {
    const now = this.deps.now();
    if (!(await this.deps.deliveries.insertOnce(d))) {
      const stored = await this.deps.deliveries.get(d.id);
      if (stored) await this.ensureEntry(stored, now);
      return;
    }
    await this.deps.schedule.enter(d.id, when === "now" ? now : this.leaseEnd(d.createdAt));
    if (when === "now") await this.deps.schedule.release(d.id, 1);
  }

  /**
   * Enters a recorded delivery that is not final (its entry may be missing after a crash between
   * two writes): at its next attempt, or, never attempted, once a holder's lease has expired.
   */
  private async ensureEntry(d: Delivery, now: Date): Promise<void> {
    if (isFinal(d)) return;
    const planned = d.attempts > 0 || d.deferredUntil ? d.nextRetry : undefined;
    await this.deps.schedule.enter(d.id, planned ?? this.leaseEnd(now));
  }

  private leaseEnd(takenAt: Date): Date {
    return new Date(takenAt.getTime() + LEASE_MS);
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
  async attempt(id: string, opts: AttemptOptions = {}): Promise<Delivery | undefined> {
    if (!opts.owned) return this.attemptOnce(id, opts);
    try {
      return await this.attemptOnce(id, opts);
    } catch (err) {
      if (this.abandoned.size >= ABANDONED_MAX) this.abandoned.clear(); // only ever a wait of LEASE_MS lost
      this.abandoned.add(id);
      throw err;
    }
  }

  private async attemptOnce(id: string, opts: AttemptOptions): Promise<Delivery | undefined> {
    const { deliveries, schedule } = this.deps;
    const { manual = false, owned = false } = opts;
    // Where the result goes: an owned first attempt's delivery may not be stored yet, and only
    // an attempt that was scheduled (or handed over meanwhile) has an entry to remove.
    const w: Writes = { record: owned, entered: () => !owned || (opts.handedOver?.() ?? false) };
    const now = this.deps.now();
    const seen = opts.known ?? (await deliveries.get(id));
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
    const claim = owned ? "fresh" : await schedule.claim(id, attemptNo, now, LEASE_MS);
    if (!claim) return undefined;
    // A fresh lease of attempt N ≥ 2 means nobody made attempt N (its lease would still exist),
    // so what we read stands. A first attempt's lease may have been given back by a handover, and
    // a lease retaken after expiry may follow a holder that finished late: read again.
    const d = owned || (claim === "fresh" && attemptNo > 1) ? seen : await deliveries.get(id);
    if (!d || d.attempts + 1 !== attemptNo) return d;

    const webhook = await this.deps.webhooks.get(d.orgId, d.webhookId);
    const isTest = d.event === TEST_EVENT;
    if (!webhook || (!webhook.active && !manual && !isTest)) {
      return this.finish(d, { status: "failed", error: webhook ? "webhook is inactive" : "webhook was deleted" }, w);
    }
    if (!d.budgeted && !manual && !isTest && (await this.overHourlyCap(d, now, w))) return d;

    const sentAt = this.deps.now();
    const result = await this.deps.sender.send({
      url: webhook.url,
      headers: deliveryHeaders({ deliveryId: d.id, event: d.event, body: d.body, now: sentAt, ...(webhook.secret ? { secret: webhook.secret } : {}) }),
      body: d.body,
    });
    const done = this.deps.now();
    opts.answered?.();
    d.attempts = attemptNo;
    d.responseCode = result.responseCode;
    d.responseTimeMs = result.responseTimeMs;
    if (succeeded(result)) {
      if (webhook.failingSince) await this.deps.webhooks.clearFailing(webhook.orgId, webhook.id);
      return this.finish(d, { status: "success", deliveredAt: done }, w, "success");
    }
    const next = isTest ? undefined : nextAttemptAt(attemptNo, done, result.retryAfterMs, this.random, this.deps.delays);
    d.error = result.error ?? `HTTP ${result.responseCode}`;
    if (!webhook.failingSince) await this.deps.webhooks.markFailing(webhook.orgId, webhook.id, done);
    if (next) return this.reschedule(d, next, "retry", w);
    const finished = await this.finish(d, { status: "failed", error: d.error }, w, "failed");
    if (!isTest && webhook.active && shouldDisable(webhook.failingSince, done)) await this.disable(webhook);
    return finished;
  }

  /** Writes an attempt's state: an insert when the delivery may not be stored yet, else an update. */
  private async write(d: Delivery, w: Writes): Promise<void> {
    if (w.record && (await this.deps.deliveries.insertOnce(d))) return;
    await this.deps.deliveries.save(d);
  }

  /** Takes one event from the organization's hourly budget; when none is left, defers the delivery to the next hour. */
  private async overHourlyCap(d: Delivery, now: Date, w: Writes): Promise<boolean> {
    const plan = await this.deps.plans.webhookPlan(d.orgId);
    if (plan.eventsPerHour !== undefined && !(await this.deps.budget.take(d.orgId, plan.eventsPerHour, now))) {
      const until = new Date(nextHour(now).getTime() + Math.floor(this.random() * DEFER_SPREAD_MS));
      d.deferredUntil = until;
      await this.reschedule(d, until, "deferred", w);
      await this.deps.schedule.release(d.id, d.attempts + 1);
      return true;
    }
    d.budgeted = true;
    return false;
  }

  private async reschedule(d: Delivery, at: Date, outcome: AttemptOutcome, w: Writes): Promise<Delivery> {
    d.nextRetry = at;
    if (outcome === "retry") d.status = "failed";
    await this.write(d, w);
    await this.deps.schedule.put(d.id, at);
    this.deps.observer?.attempted(outcome, d);
    return d;
  }

  private async finish(d: Delivery, end: Partial<Delivery> & Pick<Delivery, "status">, w: Writes, outcome?: AttemptOutcome): Promise<Delivery> {
    Object.assign(d, end);
    delete d.nextRetry;
    if (d.status === "success") delete d.error;
    await this.write(d, w);
    if (w.entered()) await this.deps.schedule.remove(d.id);
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
    // A new id nobody else knows: its first attempt is this call's without a lease document.
    return (await this.attempt(d.id, { manual: true, known: d, owned: true })) ?? d;
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
    return (await this.attempt(d.id, { manual: true, known: d })) ?? d;
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
