import type { ConnectRouter } from "@connectrpc/connect";
import type { Db } from "mongodb";
import { startAdminServer } from "./admin-server.js";
import { ConfigError, type ServiceConfig } from "./config.js";
import { derivedCursorKey, setCursorKeys } from "./cursor.js";
import { errorInterceptor } from "./errors.js";
import { healthRoutes } from "./health.js";
import { startIdleCollector } from "./idle-collector.js";
import { KafkaBus } from "./kafka.js";
import { KafkaMetrics } from "./kafka-metrics.js";
import { createLogger, type Logger } from "./logger.js";
import { createMetrics, rpcMetricsInterceptor, type Metrics } from "./metrics.js";
import { createMongo, ensureIndexes, type IndexSpec, type MongoHandle } from "./mongo.js";
import { ProcessedEvents, processedEventsFieldTypes, processedEventsIndexes } from "./processed-events.js";
import { mergeFieldTypes, type FieldTypes } from "./field-types.js";
import { watchClient } from "./client-watchdog.js";
import { Readiness } from "./readiness.js";
import { untilSucceeds } from "./retry.js";
import { startRpcServer } from "./rpc-server.js";
import { requestContextInterceptor } from "./request-context.js";
import { initTelemetry, tracingServerInterceptor } from "./telemetry.js";

export interface ServiceContext<C extends ServiceConfig = ServiceConfig> {
  name: string;
  config: C;
  logger: Logger;
  mongo: MongoHandle;
  db: Db;
  kafka: KafkaBus;
  metrics: Metrics;
  readiness: Readiness;
  processedEvents(consumer: string): ProcessedEvents;
}

/** What a service's compose step hands back to the kit. */
export interface ServiceParts {
  routes?: (router: ConnectRouter) => void;
  /** Fully-qualified RPC service names, answered by grpc.health.v1 Check. */
  serviceNames?: string[];
  indexes?: IndexSpec[];
  /** The type class of each field the service queries (field-types.ts), beside its indexes. */
  fields?: FieldTypes;
  /** Topics this service produces to or consumes from; created (with DLQs) at start. */
  topics?: string[];
  /** Runs once Mongo and Kafka answer: consumers, schedulers. */
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

export interface RunningService {
  rpcPort: number;
  adminPort: number;
  /** Resolves when dependencies answered and start() finished. */
  started: Promise<void>;
  /** Rejects if the service can no longer work and must be restarted (a stuck database client). */
  failed: Promise<never>;
  stop(): Promise<void>;
}

/**
 * Composition shared by every service. The ports open at once (readiness false); the
 * dependencies are then awaited with back-off, so services can start in any order and
 * ride out a database or broker that comes up late.
 */
export async function runService<C extends ServiceConfig>(opts: {
  name: string;
  config: C;
  compose: (ctx: ServiceContext<C>) => ServiceParts | Promise<ServiceParts>;
}): Promise<RunningService> {
  const { name, config } = opts;
  const telemetry = await initTelemetry(name, config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const logger = createLogger(name, config.LOG_LEVEL);
  setCursorKeys(config.CURSOR_KEYS ?? [derivedCursorKey(config.MONGO_URL, config.MONGO_DB)]);
  const metrics = createMetrics(name);
  const readiness = new Readiness();
  const mongo = createMongo(config.MONGO_URL, config.MONGO_DB, name);
  const kafka = new KafkaBus({
    clientId: name,
    brokers: config.KAFKA_BROKERS,
    logger,
    partitions: config.KAFKA_PARTITIONS,
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    metrics: new KafkaMetrics(metrics.registry),
  });
  readiness.add({ name: "mongo", check: () => mongo.pingDatabase() });
  readiness.add({ name: "kafka", check: () => kafka.ping() });

  const ctx: ServiceContext<C> = {
    name,
    config,
    logger,
    mongo,
    db: mongo.db,
    kafka,
    metrics,
    readiness,
    processedEvents: (consumer) => new ProcessedEvents(mongo.db, consumer),
  };
  const parts = await opts.compose(ctx);
  // Merged here, so a field declared with two classes fails the start instead of being retried.
  const fields = mergeFieldTypes(processedEventsFieldTypes, parts.fields ?? {});

  const rpc = await startRpcServer({
    host: config.HOST,
    port: config.RPC_PORT,
    interceptors: [tracingServerInterceptor, requestContextInterceptor, rpcMetricsInterceptor(metrics), errorInterceptor(logger)],
    routes: (router) => {
      healthRoutes(readiness, parts.serviceNames ?? [])(router);
      parts.routes?.(router);
    },
  });
  const admin = await startAdminServer({ host: config.HOST, port: config.ADMIN_PORT, readiness, registry: metrics.registry });
  logger.info({ rpc_port: rpc.port, admin_port: admin.port }, "listening");

  let stopping = false;
  const stopped = new AbortController();
  let fail!: (err: Error) => void;
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  failed.catch(() => undefined);
  const watchdog = watchClient({ name: "mongo", ping: () => mongo.ping(), pingFresh: () => mongo.pingFresh(), onStuck: (why) => fail(new Error(why)), logger });
  const started = (async () => {
    // Dependencies may come up after the service: wait for them, backing off to 5 s, until stopped.
    try {
      await untilSucceeds(
        async () => {
          await mongo.ping();
          await ensureIndexes(mongo.db, [...processedEventsIndexes, ...(parts.indexes ?? [])], { fields, logger });
          if (parts.topics?.length) await kafka.ensureTopics(parts.topics);
          else await kafka.ping();
        },
        { logger, what: "waiting for dependencies", signal: stopped.signal },
      );
    } catch (err) {
      if (stopping) return;
      throw err;
    }
    if (stopping) return;
    await parts.start?.();
    readiness.markStarted();
    logger.info("ready");
  })();
  started.catch((err) => logger.error({ err }, "start failed"));

  return {
    rpcPort: rpc.port,
    adminPort: admin.port,
    started,
    failed,
    stop: async () => {
      if (stopping) return;
      stopping = true;
      stopped.abort();
      // How long each step took, in the "stopped" line: a slow stop says what held it.
      const took: Record<string, number> = {};
      const step = async (what: string, fn: () => Promise<unknown>) => {
        const t0 = Date.now();
        await fn();
        took[what] = Date.now() - t0;
      };
      await step("watchdog", () => watchdog.stop());
      readiness.markStopping();
      await step("rpc", () => rpc.close(config.SHUTDOWN_TIMEOUT_MS / 2));
      await step("parts", async () => parts.stop?.().catch((err) => logger.error({ err }, "stop failed")));
      await step("kafka", () => kafka.close());
      await step("mongo", () => mongo.close());
      await step("admin", () => admin.close());
      await telemetry.shutdown().catch(() => undefined);
      logger.info({ stop_ms: took }, "stopped");
    },
  };
}

/**
 * Process entry point: bad config exits 1 with the problems listed; SIGTERM/SIGINT stop
 * gracefully, with a hard exit if shutdown hangs.
 */
export async function main(start: () => Promise<{ stop(): Promise<void> }>, shutdownTimeoutMs = 10_000): Promise<void> {
  let service: { stop(): Promise<void> };
  try {
    service = await start();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  }
  // Every deployable gives its young generation back when quiet (idle-collector.ts).
  const idle = startIdleCollector();
  let signalled = false;
  const shutdown = (why: string, exitCode: number) => {
    if (signalled) return;
    signalled = true;
    idle.stop();
    setTimeout(() => {
      process.stderr.write(`shutdown after ${why} took longer than ${shutdownTimeoutMs} ms; exiting\n`);
      process.exit(1);
    }, shutdownTimeoutMs).unref();
    service.stop().then(
      () => process.exit(exitCode),
      () => process.exit(1),
    );
  };
  // A service that cannot finish starting (its dependencies answered, then its own start
  // failed) must not linger unready forever: exit, so the supervisor restarts it.
  (service as { started?: Promise<void> }).started?.catch(() => {
    process.stderr.write("start failed; exiting\n");
    shutdown("a failed start", 1);
  });
  // Likewise a service whose database client is stuck (client-watchdog.ts): a new process connects afresh.
  (service as { failed?: Promise<never> }).failed?.catch((err: Error) => {
    process.stderr.write(`${err.message}; exiting\n`);
    shutdown("a stuck client", 1);
  });
  process.once("SIGTERM", () => shutdown("SIGTERM", 0));
  process.once("SIGINT", () => shutdown("SIGINT", 0));
}
