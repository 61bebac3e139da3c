import { WEBHOOK_EVENT_KINDS } from "@vulnscan/kit/event-kinds";

/** The spec's 18 event kinds (from the event contract): the only types a webhook may subscribe to or ever receive. */
export const EVENT_KINDS = WEBHOOK_EVENT_KINDS;

const KINDS: ReadonlySet<string> = new Set(EVENT_KINDS);

/** auth.* and anything unknown are internal: never delivered to customers. */
export const isDeliverable = (type: string): boolean => KINDS.has(type);

/** Sent by the test operation only; not subscribable. */
export const TEST_EVENT = "webhook.test";

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

/** pending: never attempted yet; failed with nextRetry: a retry is scheduled; failed without: final. */
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
  attempts: number;
  responseCode: number;
  responseTimeMs: number;
  error?: string;
  createdAt: Date;
  deliveredAt?: Date;
  /** When the next attempt is due; unset once the delivery is final. */
  nextRetry?: Date;
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
