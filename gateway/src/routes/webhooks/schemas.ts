import { envelopeSchema, pageQueryProperties } from "../../rest.js";
import { bearerSecurity, errorResponses, operation, paidPlansOnly, timestamp, input } from "../../schemas.js";
import { WEBHOOK_EVENT_KINDS as EVENT_KINDS } from "@vulnscan/kit/event-kinds";
import { RECEIVER_GUIDE } from "./guide.js";

/** The webhooks routes' schemas: what ajv validates, what the handlers' types derive from, what OpenAPI shows. */

const DELIVERY_STATUSES = ["pending", "success", "failed"] as const;
const op = operation({ tags: ["webhooks"], security: bearerSecurity });

/** A response object: every property is present except the optional ones named (replies are not type-checked). */
function answer(properties: Record<string, object>, optional: string[] = []) {
  return { type: "object", required: Object.keys(properties).filter((k) => !optional.includes(k)), properties } as const;
}

const webhook = answer(
  {
    id: { type: "string", description: "`webhook_<id>`" },
    name: { type: "string" },
    url: { type: "string" },
    events: { type: "array", items: { type: "string" } },
    active: { type: "boolean" },
    created_at: timestamp,
    updated_at: timestamp,
    has_secret: { type: "boolean", description: "A signing secret is set (the secret itself is write-only)" },
    disabled_reason: { type: "string", description: "Why the dispatcher disabled it; absent otherwise" },
  },
  ["updated_at", "disabled_reason"],
);

const outcome = {
  response_code: { type: "integer", description: "HTTP status of the (last) attempt; 0 when there was no answer" },
  response_time_ms: { type: "integer" },
  error: { type: "string", description: "Present on failure" },
};

const delivery = answer(
  {
    id: { type: "string", description: "`delivery_<id>`" },
    event: { type: "string" },
    status: { type: "string", enum: DELIVERY_STATUSES, description: "`pending` until the first attempt" },
    ...outcome,
    attempts: { type: "integer" },
    created_at: timestamp,
    delivered_at: { ...timestamp, description: "Present on success" },
    next_retry: { ...timestamp, description: "Present while another attempt is scheduled" },
    deferred_until: { ...timestamp, description: "The events-per-hour cap deferred the first attempt to this time" },
  },
  ["error", "delivered_at", "next_retry", "deferred_until"],
);

const name = { type: "string", minLength: 1, maxLength: 100 } as const;
const url = {
  type: "string",
  minLength: 1,
  maxLength: 2048,
  description:
    "HTTPS URL. Its host must resolve to public addresses, or to networks the deployment allows (WEBHOOK_ALLOWED_NETWORKS; the local stack allows loopback and the scan lab), checked again at each attempt",
} as const;
const events = { type: "array", minItems: 1, maxItems: EVENT_KINDS.length, items: { type: "string", enum: EVENT_KINDS } } as const;
const secret = { type: "string", minLength: 8, maxLength: 256, description: "Signing secret (write-only, never returned)" } as const;
const idParams = { type: "object", required: ["webhook_id"], properties: { webhook_id: { type: "string", maxLength: 128 } } } as const;

export const createWebhook = op("Create a webhook", {
  description: RECEIVER_GUIDE,
  ...paidPlansOnly,
  body: input(
    { name, url, events, secret, active: { type: "boolean", default: true } },
    {
      required: ["name", "url", "events"],
      examples: [
        {
          name: "Production alerts",
          url: "https://hooks.acme.example/vulnscan",
          events: ["scan.completed", "vulnerability.critical"],
          secret: "whsec_4f8a2c9e1b7d3f60",
          active: true,
        },
      ],
    },
  ),
  response: { 201: webhook, ...errorResponses(403, 422) },
});

export const listWebhooks = op("List webhooks, oldest first", {
  description: "Your organization's webhooks; a webhook the dispatcher disabled after repeated failures says why in `disabled_reason`.",
  querystring: input(pageQueryProperties),
  response: { 200: envelopeSchema(webhook), ...errorResponses(403, 422) },
});

export const getWebhook = op("Webhook detail", {
  description: "One webhook; the secret is never returned (`has_secret` says whether one is set).",
  params: idParams,
  response: { 200: webhook, ...errorResponses(403, 404) },
});

export const updateWebhook = op("Update a webhook", {
  description: "Changes the given fields. `secret: null` removes the secret; `active: true` re-enables a disabled webhook.",
  params: idParams,
  body: input(
    { name, url, events, secret: { ...secret, type: ["string", "null"] }, active: { type: "boolean" } },
    { minProperties: 1, examples: [{ events: ["scan.completed", "scan.failed", "vulnerability.critical"], active: true }] },
  ),
  response: { 200: webhook, ...errorResponses(403, 404, 422) },
});

export const deleteWebhook = op("Delete a webhook and stop its pending retries", {
  description: "No further events are delivered to it; deliveries waiting for a retry are dropped.",
  params: idParams,
  response: { 204: { type: "null", description: "Deleted" }, ...errorResponses(403, 404) },
});

export const testWebhook = op("Send a test event now and report the outcome", {
  description:
    "Sends a `webhook.test` event once, synchronously (no retries), also to an inactive webhook. A refused or unreachable URL answers 200 with status `failed` and `error`.",
  params: idParams,
  response: {
    200: answer({ delivery_id: { type: "string" }, status: { type: "string", enum: ["success", "failed"] }, ...outcome }, ["error"]),
    ...errorResponses(403, 404),
  },
});

export const listDeliveries = op("Delivery history of a webhook, newest first", {
  description: "Each event sent to the webhook with its status, the last attempt's HTTP status and time, and the next retry while one is scheduled.",
  params: idParams,
  querystring: input({
    ...pageQueryProperties,
    status: { type: "string", enum: DELIVERY_STATUSES },
    event: { type: "string", enum: [...EVENT_KINDS, "webhook.test"] },
  }),
  response: { 200: envelopeSchema(delivery), ...errorResponses(403, 404, 422) },
});

export const retryDelivery = op("Send one delivery again now", {
  description: "A manual attempt, synchronous; answers the delivery as it now stands.",
  params: {
    type: "object",
    required: ["webhook_id", "delivery_id"],
    properties: { webhook_id: { type: "string", maxLength: 128 }, delivery_id: { type: "string", maxLength: 128 } },
  },
  response: { 200: delivery, ...errorResponses(403, 404) },
});

export const replayDeliveries = op("Replay every failed delivery of a time window", {
  description: "Schedules one more attempt now for each delivery that failed all its attempts and was created in [from, to) (at most 1000 per call).",
  params: idParams,
  body: input(
    {
      from: { ...timestamp, description: "Created at or after (default: any)" },
      to: { ...timestamp, description: "Created before (default: now)" },
    },
    { examples: [{ from: "2026-11-26T00:00:00Z", to: "2026-11-27T00:00:00Z" }] },
  ),
  response: { 202: { type: "object", required: ["scheduled"], properties: { scheduled: { type: "integer" } } }, ...errorResponses(403, 404, 422) },
});

/** Every route's schema under its handler's name (index.ts registers them from one table). */
export const routeSchemas = {
  createWebhook,
  listWebhooks,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  testWebhook,
  listDeliveries,
  retryDelivery,
  replayDeliveries,
} as const;
