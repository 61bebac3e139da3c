import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { createLogger, createRpcClient, KafkaBus, loadConfig, runService, startRpcServer, type RunningService, type RpcServer } from "@vulnscan/kit";
import { AuthService, PlanSchema } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { EventEnvelopeSchema, type EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { DetectionSchema, type Detection } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import { FindingService, Severity } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { randomUUID } from "node:crypto";
import { unique } from "../../../test/support/names.js";
import type { FindingsDomain } from "../src/domain/index.js";
import { listQuery, type ListFilter } from "../src/domain/list.js";
import type { SortField, SortOrder } from "../src/domain/types.js";
import { compose } from "../src/compose.js";
import { configSchema, type Config } from "../src/config.js";
import type { FindingStore } from "../src/storage/finding-store.js";

/** AI credits per organization for the fake auth service (default: Startup's 50). */
export const aiCredits = new Map<string, { unlimited: boolean; max: number }>();

/** A tiny AuthService that answers GetPlan only (the real auth is tested on its own). */
export async function startFakeAuth(): Promise<RpcServer> {
  return startRpcServer({
    host: "127.0.0.1",
    port: 0,
    interceptors: [],
    routes: (router) => {
      router.service(AuthService, {
        getPlan: (req) => ({
          plan: create(PlanSchema, { limits: { aiCreditsPerMonth: aiCredits.get(req.orgId) ?? { unlimited: false, max: 50 } } }),
        }),
      });
    },
  });
}

export interface TestService {
  running: RunningService;
  config: Config;
  client: Client<typeof FindingService>;
  /** The use cases (domain/index.ts). */
  domain: FindingsDomain;
  /** The use cases the integration tests drive directly, under the names they had before domain/ was split by concern. */
  app: ReturnType<typeof testApp>;
  store: FindingStore;
  url: string;
}

export function testEnv(kafkaBrokers: string, mongoUrl: string, authPort: number, over: Record<string, string> = {}): Record<string, string> {
  return {
    RPC_PORT: "0",
    ADMIN_PORT: "0",
    MONGO_URL: mongoUrl,
    MONGO_DB: unique("findings"),
    KAFKA_BROKERS: kafkaBrokers,
    KAFKA_PARTITIONS: "3",
    LOG_LEVEL: "silent",
    AUTH_URL: `http://127.0.0.1:${authPort}`,
    DETECTIONS_TOPIC: unique("vulnscan.test.detected"),
    FINDING_EVENTS_TOPIC: unique("vulnscan.test.finding-events"),
    CONSUMER_GROUP: unique("findings"),
    RELAY_INTERVAL_MS: "300",
    PLAN_CACHE_MS: "0",
    ...over,
  };
}

/** The findings service in-process on port 0, as production composes it. */
export async function startFindings(env: Record<string, string>): Promise<TestService> {
  const config = loadConfig(configSchema, env);
  let parts: ReturnType<typeof compose> | undefined;
  const running = await runService({
    name: "findings",
    config,
    compose: (ctx) => {
      parts = compose(ctx);
      return parts;
    },
  });
  await running.started;
  const url = `http://127.0.0.1:${running.rpcPort}`;
  return {
    running,
    config,
    client: createRpcClient(FindingService, url, { breaker: false }),
    domain: parts!.app,
    app: testApp(parts!.app),
    store: parts!.store,
    url,
  };
}

function testApp(d: FindingsDomain) {
  return {
    ingest: d.ingestion.ingest.bind(d.ingestion),
    ingestBatch: d.ingestion.ingestBatch.bind(d.ingestion),
    update: d.triage.update.bind(d.triage),
    bulk: d.triage.bulk.bind(d.triage),
    stats: d.listing.stats.bind(d.listing),
    list: (orgId: string, filter: ListFilter, sort: SortField | undefined, order: SortOrder | undefined, page: number, perPage: number, cursor = "") =>
      d.listing.list(orgId, listQuery(filter, sort, order), page, perPage, cursor),
  };
}

export type DetectionInit = Omit<MessageInitShape<typeof DetectionSchema>, "$typeName">;

export function detection(orgId: string, over: Partial<DetectionInit> = {}): Detection {
  return create(DetectionSchema, {
    detectionId: randomUUID(),
    orgId,
    scanId: "scan_1",
    target: "app.example.test",
    templateId: "tls-weak-cipher",
    title: "Weak TLS cipher suites",
    severity: Severity.HIGH,
    cvssScore: 7.4,
    cvssVector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N",
    cweIds: ["CWE-327"],
    cveIds: ["CVE-2016-2183"],
    tool: "tls",
    affectedComponent: "nginx on 10.0.0.5:443",
    description: "The server accepts 3DES.",
    impact: "Traffic can be decrypted.",
    remediation: { summary: "Disable 3DES", steps: ["Edit ssl_ciphers"], codeExample: "ssl_ciphers HIGH:!3DES;", references: ["https://sweet32.info"] },
    evidence: { request: "ClientHello", response: "ServerHello" },
    frameworks: [{ name: "pci_dss", controls: ["4.2.1"] }],
    epssScore: 0.02,
    kev: false,
    detectedAt: timestampFromDate(new Date()),
    phase: "vulnerability_scanning",
    ...(over as object),
  } as MessageInitShape<typeof DetectionSchema>);
}

/** A bus of its own; `topicPrefix` as the system under test was started with (scripts/system.ts). */
export function newBus(kafkaBrokers: string, topicPrefix = ""): KafkaBus {
  return new KafkaBus({
    clientId: unique("findings-test"),
    brokers: [kafkaBrokers],
    logger: createLogger("findings-test", "silent"),
    partitions: 3,
    topicPrefix,
  });
}

/** Publishes detections as the scanner does (key = scan id). */
export async function publish(bus: KafkaBus, topic: string, ds: Detection[]): Promise<void> {
  for (const d of ds) await bus.publishRaw(topic, d.scanId, Buffer.from(toBinary(DetectionSchema, d)), DetectionSchema.typeName);
}

/** Collects every envelope on the events topic from the beginning. */
export async function collectEvents(bus: KafkaBus, topic: string): Promise<{ events: EventEnvelope[]; stop(): Promise<void> }> {
  const events: EventEnvelope[] = [];
  const sub = await bus.subscribe({
    groupId: unique("events-reader"),
    topic,
    schema: EventEnvelopeSchema,
    handle: async (e) => {
      events.push(e);
    },
  });
  return { events, stop: () => sub.stop() };
}

export async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 45_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await fn();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last, (_k, v) => (typeof v === "bigint" ? String(v) : v))?.slice(0, 500)}`);
}

export const encodeEnvelope = (e: EventEnvelope) => toBinary(EventEnvelopeSchema, e);

/** Two findings services on one database (replicas), with the fake auth they call; `stop` ends all three. */
export async function startReplicas(kafkaBrokers: string, mongoUrl: string, over: Record<string, string> = {}) {
  const auth = await startFakeAuth();
  const env = testEnv(kafkaBrokers, mongoUrl, auth.port, over);
  const a = await startFindings(env);
  const b = await startFindings(env);
  return {
    a,
    b,
    async stop() {
      await b.running.stop();
      await a.running.stop();
      await auth.close();
    },
  };
}
