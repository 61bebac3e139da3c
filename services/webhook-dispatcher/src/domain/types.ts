/** Sent by the test operation only; not subscribable. */
export const TEST_EVENT = "webhook.test";

/**
 * An event a customer may receive, as the domain takes it (events/ maps the Kafka envelope to it;
 * internal kinds never get this far).
 */
export interface DispatchEvent {
  id: string;
  type: string;
  orgId: string;
  occurredAt: Date;
  /** The payload as JSON (the body's `data`). */
  data: unknown;
}

export interface Webhook {
  id: string;
  orgId: string;
  name: string;
  url: string;
  events: string[];
  /** Write-only signing secret; never leaves the service. */
  secret?: string;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** Why the dispatcher disabled it; unset when a user did. */
  disabledReason?: string;
  /** First failed attempt since the last success (auto-disable clock). */
  failingSince?: Date;
}

/** pending: never attempted yet; failed with nextAttemptAt: a retry is due; failed without: final. */
export type DeliveryStatus = "pending" | "success" | "failed";

export interface Delivery {
  id: string;
  orgId: string;
  webhookId: string;
  eventId: string;
  event: string;
  /** The exact body bytes (UTF-8 JSON), fixed at fan-out so every attempt signs the same bytes. */
  body: string;
  status: DeliveryStatus;
  /** Attempts made and recorded. */
  attempts: number;
  responseCode: number;
  responseTimeMs: number;
  error?: string;
  createdAt: Date;
  deliveredAt?: Date;
  /**
   * When the next attempt is due; unset once the delivery is final. While an attempt is in flight
   * it is the attempt's lease end: should its holder die, the attempt is due again then.
   */
  nextAttemptAt?: Date;
  /** The end of the lease of the attempt in flight: only its holder records the attempt. */
  leaseUntil?: Date;
  /** The hourly cap deferred the first attempt to this time. */
  deferredUntil?: Date;
  /** Counted against the organization's events/hour (once per delivery). */
  budgeted: boolean;
}

/** What one HTTP attempt gave. */
export interface AttemptResult {
  /** 0 when there was no answer (refused, timeout, blocked address). */
  responseCode: number;
  responseTimeMs: number;
  /** Set when it failed. */
  error?: string;
  /** The receiver's Retry-After on 429/503, in ms. */
  retryAfterMs?: number;
}

export const succeeded = (r: AttemptResult) => r.responseCode >= 200 && r.responseCode < 300 && !r.error;
