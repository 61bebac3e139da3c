import { loadConfig, serviceEnvSchema, Topics } from "@vulnscan/kit";
import { z } from "zod";

export const configSchema = serviceEnvSchema({ rpcPort: 50055, adminPort: 9465, database: "grc" }).extend({
  /** clamd's TCP address (`host:port`); empty: no scanner, so every upload waits as pending_scan. */
  CLAMD_ADDRESS: z.string().default(""),
  CLAMD_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Topic and consumer group names; overridden only to isolate test runs that share a broker. */
  FINDING_EVENTS_TOPIC: z.string().default(Topics.findingEvents),
  SCAN_EVENTS_TOPIC: z.string().default(Topics.scanEvents),
  GRC_EVENTS_TOPIC: z.string().default(Topics.grcEvents),
  CONSUMER_GROUP: z.string().default("grc"),
  /** The evidence expiry job (daily; evidence.expiring goes out 30 days ahead). */
  EVIDENCE_EXPIRY_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(24 * 3600_000),
  /** Retry of uploads held as pending_scan while clamd was unreachable. */
  EVIDENCE_RESCAN_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  /**
   * A replica serves its cached view of an organization's controls this long before checking the
   * stored version again (one small read); another replica's change shows within this bound.
   */
  VIEW_MAX_AGE_MS: z.coerce.number().int().min(0).max(10_000).default(250),
  /** Outbox relay period. */
  RELAY_INTERVAL_MS: z.coerce.number().int().min(100).default(2000),
});

export type Config = z.infer<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config => loadConfig(configSchema, env);
