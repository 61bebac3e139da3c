import { z } from "zod";
import { booleanFlag, brokerList, loadConfig, mongoUrl, port, topicPrefix } from "@vulnscan/kit";

const upstream = (fallback: string) => z.url().default(fallback);

export const gatewayEnvSchema = z.object({
  HOST: z.string().default("127.0.0.1"),
  PORT: port.default(8080),
  ADMIN_PORT: port.default(9460),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  SERVICE_VERSION: z.string().default(process.env.npm_package_version ?? "0.1.0"),
  /** Bodies above this are refused with 413 before they are parsed. */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /** The gateway's own database holds only rate-limit counters. */
  MONGO_URL: mongoUrl.default("mongodb://127.0.0.1:27017/"),
  MONGO_DB: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default("gateway"),
  /** Behind a load balancer, take the client address from X-Forwarded-For. */
  TRUST_PROXY: booleanFlag,
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  HEALTH_TIMEOUT_MS: z.coerce.number().int().min(50).default(1500),
  /**
   * A control listing grc confirmed current this recently is answered from the gateway's memory
   * (changes made through this gateway end the window at once). 0 asks grc every time.
   */
  CONTROL_PAGE_FRESH_MS: z.coerce.number().int().min(0).max(5000).default(250),
  AUTH_URL: upstream("http://127.0.0.1:50051"),
  SCAN_ORCHESTRATOR_URL: upstream("http://127.0.0.1:50052"),
  FINDINGS_URL: upstream("http://127.0.0.1:50054"),
  GRC_URL: upstream("http://127.0.0.1:50055"),
  WEBHOOK_DISPATCHER_URL: upstream("http://127.0.0.1:50056"),
  /** The built web console (default: web/dist of this checkout). */
  WEB_DIST_DIR: z.string().min(1).optional(),
  /** Kafka, for following vulnscan.auth.events (the AuthView). */
  KAFKA_BROKERS: brokerList.default(["127.0.0.1:9092"]),
  /** Put before every topic name; the same value as the services' (kit config). */
  KAFKA_TOPIC_PREFIX: topicPrefix,
  /**
   * The AuthView's staleness bound: when this replica cannot show that it has seen every auth
   * event older than this (auth heartbeats every AUTH_HEARTBEAT_INTERVAL_MS on every partition),
   * authenticated requests get 503 SERVICE_UNAVAILABLE + Retry-After until it has resynced.
   * This is also the longest a revocation can go unenforced on a replica cut off from Kafka.
   */
  AUTH_VIEW_MAX_STALENESS_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
});

export type GatewayConfig = z.infer<typeof gatewayEnvSchema>;

export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(gatewayEnvSchema, env);
