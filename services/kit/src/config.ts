import { z } from "zod";

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Parses the environment once, with a schema, and fails fast with every problem
 * listed: a service that starts with a half-valid config fails later and farther
 * from the cause.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

export const port = z.coerce.number().int().min(0).max(65535);

/** A Kafka topic name prefix: the characters a topic name may hold, so prefixed names stay legal. */
export const topicPrefix = z
  .string()
  .regex(/^[A-Za-z0-9._-]*$/, "letters, digits, '.', '_' and '-' only")
  .max(100)
  .default("");

export const brokerList = z
  .string()
  .min(1, "required (comma-separated host:port list)")
  .transform((s) =>
    s
      .split(",")
      .map((b) => b.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[^:\s]+:\d+$/, "each broker must be host:port")).min(1));

export const mongoUrl = z.string().regex(/^mongodb(\+srv)?:\/\//, "must be a mongodb:// URL");

/**
 * What the stack scripts and test runs set for every process they start, read by the storage
 * layer wherever it is used (services, the operator CLI, the demo seed): the PostgreSQL behind
 * FerretDB, which gets the field declarations and GIN indexes (ferretdb-pg.ts), and the file
 * every query shape is recorded in (query-shapes.ts).
 */
export const storageEnvSchema = z.object({
  FERRETDB_POSTGRESQL_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  VULNSCAN_QUERY_SHAPES_FILE: z.string().min(1).optional(),
});

export const storageSettings = (env: NodeJS.ProcessEnv = process.env) => loadConfig(storageEnvSchema, env);

export const booleanFlag = z
  .enum(["true", "false", "1", "0", ""])
  .default("false")
  .transform((v) => v === "true" || v === "1");

export interface ServiceDefaults {
  rpcPort: number;
  adminPort: number;
  database: string;
}

/** The settings every service shares; a service extends it with its own. */
export function serviceEnvSchema(defaults: ServiceDefaults) {
  return z.object({
    HOST: z.string().default("127.0.0.1"),
    RPC_PORT: port.default(defaults.rpcPort),
    ADMIN_PORT: port.default(defaults.adminPort),
    MONGO_URL: mongoUrl.default("mongodb://127.0.0.1:27017/"),
    MONGO_DB: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .default(defaults.database),
    KAFKA_BROKERS: brokerList.default(["127.0.0.1:9092"]),
    KAFKA_PARTITIONS: z.coerce.number().int().min(1).max(256).default(6),
    /** Put before every topic name (kafka.ts), for installations that share one Kafka cluster. */
    KAFKA_TOPIC_PREFIX: topicPrefix,
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
    /**
     * List cursor signing keys, comma-separated, newest first (cursor.ts): the first signs, all
     * verify, so a rotation keeps the previous key second for a while. Every replica of a service
     * needs the same keys; unset, a key derived from MONGO_URL and MONGO_DB (cursor.ts).
     */
    CURSOR_KEYS: z
      .string()
      .optional()
      .transform((s) => (s ? s.split(",").map((k) => k.trim()) : undefined))
      .pipe(z.array(z.string().min(32, "each cursor key must be at least 32 characters")).min(1).optional()),
  });
}

export type ServiceConfig = z.infer<ReturnType<typeof serviceEnvSchema>>;
