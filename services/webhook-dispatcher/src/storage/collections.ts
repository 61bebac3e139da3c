import {
  allowScan,
  mergeFieldTypes,
  slotFieldTypes,
  slotIndexes,
  slotPoolFieldTypes,
  slotPoolIndexes,
  type FieldTypes,
  type IndexSpec,
  type ScanAllowance,
} from "@vulnscan/kit";

/** The dispatcher's collections (database `webhooks`). */
export const Collections = {
  webhooks: "webhooks",
  /** One slot per webhook (kit SlotPool): the plan's exact webhook count. */
  webhookSlots: "webhook_slots",
  deliveries: "deliveries",
  /** Only deliveries with an attempt due (small): what the retry loop polls. */
  schedule: "delivery_schedule",
  /**
   * One per delivery, insert-once: the lease of its first attempt, which is also the exactly-once
   * key of an (event, webhook) pair, so it is kept as long as the deliveries (a replayed event
   * finds it), never pruned.
   */
  firstLeases: "first_attempt_leases",
  /** One per (delivery, attempt number ≥ 2), insert-once: the lease of that attempt, pruned after a day. */
  leases: "attempt_leases",
  /** Events/hour per organization (kit SlotCounter). */
  budget: "hourly_budget",
} as const;
const {
  webhooks: WEBHOOKS,
  webhookSlots: WEBHOOK_SLOTS,
  deliveries: DELIVERIES,
  schedule: SCHEDULE,
  firstLeases: FIRST_LEASES,
  leases: LEASES,
  budget: BUDGET,
} = Collections;

/*
 * Deliveries are written on the hot path (insert, then one update per attempt), so they carry
 * only two indexes: the history (status and event filters ride on the newest-first walk of one
 * webhook's deliveries) and the replay window of failed ones.
 */
export const webhookIndexes: IndexSpec[] = [
  { collection: WEBHOOKS, key: { org_id: 1, _id: 1 }, options: { name: "org_created" } },
  { collection: WEBHOOKS, key: { org_id: 1, events: 1, active: 1 }, options: { name: "org_event_active" } },
  { collection: DELIVERIES, key: { org_id: 1, webhook_id: 1, _id: -1 }, options: { name: "webhook_newest" } },
  { collection: DELIVERIES, key: { org_id: 1, webhook_id: 1, status: 1, created_at: 1 }, options: { name: "webhook_status_created" } },
  { collection: SCHEDULE, key: { due_at: 1 }, options: { name: "due" } },
  { collection: LEASES, key: { expires_at: 1 }, options: { name: "expiry" } },
  ...slotPoolIndexes(WEBHOOK_SLOTS),
  ...slotIndexes(BUDGET),
];

/*
 * The type class of every field the queries and indexes above use (field-types.ts), as the
 * storage writes them (WebhookDoc, DeliveryDoc, EntryDoc, LeaseDoc): ids are strings, a
 * webhook's `events` an array of strings, a delivery's `attempts` a number and `next_retry` a
 * Date or null.
 */
export const webhookFields: FieldTypes = mergeFieldTypes(
  {
    [WEBHOOKS]: { _id: "string", org_id: "string", events: "string[]", active: "bool" },
    [DELIVERIES]: {
      _id: "string",
      org_id: "string",
      webhook_id: "string",
      event: "string",
      status: "string",
      attempts: "number",
      created_at: "date",
      next_retry: "date",
    },
    [SCHEDULE]: { _id: "string", due_at: "date" },
    [FIRST_LEASES]: { _id: "string", expires_at: "date" },
    [LEASES]: { _id: "string", expires_at: "date" },
  },
  slotPoolFieldTypes(WEBHOOK_SLOTS),
  slotFieldTypes(BUDGET),
);

export const webhookScanAllowances: ScanAllowance[] = [
  allowScan(
    Collections.schedule,
    {},
    "queue depth for /metrics (estimatedDocumentCount, from collection metadata on MongoDB); the schedule holds only deliveries with an attempt due",
  ),
];
