import type { Client } from "@connectrpc/connect";
import { createRpcClient } from "@vulnscan/kit";
import { Health, HealthCheckResponse_ServingStatus } from "@vulnscan/proto/grpc/health/v1/health_pb.js";
import { AuthService } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { FindingService } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { RetestService } from "@vulnscan/proto/vulnscan/findings/v1/retest_service_pb.js";
import { ScanDiffService } from "@vulnscan/proto/vulnscan/findings/v1/scan_diff_service_pb.js";
import { GrcService } from "@vulnscan/proto/vulnscan/grc/v1/grc_service_pb.js";
import { ScanService } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { TargetService } from "@vulnscan/proto/vulnscan/scans/v1/targets_service_pb.js";
import { WebhookService } from "@vulnscan/proto/vulnscan/webhooks/v1/webhooks_service_pb.js";
import type { GatewayConfig } from "./config.js";

export type UpstreamName = "auth" | "scan-orchestrator" | "findings" | "grc" | "webhook-dispatcher";

export interface Upstreams {
  urls: Record<UpstreamName, string>;
  health: Record<UpstreamName, Client<typeof Health>>;
  auth: Client<typeof AuthService>;
  scans: Client<typeof ScanService>;
  /** Verified targets (issue 29), served by scan-orchestrator too. */
  targets: Client<typeof TargetService>;
  findings: Client<typeof FindingService>;
  /** Retests of one finding (issue 28), served by findings too; optional so test fakes may leave it out. */
  retests?: Client<typeof RetestService>;
  /** Scan comparison (issue 28), served by findings too; optional like retests. */
  diffs?: Client<typeof ScanDiffService>;
  webhooks: Client<typeof WebhookService>;
  grc: Client<typeof GrcService>;
}

export function createUpstreams(config: GatewayConfig): Upstreams {
  const urls: Record<UpstreamName, string> = {
    auth: config.AUTH_URL,
    "scan-orchestrator": config.SCAN_ORCHESTRATOR_URL,
    findings: config.FINDINGS_URL,
    grc: config.GRC_URL,
    "webhook-dispatcher": config.WEBHOOK_DISPATCHER_URL,
  };
  // Health probes bypass the breaker: they must see recovery as soon as it happens.
  const health = Object.fromEntries(
    Object.entries(urls).map(([name, url]) => [name, createRpcClient(Health, url, { breaker: false, timeoutMs: config.HEALTH_TIMEOUT_MS })]),
  ) as Upstreams["health"];
  const rpc = { timeoutMs: config.UPSTREAM_TIMEOUT_MS };
  return {
    urls,
    health,
    auth: createRpcClient(AuthService, urls.auth, rpc),
    scans: createRpcClient(ScanService, urls["scan-orchestrator"], rpc),
    // Verification looks up DNS and HTTP (up to 10 s a look-up; a range has one per address).
    targets: createRpcClient(TargetService, urls["scan-orchestrator"], { timeoutMs: Math.max(config.UPSTREAM_TIMEOUT_MS, 60_000) }),
    findings: createRpcClient(FindingService, urls.findings, rpc),
    retests: createRpcClient(RetestService, urls.findings, rpc),
    diffs: createRpcClient(ScanDiffService, urls.findings, rpc),
    // A test delivery waits for the receiver (up to 30 s): its RPCs may take that long.
    webhooks: createRpcClient(WebhookService, urls["webhook-dispatcher"], { timeoutMs: Math.max(config.UPSTREAM_TIMEOUT_MS, 35_000) }),
    grc: createRpcClient(GrcService, urls.grc, rpc),
  };
}

export type UpstreamStatus = "up" | "down";

/** Asks every upstream's grpc.health.v1 in parallel; a timeout counts as down. */
export async function checkUpstreams(upstreams: Upstreams): Promise<Record<UpstreamName, UpstreamStatus>> {
  const entries = await Promise.all(
    (Object.keys(upstreams.health) as UpstreamName[]).map(async (name) => {
      try {
        const res = await upstreams.health[name].check({ service: "" });
        return [name, res.status === HealthCheckResponse_ServingStatus.SERVING ? "up" : "down"] as const;
      } catch {
        return [name, "down"] as const;
      }
    }),
  );
  return Object.fromEntries(entries) as Record<UpstreamName, UpstreamStatus>;
}
