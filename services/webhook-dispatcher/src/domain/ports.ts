import type { AttemptResult, Delivery, Webhook } from "./types.js";

/*
 * What the domain needs from the outside, as interfaces: Mongo adapters implement them in
 * src/storage, in-memory ones for unit tests in src/storage/memory.ts, the HTTP sender in
 * src/delivery.
 */

export interface Page<T> {
  items: T[];
  total: number;
}

export interface WebhookRepo {
  insert(w: Webhook): Promise<void>;
  get(orgId: string, id: string): Promise<Webhook | undefined>;
  /** Oldest first. */
  list(orgId: string, skip: number, limit: number): Promise<Page<Webhook>>;
  /** Writes the user-editable fields and the dispatcher's state fields. */
  save(w: Webhook): Promise<void>;
  remove(orgId: string, id: string): Promise<boolean>;
  /** Active webhooks of the organization subscribed to `event`. */
  subscribed(orgId: string, event: string): Promise<Webhook[]>;
  /** Sets failingSince when unset (the first failure since a success). */
  markFailing(orgId: string, id: string, at: Date): Promise<void>;
  clearFailing(orgId: string, id: string): Promise<void>;
}

/** An exact pool of webhook slots per organization (the plan's webhook count). */
export interface WebhookSlots {
  acquire(orgId: string, limit: number, webhookId: string): Promise<boolean>;
  release(orgId: string, webhookId: string): Promise<void>;
}

export interface DeliveryFilter {
  status?: "pending" | "success" | "failed";
  event?: string;
}

export interface DeliveryRepo {
  /** false when a delivery with this id exists (the exactly-once key). */
  insertOnce(d: Delivery): Promise<boolean>;
  get(id: string): Promise<Delivery | undefined>;
  /**
   * Writes the attempt state of a delivery (only the attempt's lease holder calls it), unless the
   * stored one has more attempts: a write delayed by a database outage (an attempt that ran on
   * after its handover) never undoes a later attempt's result.
   */
  save(d: Delivery): Promise<void>;
  /** Newest first. */
  list(orgId: string, webhookId: string, filter: DeliveryFilter, skip: number, limit: number): Promise<Page<Delivery>>;
  /** Final failed deliveries created in [from, to), oldest first. */
  failedBetween(orgId: string, webhookId: string, from: Date, to: Date, limit: number): Promise<Delivery[]>;
}

/**
 * The durable retry schedule: one entry per delivery that has an attempt due, plus one lease per
 * (delivery, attempt number) so exactly one replica makes each attempt. The first attempt's lease
 * is taken before the delivery is recorded, and doubles as its exactly-once key.
 */
export interface Schedule {
  /** The entry of a delivery, due at `dueAt` (its next attempt, planned by the attempt's holder). */
  put(deliveryId: string, dueAt: Date): Promise<void>;
  /**
   * Enters a delivery due no later than `dueAt`: an earlier due time stays. For entries written
   * beside a holder's (a handover, a redelivery): racing its `put`, they can only make the poll
   * look early, where it heals the entry, never late.
   */
  enter(deliveryId: string, dueAt: Date): Promise<void>;
  remove(deliveryId: string): Promise<void>;
  /** Entries due at `now`, earliest first. */
  due(now: Date, limit: number): Promise<{ deliveryId: string; dueAt: Date }[]>;
  /** Entries in the schedule and the earliest due time (queue metrics). */
  stats(): Promise<{ depth: number; oldestDueAt?: Date }>;
  /**
   * Gives back an attempt lease that made no attempt (a deferral, a handover): it stays, expired,
   * so the next claim retakes it (a first attempt's lease is the delivery's exactly-once key).
   */
  release(deliveryId: string, attempt: number): Promise<void>;
  /**
   * Takes the lease of attempt `attempt` of a delivery: "fresh" when nobody held it, "retaken"
   * when an expired one was taken over, undefined when another holder has it.
   */
  claim(deliveryId: string, attempt: number, now: Date, leaseMs: number): Promise<"fresh" | "retaken" | undefined>;
}

export interface WebhookPlan {
  enabled: boolean;
  /** undefined: unlimited. */
  maxWebhooks?: number;
  /** undefined: unlimited. */
  eventsPerHour?: number;
}

export interface PlanPort {
  webhookPlan(orgId: string): Promise<WebhookPlan>;
}

/** The organization's events/hour budget: true when one more event fits in the hour of `now`. */
export interface HourlyBudget {
  take(orgId: string, limit: number, now: Date): Promise<boolean>;
}

export interface OutgoingRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Sends one attempt (SSRF checks at connect time included); never throws for an endpoint's fault. */
export interface Sender {
  send(req: OutgoingRequest): Promise<AttemptResult>;
}

/** Refuses a webhook URL (its address) with a reason; creation maps it to a 422 on `url`. */
export interface UrlChecker {
  check(url: string): Promise<unknown>;
}

export type Clock = () => Date;
