import type { FieldTypes, IndexSpec } from "@vulnscan/kit";

/** The dispatcher's collections (database `webhooks`). */
export const Collections = {
  webhooks: "webhooks",
  /** One per organization: how many webhooks it has, and which (the plan's exact count). */
  webhookCounts: "webhook_counts",
  /** One per (event, webhook), carrying its state, its next attempt's due time and the lease of the attempt in flight. */
  deliveries: "deliveries",
  /** Events/hour per organization: one `$inc` count per hour. */
  budget: "hourly_budget",
} as const;
const { webhooks: WEBHOOKS, webhookCounts: COUNTS, deliveries: DELIVERIES, budget: BUDGET } = Collections;

/*
 * Deliveries are written on the hot path (an insert, then one update per attempt), so they carry
 * three indexes: the history (status and event filters ride on the newest-first walk of one
 * webhook's deliveries), the replay window of failed ones, and the due time the retry pass polls
 * (a final delivery's is null: nothing to walk past for the ones to come).
 */
export const webhookIndexes: IndexSpec[] = [
  { collection: WEBHOOKS, key: { org_id: 1, _id: 1 }, options: { name: "org_created" } },
  { collection: WEBHOOKS, key: { org_id: 1, events: 1, active: 1 }, options: { name: "org_event_active" } },
  { collection: DELIVERIES, key: { org_id: 1, webhook_id: 1, _id: -1 }, options: { name: "webhook_newest" } },
  { collection: DELIVERIES, key: { org_id: 1, webhook_id: 1, status: 1, created_at: 1 }, options: { name: "webhook_status_created" } },
  { collection: DELIVERIES, key: { next_attempt_at: 1 }, options: { name: "due" } },
  { collection: BUDGET, key: { expires_at: 1 }, options: { name: "expiry" } },
];

/*
 * The type class of every field the queries and indexes above use (field-types.ts), as the
 * storage writes them (WebhookDoc, CountDoc, DeliveryDoc, BudgetDoc): ids are strings, a
 * webhook's `events` an array of strings, a delivery's times Dates or null.
 */
export const webhookFields: FieldTypes = {
  [WEBHOOKS]: { _id: "string", org_id: "string", events: "string[]", active: "bool" },
  [COUNTS]: { _id: "string", n: "number", webhook_ids: "string[]" },
  [DELIVERIES]: {
    _id: "string",
    org_id: "string",
    webhook_id: "string",
    event: "string",
    status: "string",
    created_at: "date",
    next_attempt_at: "date",
    lease_until: "date",
  },
  [BUDGET]: { _id: "string", n: "number", expires_at: "date" },
};
