import { booleanFlag, loadConfig, serviceEnvSchema } from "@vulnscan/kit";
import { networkListEnv } from "@vulnscan/kit/networks";
import { z } from "zod";
import type { ScanTypeName } from "@vulnscan/scan-contract";

const seconds = (def: number, min = 1) => z.coerce.number().int().min(min).default(def);

/** Per-type maximum run time before a scan fails with "maximum duration exceeded". */
export const DEFAULT_MAX_DURATION_SECONDS: Record<ScanTypeName, number> = { quick: 1800, full: 7200, compliance: 3600 };

/**
 * SCAN_MAX_DURATION_SECONDS: one number for every type ("3600"), or per type
 * ("quick=1800,full=7200,compliance=3600"; types left out keep their default).
 */
const maxDuration = z
  .string()
  .default("")
  .transform((s, ctx) => {
    const out = { ...DEFAULT_MAX_DURATION_SECONDS };
    const text = s.trim();
    if (text === "") return out;
    if (/^\d+$/.test(text)) {
      for (const k of Object.keys(out) as ScanTypeName[]) out[k] = Number(text);
    } else {
      for (const item of text
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean)) {
        const m = /^(quick|full|compliance)=(\d+)$/.exec(item);
        if (!m) {
          ctx.addIssue({ code: "custom", message: `"${item}": use seconds, or type=seconds for quick, full, compliance` });
          return z.NEVER;
        }
        out[m[1] as ScanTypeName] = Number(m[2]);
      }
    }
    if (Object.values(out).some((v) => v < 1)) {
      ctx.addIssue({ code: "custom", message: "durations must be at least 1 second" });
      return z.NEVER;
    }
    return out;
  });

export const configSchema = serviceEnvSchema({ rpcPort: 50052, adminPort: 9462, database: "scans" }).extend({
  /** Where auth's GetPlan answers (plan facts). */
  AUTH_URL: z.url().default("http://127.0.0.1:50051"),
  /** How long a plan is cached per organization (at most 30 s). */
  PLAN_CACHE_TTL_MS: z.coerce.number().int().min(0).max(30_000).default(30_000),
  /** Where findings' ScanDiffService answers (scan.completed's comparison with the previous scan). */
  FINDINGS_URL: z.url().default("http://127.0.0.1:50054"),
  /**
   * How long a completing scan waits for findings to hold its coverage before scan.completed
   * goes without a comparison (findings/comparisons.ts); 0 turns comparisons off.
   */
  SCAN_COMPARISON_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(15_000),
  /** How long a scans list page is answered from memory while the organization's scans do not change (storage/mongo-store.ts); 0 turns that off. */
  LIST_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** Allow loopback, private, link-local, CGNAT... targets (the local stack and tests). */
  SCAN_ALLOW_PRIVATE_TARGETS: booleanFlag,
  /** Egress allowlist (DESIGN.md §5): when set, targets must lie inside it. */
  SCAN_ALLOWED_NETWORKS: networkListEnv,
  /**
   * Networks that need no verified target (issue 29): the operator's own, the local lab and
   * loopback (`npm start` and the tests set them). Empty: every scan needs a verified target.
   */
  SCAN_VERIFIED_NETWORKS: networkListEnv,
  /** Resolvers for scan targets and verification records ("127.0.0.1:5353,10.0.0.2"); empty = the system's. */
  DNS_SERVERS: z
    .string()
    .default("")
    .transform((s) =>
      s
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  /** A verified target's proof is looked at again this many days after its last successful check. */
  TARGET_RECHECK_DAYS: z.coerce.number().min(0.0001).default(30),
  /** How often the re-check loop looks for targets due. */
  TARGET_RECHECK_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  /** Ports of the verification file's look-up (0 turns one off). */
  VERIFICATION_HTTPS_PORT: z.coerce.number().int().min(0).max(65535).default(443),
  VERIFICATION_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(80),
  /** Verification look-ups follow the webhooks' egress rules (DESIGN.md §3 "webhook URLs", §5). */
  WEBHOOK_ALLOW_PRIVATE_URLS: booleanFlag,
  WEBHOOK_ALLOWED_NETWORKS: networkListEnv,
  SCAN_MAX_DURATION_SECONDS: maxDuration,
  /** A pending or running scan with no report for this long is re-dispatched (attempt + 1). */
  SCAN_REDISPATCH_AFTER_SECONDS: seconds(120),
  /** Attempts per scan (first dispatch included) before a silent scan fails. */
  SCAN_MAX_ATTEMPTS: seconds(5),
  /** How often the watchdog looks at active scans. */
  SCAN_WATCHDOG_INTERVAL_MS: z.coerce.number().int().min(100).default(5000),
  /** How often the scheduler looks for due schedules. */
  SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(100).default(10_000),
  /** Consumer group of vulnscan.scan.reports; change only to run isolated instances on a shared broker (tests). */
  REPORTS_CONSUMER_GROUP: z.string().min(1).default("scan-orchestrator"),
  /** A new consumer group starts at the newest report instead of the oldest (tests on a shared broker). */
  REPORTS_SKIP_BACKLOG: booleanFlag,
  /** How often the outbox relays publish what a crash left behind. */
  OUTBOX_RELAY_INTERVAL_MS: z.coerce.number().int().min(100).default(2000),
});

export type Config = z.infer<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config => loadConfig(configSchema, env);
