import type { AttemptResult, Delivery, DeliveryStatus, Webhook } from "./types.js";

/*
 * What the domain needs from the outside, as interfaces: Mongo adapters implement them in
 * src/storage, in-memory ones for unit tests in src/testing/memory.ts, the HTTP sender and the
 * URL policy in src/delivery.
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
  /** Writes the user-editable fields; `restart` also clears the dispatcher's state (failure clock, disable reason). */
  update(w: Webhook, restart: boolean): Promise<void>;
  remove(orgId: string, id: string): Promise<boolean>;
  /** Active webhooks of the organization subscribed to `event`. */
  subscribed(orgId: string, event: string): Promise<Webhook[]>;
  /** Sets failingSince when unset (the first failure since a success). */
  markFailing(orgId: string, id: string, at: Date): Promise<void>;
  clearFailing(orgId: string, id: string): Promise<void>;
  /** Turns an active webhook off with the dispatcher's reason; false when it was not active. */
  disable(orgId: string, id: string, reason: string, at: Date): Promise<boolean>;
}

/** The plan's webhook count per organization, exact under concurrent creates. */
export interface WebhookCount {
  /** Counts `webhookId` in when fewer than `limit` are; false when the plan's count is reached. */
  reserve(orgId: string, limit: number, webhookId: string): Promise<boolean>;
  release(orgId: string, webhookId: string): Promise<void>;
}

export interface DeliveryFilter {
  status?: DeliveryStatus;
  event?: string;
}

/** Deliveries, each carrying its own schedule (`nextAttemptAt`) and the lease of its attempt in flight. */
export interface DeliveryStore {
  /** Records a new delivery; false when it exists (its event came again: nothing to do). */
  add(d: Delivery): Promise<boolean>;
  get(id: string): Promise<Delivery | undefined>;
  /** Which of these deliveries are recorded (a redelivered event's, before its first attempt is made again). */
  stored(ids: readonly string[]): Promise<Set<string>>;
  /** Ids of the deliveries whose next attempt is due at `now`, earliest first. */
  due(now: Date, limit: number): Promise<string[]>;
  /**
   * Takes the next attempt of a delivery until `leaseUntil`, when it is due (`manual`: at once,
   * whatever its schedule) and no live lease holds it. Returns the delivery as taken, or
   * undefined when it is not to be taken by this caller.
   */
  take(id: string, now: Date, leaseUntil: Date, manual: boolean): Promise<Delivery | undefined>;
  /**
   * Writes the state an attempt ended in and ends its lease, if `lease` still holds the delivery;
   * nothing when it expired and another holder took the attempt over (theirs is the one recorded).
   */
  settle(d: Delivery, lease: Date): Promise<void>;
  /** Newest first. */
  list(orgId: string, webhookId: string, filter: DeliveryFilter, skip: number, limit: number): Promise<Page<Delivery>>;
  /** Makes up to `limit` final failed deliveries created in [from, to) due at `now`; returns how many. */
  replayFailed(orgId: string, webhookId: string, from: Date, to: Date, now: Date, limit: number): Promise<number>;
  /** Deliveries with an attempt to come and the earliest due time (queue metrics). */
  stats(): Promise<{ depth: number; oldestDueAt?: Date }>;
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
