import os from "node:os";
import { loadConfig, serviceEnvSchema } from "@vulnscan/kit";
import { networkListEnv } from "@vulnscan/kit/networks";
import { z } from "zod";
import { DEFAULT_TEMPLATES_DIR } from "./templates-engine/loader.js";

/** The shipped intelligence sample (services/scanner/data/intel); point INTEL_DIR at a synced snapshot for real use. */
export const DEFAULT_INTEL_DIR = new URL("../data/intel", import.meta.url).pathname;

const defaultWorkerId = () =>
  `${os
    .hostname()
    .replace(/[^A-Za-z0-9._-]/g, "-")
    .slice(0, 60)}-${process.pid}`;

export const configSchema = serviceEnvSchema({ rpcPort: 50053, adminPort: 9463, database: "scanner" }).extend({
  /** Egress allowlist (DESIGN.md §5): the scanner never connects outside these ranges. Empty allows any address. */
  SCAN_ALLOWED_NETWORKS: networkListEnv,
  /** Scan jobs this worker runs at once. */
  SCANNER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** Intelligence store: a directory with intel-store.json (scripts/intel-sync.ts) or raw NVD/EPSS/KEV feed files. */
  INTEL_DIR: z.string().min(1).default(DEFAULT_INTEL_DIR),
  /** YAML templates of the vulnerability_scanning phase. */
  TEMPLATES_DIR: z.string().min(1).default(DEFAULT_TEMPLATES_DIR),
  /** Stable worker name (pod name + pid); names this worker's cancellation consumer group and its reports. */
  WORKER_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,120}$/, "letters, digits, dot, dash, underscore")
    .default(defaultWorkerId),
  /** Consumer group of vulnscan.scan.jobs; change only to run isolated pools on a shared broker (tests). */
  SCANNER_CONSUMER_GROUP: z.string().min(1).default("scanner"),
  /** ScanReport heartbeat period (the contract wants one at least every 15 s). */
  SCANNER_HEARTBEAT_MS: z.coerce.number().int().min(100).max(10_000).default(10_000),
});

export type Config = z.infer<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config => loadConfig(configSchema, env);
