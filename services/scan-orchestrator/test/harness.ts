import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import {
  createLogger,
  createMongo,
  errorInfoOf,
  KafkaBus,
  loadConfig,
  runService,
  startRpcServer,
  Topics,
  type RunningService,
  type Subscription,
} from "@vulnscan/kit";
import { AuthService, PlanTier, type PlanSchema } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { EventEnvelopeSchema, type EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { ScanCancellationSchema, ScanJobSchema, ScanReportSchema, type ScanCancellation, type ScanJob } from "@vulnscan/proto/vulnscan/scans/v1/jobs_pb.js";
import { ScanService } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { unique } from "../../../test/support/names.js";
import { compose } from "../src/compose.js";
import { configSchema } from "../src/config.js";

/*
 * Integration harness: a stand-in auth (only AuthService.GetPlan, served in-process over the
 * kit's RPC server), orchestrator instances run in-process with runService on port 0, a real
 * gRPC client, and a Kafka collector for what the orchestrator publishes.
 */

type PlanInit = MessageInitShape<typeof PlanSchema>;

export const plans = {
  startup: {
    tier: PlanTier.STARTUP,
    limits: { concurrentScans: { max: 1 }, scansPerMonth: { max: 25 }, minCidrPrefixLength: 28 },
    schedulesEnabled: false,
  },
  professional: {
    tier: PlanTier.PROFESSIONAL,
    limits: { concurrentScans: { max: 3 }, scansPerMonth: { max: 150 }, minCidrPrefixLength: 24 },
    schedulesEnabled: true,
  },
  enterprise: {
    tier: PlanTier.ENTERPRISE,
    limits: { concurrentScans: { unlimited: true }, scansPerMonth: { unlimited: true }, minCidrPrefixLength: 20 },
    schedulesEnabled: true,
  },
} satisfies Record<string, PlanInit>;

export interface AuthStub {
  url: string;
  /** Organization id → plan. Orgs not set are NOT_FOUND. */
  set(orgId: string, plan: PlanInit): void;
  calls: number;
  close(): Promise<void>;
}

export async function startAuthStub(): Promise<AuthStub> {
  const table = new Map<string, PlanInit>();
  const stub = { calls: 0 } as AuthStub;
  const server = await startRpcServer({
    host: "127.0.0.1",
    port: 0,
    interceptors: [],
    routes: (router) =>
      router.service(AuthService, {
        async getPlan(req) {
          stub.calls++;
          const plan = table.get(req.orgId);
          if (!plan) throw new ConnectError("organization not found", Code.NotFound);
          return { plan };
        },
      }),
  });
  stub.url = `http://127.0.0.1:${server.port}`;
  stub.set = (orgId, plan) => table.set(orgId, plan);
  stub.close = () => server.close(100);
  return stub;
}

export interface Orchestrator {
  running: RunningService;
  client: Client<typeof ScanService>;
  stop(): Promise<void>;
}

/** Base environment: isolated database and consumer group, documentation ranges only. */
export function orchestratorEnv(auth: AuthStub, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    MONGO_URL: inject("mongoUrl"),
    MONGO_DB: unique("scans"),
    KAFKA_BROKERS: inject("kafkaBrokers"),
    KAFKA_PARTITIONS: "2",
    RPC_PORT: "0",
    ADMIN_PORT: "0",
    LOG_LEVEL: "silent",
    AUTH_URL: auth.url,
    PLAN_CACHE_TTL_MS: "0",
    // Only documentation ranges: nothing a stray scanner could reach.
    SCAN_ALLOW_PRIVATE_TARGETS: "true",
    SCAN_ALLOWED_NETWORKS: "192.0.2.0/24,198.51.100.0/24,203.0.113.0/24,2001:db8::/32",
    // The same ranges need no verified target (issue 29), as the lab in every other run.
    SCAN_VERIFIED_NETWORKS: "192.0.2.0/24,198.51.100.0/24,203.0.113.0/24,2001:db8::/32",
    REPORTS_CONSUMER_GROUP: unique("orchestrator"),
    // The shared topic holds every earlier run's reports; start at the newest (see warmUp).
    REPORTS_SKIP_BACKLOG: "true",
    OUTBOX_RELAY_INTERVAL_MS: "1000",
    ...overrides,
  };
}

export async function startOrchestrator(env: Record<string, string>): Promise<Orchestrator> {
  const config = loadConfig(configSchema, env);
  const running = await runService({ name: "scan-orchestrator", config, compose });
  await running.started;
  const client = createClient(ScanService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${running.rpcPort}` }));
  return {
    running,
    client,
    stop: async () => {
      await running.stop();
      const mongo = createMongo(config.MONGO_URL, config.MONGO_DB, "orchestrator-test-cleanup");
      await mongo.db.dropDatabase().catch(() => undefined);
      await mongo.close();
    },
  };
}

/**
 * Waits until the orchestrator's report consumer has joined its group and applies reports. Its
 * group starts at the newest report, so reports sent before the join would be missed; and
 * timing-sensitive tests (the watchdog) must not count the join against their clock.
 */
export async function warmUp(orch: Orchestrator, kafka: Collector, auth: AuthStub): Promise<void> {
  const orgId = unique("org_warmup");
  auth.set(orgId, plans.enterprise);
  const scan = (await orch.client.createScan({ orgId, target: "192.0.2.99", authorized: true })).scan!;
  // Heartbeat as the newest attempt dispatched: a fast watchdog may re-dispatch meanwhile.
  await eventually(
    "report consumer ready",
    async () => {
      const attempt = Math.max(1, ...kafka.jobs.filter((j) => j.scanId === scan.id).map((j) => j.attempt));
      await kafka.report({ scanId: scan.id, orgId, attempt, report: { case: "heartbeat", value: { currentTool: "warmup" } } });
      await new Promise((r) => setTimeout(r, 400));
      return (await orch.client.getScan({ orgId, scanId: scan.id })).scan?.currentTool === "warmup";
    },
    60_000,
  );
  await orch.client.cancelScan({ orgId, scanId: scan.id });
}

/**
 * What the orchestrator published, collected from Kafka (each test filters by its scan ids).
 * Publishing is at least once (a relay pass may repeat what a flush sent), so, like every
 * consumer, the collector de-duplicates: events by envelope id, jobs by scan and attempt.
 */
export class Collector {
  readonly events: EventEnvelope[] = [];
  readonly jobs: ScanJob[] = [];
  readonly cancellations: ScanCancellation[] = [];
  private readonly seen = new Set<string>();
  private once(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
  private readonly bus: KafkaBus;
  private readonly subs: Subscription[] = [];

  constructor() {
    this.bus = new KafkaBus({ clientId: "orchestrator-test", brokers: [inject("kafkaBrokers")], logger: createLogger("test", "silent") });
  }

  async start(): Promise<void> {
    await this.bus.ensureTopics([Topics.scanEvents, Topics.scanJobs, Topics.scanCancellations, Topics.scanReports]);
    const group = unique("collector");
    this.subs.push(
      await this.bus.subscribe({
        groupId: `${group}-events`,
        topic: Topics.scanEvents,
        schema: EventEnvelopeSchema,
        handle: async (m) => void (this.once(`e:${m.id}`) && this.events.push(m)),
      }),
      await this.bus.subscribe({
        groupId: `${group}-jobs`,
        topic: Topics.scanJobs,
        schema: ScanJobSchema,
        handle: async (m) => void (this.once(`j:${m.scanId}:${m.attempt}`) && this.jobs.push(m)),
      }),
      await this.bus.subscribe({
        groupId: `${group}-cancellations`,
        topic: Topics.scanCancellations,
        schema: ScanCancellationSchema,
        handle: async (m) => void (this.once(`c:${m.scanId}`) && this.cancellations.push(m)),
      }),
    );
  }

  eventsOf(scanId: string): EventEnvelope[] {
    return this.events.filter((e) => (e.payload.value as { scanId?: string } | undefined)?.scanId === scanId);
  }

  /** The payload values of one scan's events of one type, in order. */
  payloads(scanId: string, type: string): unknown[] {
    return this.eventsOf(scanId)
      .filter((e) => e.type === type)
      .map((e) => e.payload.value);
  }

  async report(r: MessageInitShape<typeof ScanReportSchema>): Promise<void> {
    const msg = create(ScanReportSchema, { reportId: randomUUID(), workerId: "test-worker", ...r });
    await this.bus.publish(Topics.scanReports, ScanReportSchema, msg, { key: msg.scanId });
  }

  async stop(): Promise<void> {
    for (const s of this.subs) await s.stop();
    await this.bus.close();
  }
}

type Maybe<T> = T | false | null | undefined | "" | 0;

/** Polls until `fn` returns something truthy, and returns it. */
export async function eventually<T>(what: string, fn: () => Maybe<T> | Promise<Maybe<T>>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as T;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Code, error_code and field of a failed call. */
export async function rpcError(p: Promise<unknown>): Promise<{ code: string; errorCode?: string; field?: string; message: string }> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: Code[e.code], ...errorInfoOf(e), message: e.rawMessage };
  }
  throw new Error("expected the call to fail");
}
