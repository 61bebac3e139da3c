import { loadConfig, serviceEnvSchema, Topics } from "@vulnscan/kit";
import { z } from "zod";

export const configSchema = serviceEnvSchema({ rpcPort: 50054, adminPort: 9464, database: "findings" }).extend({
  /** auth's RPC address, for plan facts (AI credits per month). */
  AUTH_URL: z.url().default("http://127.0.0.1:50051"),
  /** OpenAI-compatible endpoint (e.g. https://host/v1); unset: the built-in deterministic analyst. */
  AI_PROVIDER_URL: z.url().optional(),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().default("gpt-4o-mini"),
  AI_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  /** How long plan facts are cached (at most 30 s, so plan changes bite quickly). */
  PLAN_CACHE_MS: z.coerce.number().int().min(0).max(30_000).default(30_000),
  /** Topic and consumer group names; overridden only to isolate test runs that share a broker. */
  DETECTIONS_TOPIC: z.string().default(Topics.findingsDetected),
  FINDING_EVENTS_TOPIC: z.string().default(Topics.findingEvents),
  CONSUMER_GROUP: z.string().default("findings"),
  /** Detections applied together (one de-duplication round, one bulk insert). */
  INGEST_BATCH_SIZE: z.coerce.number().int().min(1).max(2000).default(500),
  /** Outbox relay and housekeeping period. */
  RELAY_INTERVAL_MS: z.coerce.number().int().min(100).default(2000),
  /** How long a list page is kept in memory while the organization's findings do not change (storage/cached-lists.ts); 0 turns that off. */
  LIST_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** Tests only: a file holding milliseconds added to the service's clock (src/clock.ts). */
  CLOCK_OFFSET_FILE: z.string().optional(),
});

export type Config = z.infer<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const config = loadConfig(configSchema, env);
  if (config.AI_PROVIDER_URL && !config.AI_API_KEY) {
    return loadConfig(
      configSchema.refine(() => false, { message: "AI_API_KEY is required with AI_PROVIDER_URL", path: ["AI_API_KEY"] }),
      env,
    );
  }
  return config;
};
