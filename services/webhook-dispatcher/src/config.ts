import { booleanFlag, loadConfig, serviceEnvSchema } from "@vulnscan/kit";
import { networkListEnv } from "@vulnscan/kit/networks";
import { z } from "zod";

export const configSchema = serviceEnvSchema({ rpcPort: 50056, adminPort: 9466, database: "webhooks" }).extend({
  /** auth's RPC address, for plan facts (webhooks allowed, their count, events per hour). */
  AUTH_URL: z.url().default("http://127.0.0.1:50051"),
  /** How long plan facts are cached (at most 30 s, so plan changes bite quickly). */
  PLAN_CACHE_MS: z.coerce.number().int().min(0).max(30_000).default(30_000),
  /** Loopback, private, link-local... webhook addresses are allowed (local stack and tests only). */
  WEBHOOK_ALLOW_PRIVATE_URLS: booleanFlag,
  /** When set, every webhook address must be inside these ranges (DESIGN.md §5). */
  WEBHOOK_ALLOWED_NETWORKS: networkListEnv,
  /** Prefix of the consumer groups (one per event topic); overridden to isolate test runs. */
  CONSUMER_GROUP: z.string().default("webhook-dispatcher"),
  /** How often the retry pass looks for due attempts. */
  RETRY_POLL_MS: z.coerce.number().int().min(50).default(1000),
  /** Deadline of one attempt: resolution, connect, TLS and the response. */
  DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(30_000),
  /**
   * The delay before each attempt in ms, comma-separated; unset: the spec's 0,5 min,30 min,2 h,8 h.
   * Only for tests of a whole running system, which cannot wait hours.
   */
  WEBHOOK_RETRY_DELAYS_MS: z
    .string()
    .default("")
    .refine((s) => s === "" || /^0(,\d+){1,9}$/.test(s), "a comma list of ms starting with 0, e.g. 0,2000,2000")
    .transform((s) => (s === "" ? undefined : s.split(",").map(Number))),
  /** How long the dispatcher serves a webhook (subscriptions, URL, secret) from memory; the API always reads the database. */
  WEBHOOK_CACHE_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
  /** Attempts in flight at once per replica (first attempts straight from the consumer). */
  DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  /**
   * How long a consumer waits for a free slot to make a delivery's first attempt at once; without
   * one in time the delivery is recorded due now for the retry pass, and the consumer moves on.
   */
  ATTEMPT_HANDOVER_MS: z.coerce.number().int().min(100).max(25_000).default(5000),
  /**
   * How long a consumer waits for a first attempt's answer before recording the delivery with the
   * attempt's lease (its result is then written under it). Short, because the event's partition
   * waits too: one tenant's slow receiver delays the other tenants' deliveries by at most this.
   */
  FIRST_ANSWER_WAIT_MS: z.coerce.number().int().min(0).max(25_000).default(250),
});

export type Config = z.infer<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config => loadConfig(configSchema, env);
