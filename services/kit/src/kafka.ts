// The only module that imports kafkajs: replacing the client library touches this file alone.
import { context } from "@opentelemetry/api";
import { fromBinary, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { ConnectError, Code } from "@connectrpc/connect";
import pRetry from "p-retry";
import { Kafka, logLevel, Partitioners, type Admin, type Consumer, type IHeaders, type KafkaMessage, type Producer, type ISocketFactory } from "kafkajs";
import "./kafkajs-idle.js";
import { keepRunning, type RunningConsumer } from "./consumer-restarts.js";
import type { KafkaMetrics } from "./kafka-metrics.js";
import type { Logger } from "./logger.js";
import type { ProcessedEvents } from "./processed-events.js";
import { extractTraceContext, injectTraceHeaders } from "./telemetry.js";
import { topicConfig } from "./topics.js";
import { setTimeout as sleep } from "node:timers/promises";

export const dlqTopic = (topic: string) => `${topic}.dlq`;

const TOPIC_LEADERS_TIMEOUT_MS = 10_000;

/** A handler throws this when a message can never succeed (bad content): it goes to the DLQ at once. */
export class PoisonMessageError extends Error {
  override name = "PoisonMessageError";
}

export interface MessageMeta {
  topic: string;
  partition: number;
  offset: string;
  key: string | undefined;
  headers: Record<string, string>;
}

export interface SubscribeOptions<D extends DescMessage> {
  groupId: string;
  topic: string;
  schema: D;
  handle: (message: MessageShape<D>, meta: MessageMeta) => Promise<void>;
  /** When given with `processed`, a message whose id was already applied is skipped. */
  idOf?: (message: MessageShape<D>) => string;
  processed?: ProcessedEvents;
  /** Attempts for non-transient failures before the message is dead-lettered. */
  maxAttempts?: number;
  fromBeginning?: boolean;
  /**
   * Start each partition at exactly this offset instead of a committed or latest one, and
   * commit nothing (a consumer that positions itself, e.g. after loading a snapshot).
   */
  startAt?: PartitionOffset[];
  /** Told when the consumer stops by itself (a crash kafkajs does not recover from, or a retried one). */
  onCrash?: (err: Error) => void;
}

export interface PartitionOffset {
  partition: number;
  offset: string;
}

/** kafkajs' socket factory: how connections to brokers are opened (tests cut the network with it). */
export type SocketFactory = ISocketFactory;

export interface Subscription {
  stop(): Promise<void>;
}

/** One decoded record of a batch, with its position. */
export interface BatchItem<D extends DescMessage> {
  message: MessageShape<D>;
  meta: MessageMeta;
}

export interface SubscribeBatchOptions<D extends DescMessage> {
  groupId: string;
  topic: string;
  schema: D;
  /**
   * Handles up to `maxBatch` records of one partition at once, in offset order. Their offsets
   * are resolved only after it returned, so a crash redelivers the whole batch. Throw a
   * PoisonMessageError from `handleOne` (the per-record fallback) for a record that can never apply.
   */
  handleBatch: (items: BatchItem<D>[]) => Promise<void>;
  /** After a batch failed `maxAttempts` times, its records are handled one by one with this (DLQ on failure). */
  handleOne: (message: MessageShape<D>, meta: MessageMeta) => Promise<void>;
  maxBatch?: number;
  maxAttempts?: number;
  fromBeginning?: boolean;
  /**
   * Partitions handled at once (kafkajs `partitionsConsumedConcurrently`; default 1). Order holds
   * within a partition; raise it where a batch waits on I/O and partitions are independent.
   */
  partitionsConcurrently?: number;
}

function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    const first = Array.isArray(v) ? v[0] : v;
    if (first !== undefined) out[k] = first.toString();
  }
  return out;
}

/** Infrastructure hiccups are retried without limit; everything else is retried a few times. */
export function isTransient(err: unknown, depth = 0): boolean {
  if (err instanceof ConnectError) return err.code === Code.Unavailable || err.code === Code.DeadlineExceeded;
  const name = err instanceof Error ? err.name : "";
  if (
    /^(MongoNetwork|MongoServerSelection|MongoNotConnected|MongoTopologyClosed|KafkaJSConnection|KafkaJSNumberOfRetriesExceeded|KafkaJSRequestTimeout)/.test(
      name,
    )
  )
    return true;
  // A bulk write that never reached the server wraps the network error (MongoBulkWriteError's
  // errorResponse, or cause): found by the fault-injection run, where such a batch was dead-lettered.
  const inner = err as { errorResponse?: unknown; cause?: unknown } | undefined;
  const wrapped = inner?.errorResponse instanceof Error ? inner.errorResponse : inner?.cause;
  return depth < 3 && wrapped instanceof Error && isTransient(wrapped, depth + 1);
}

export class KafkaBus {
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private admin?: Admin;
  private producerConnected?: Promise<void>;
  private readonly consumers = new Set<Consumer>();
  private closing = false;

  constructor(
    private readonly opts: {
      clientId: string;
      brokers: string[];
      logger: Logger;
      partitions?: number;
      socketFactory?: SocketFactory;
      /** Consumer lag and dead-letter counts (kafka_consumer_lag, kafka_dead_letters_total). */
      metrics?: KafkaMetrics;
      /**
       * Put before every topic name on the wire (KAFKA_TOPIC_PREFIX), so several installations
       * can share one cluster without reading each other's records. Code and MessageMeta see the
       * names of topics.ts; only the broker sees the prefix.
       */
      topicPrefix?: string;
    },
  ) {
    const log = opts.logger.child({ component: "kafka" });
    this.kafka = new Kafka({
      clientId: opts.clientId,
      brokers: opts.brokers,
      connectionTimeout: 3000,
      retry: { retries: 8, initialRetryTime: 200, maxRetryTime: 5000 },
      logLevel: logLevel.WARN,
      ...(opts.socketFactory ? { socketFactory: opts.socketFactory } : {}),
      logCreator: () => (entry) => {
        const { message, ...extra } = entry.log;
        // kafkajs reports routine rebalances and coordinator moves as errors; keep them at warn.
        log.warn({ namespace: entry.namespace, ...extra }, message);
      },
    });
    // Not kafkajs' idempotent mode (it wants unlimited retries); consumers dedupe by event
    // id instead. One request in flight keeps one key's records in order across retries.
    this.producer = this.kafka.producer({
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
  }

  /** The name `topic` has on the broker. */
  private wire(topic: string): string {
    return `${this.opts.topicPrefix ?? ""}${topic}`;
  }

  /** The name code knows a broker topic by (the prefix taken off). */
  private named(wireTopic: string): string {
    const prefix = this.opts.topicPrefix ?? "";
    return prefix && wireTopic.startsWith(prefix) ? wireTopic.slice(prefix.length) : wireTopic;
  }

  private async adminClient(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      await admin.connect();
      this.admin = admin;
    }
    return this.admin;
  }

  /**
   * Creates each topic and its dead-letter topic if missing, with the settings of `topicConfig`. Safe when
   * replicas race. A topic that exists is left as it is: changing a live topic's settings is an operator's act.
   * Resolves with the names that were missing (plain, without the prefix), once their leaders serve them.
   */
  async ensureTopics(topics: string[]): Promise<string[]> {
    const admin = await this.adminClient();
    const wanted = [...new Set(topics.flatMap((t) => [t, dlqTopic(t)]))];
    const existing = new Set(await admin.listTopics());
    const missing = wanted.filter((t) => !existing.has(this.wire(t)));
    if (missing.length === 0) return [];
    let createError: unknown;
    try {
      await admin.createTopics({
        // Waited for below: kafkajs' own wait gives up on the first "does not host this
        // topic-partition", which a KRaft broker answers until its metadata has the new topics.
        waitForLeaders: false,
        // Partitions, retention and cleanup policy stated, never the broker's defaults (docs/events.md).
        topics: missing.map((topic) => ({
          topic: this.wire(topic),
          numPartitions: this.opts.partitions ?? 6,
          replicationFactor: -1,
          configEntries: Object.entries(topicConfig(topic)).map(([name, value]) => ({ name, value })),
        })),
      });
    } catch (err) {
      // Another replica may have created them between our list and create: they appear below.
      createError = err;
    }
    await this.untilLed(
      admin,
      missing.map((t) => this.wire(t)),
      createError,
    );
    return missing;
  }

  /** Until every partition of `topics` has a leader that serves it (asked every 100 ms, for at most 10 s). */
  private async untilLed(admin: Admin, topics: string[], createError: unknown): Promise<void> {
    try {
      await pRetry(
        async () => {
          const { topics: found } = await admin.fetchTopicMetadata({ topics });
          const led = found.length === topics.length && found.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
          if (!led) throw new Error(`topics without leaders: ${topics.join(", ")}`);
          // A KRaft broker names a new partition's leader a moment before it serves it (ListOffsets,
          // produce and fetch answer "not the leader" meanwhile): done once every partition answers.
          await Promise.all(topics.map((topic) => admin.fetchTopicOffsets(topic)));
        },
        { retries: Number.POSITIVE_INFINITY, minTimeout: 100, factor: 1, maxRetryTime: TOPIC_LEADERS_TIMEOUT_MS },
      );
    } catch (err) {
      throw createError ?? err;
    }
  }

  /** The next offset of every partition of `topic` (what a consumer starting "now" reads first). */
  async latestOffsets(topic: string): Promise<PartitionOffset[]> {
    const admin = await this.adminClient();
    const offsets = await admin.fetchTopicOffsets(this.wire(topic));
    return offsets.map((o) => ({ partition: o.partition, offset: o.high })).sort((a, b) => a.partition - b.partition);
  }

  async ping(): Promise<void> {
    const admin = await this.adminClient();
    await admin.describeCluster();
  }

  private connectProducer(): Promise<void> {
    this.producerConnected ??= this.producer.connect().catch((err) => {
      this.producerConnected = undefined;
      throw err;
    });
    return this.producerConnected;
  }

  /** Publishes one protobuf message; the key keeps one entity's messages in order. */
  async publish<D extends DescMessage>(
    topic: string,
    schema: D,
    message: MessageShape<D>,
    opts: { key: string; headers?: Record<string, string>; partition?: number },
  ): Promise<void> {
    await this.connectProducer();
    const headers = injectTraceHeaders({
      "content-type": "application/x-protobuf",
      "message-type": schema.typeName,
      ...opts.headers,
    });
    await this.producer.send({
      topic: this.wire(topic),
      messages: [
        { key: opts.key, value: Buffer.from(toBinary(schema, message)), headers, ...(opts.partition === undefined ? {} : { partition: opts.partition }) },
      ],
    });
  }

  /** Publishes many records already encoded in one request per topic (order kept per key). */
  async publishRawMany(records: { topic: string; key: string; value: Buffer; messageType: string }[]): Promise<void> {
    if (records.length === 0) return;
    await this.connectProducer();
    const byTopic = new Map<string, { key: string; value: Buffer; headers: Record<string, string> }[]>();
    for (const r of records) {
      const headers = injectTraceHeaders({ "content-type": "application/x-protobuf", "message-type": r.messageType });
      const list = byTopic.get(r.topic) ?? [];
      list.push({ key: r.key, value: r.value, headers });
      byTopic.set(r.topic, list);
    }
    await this.producer.sendBatch({ topicMessages: [...byTopic].map(([topic, messages]) => ({ topic: this.wire(topic), messages })) });
  }

  /** Publishes bytes already encoded (the outbox stores envelopes encoded). */
  async publishRaw(topic: string, key: string, value: Buffer, messageType: string): Promise<void> {
    await this.connectProducer();
    const headers = injectTraceHeaders({ "content-type": "application/x-protobuf", "message-type": messageType });
    await this.producer.send({ topic: this.wire(topic), messages: [{ key, value, headers }] });
  }

  /** A consumer of this bus: tracked for close(), its lag reported to the metrics. */
  private newConsumer(groupId: string): Consumer {
    // A fetch waits at most a second for records (kafkajs' default is 5): disconnect() waits for
    // the fetch in flight, and a service that stops its consumers one after another took up to
    // 9 s to stop (issue 31: `npm start` stops within 10 s). Idle, it is one small fetch a second.
    const consumer = this.kafka.consumer({ groupId, sessionTimeout: 30_000, heartbeatInterval: 3000, maxWaitTimeInMs: 1000 });
    this.consumers.add(consumer);
    const metrics = this.opts.metrics;
    if (metrics) {
      consumer.on(consumer.events.END_BATCH_PROCESS, (e) => metrics.batchDone(groupId, this.named(e.payload.topic), e.payload.partition, e.payload.offsetLag));
      consumer.on(consumer.events.GROUP_JOIN, (e) =>
        metrics.assigned(groupId, Object.fromEntries(Object.entries(e.payload.memberAssignment).map(([t, ps]) => [this.named(t), ps]))),
      );
    }
    return consumer;
  }

  private async deadLetter(msg: KafkaMessage, meta: MessageMeta, groupId: string, err: unknown) {
    this.opts.metrics?.deadLettered(groupId, meta.topic);
    await this.connectProducer();
    await this.producer.send({
      topic: this.wire(dlqTopic(meta.topic)),
      messages: [
        {
          key: msg.key,
          value: msg.value,
          headers: {
            ...meta.headers,
            "x-dlq-error": err instanceof Error ? `${err.name}: ${err.message}` : String(err),
            "x-dlq-topic": meta.topic,
            "x-dlq-partition": String(meta.partition),
            "x-dlq-offset": meta.offset,
            "x-dlq-group": groupId,
          },
        },
      ],
    });
  }

  async subscribe<D extends DescMessage>(opts: SubscribeOptions<D>): Promise<Subscription> {
    const log = this.opts.logger.child({ component: "consumer", group: opts.groupId, topic: opts.topic });
    const start = () => this.started(opts.groupId, (consumer) => this.run(consumer, opts, log));
    // One that positions itself (startAt) or handles its own crashes (onCrash) is not restarted here.
    if (opts.startAt || opts.onCrash) return start();
    return keepRunning({ start, log, closing: () => this.closing });
  }

  /** A new consumer of the group, run by `run`; one that fails to start does not linger connected (and counted). */
  private async started(groupId: string, run: (consumer: Consumer) => Promise<void>): Promise<RunningConsumer> {
    const consumer = this.newConsumer(groupId);
    const stop = async () => {
      this.consumers.delete(consumer);
      await consumer.disconnect();
    };
    try {
      await run(consumer);
    } catch (err) {
      await stop().catch(() => undefined);
      throw err;
    }
    return { onCrash: (listener) => consumer.on(consumer.events.CRASH, (e) => listener(e.payload.error, e.payload.restart)), stop };
  }

  private async run<D extends DescMessage>(consumer: Consumer, opts: SubscribeOptions<D>, log: Logger): Promise<void> {
    await connectAndSubscribe(consumer, this.wire(opts.topic), opts.fromBeginning ?? true, log);
    const maxAttempts = opts.maxAttempts ?? 3;
    if (opts.onCrash) {
      const onCrash = opts.onCrash;
      consumer.on(consumer.events.CRASH, (e) => onCrash(e.payload.error));
    }

    await consumer.run({
      ...(opts.startAt ? { autoCommit: false } : {}),
      eachMessage: async ({ topic, partition, message, heartbeat }) => {
        const meta: MessageMeta = {
          topic: this.named(topic),
          partition,
          offset: message.offset,
          key: message.key?.toString(),
          headers: headersToStrings(message.headers),
        };
        let decoded: MessageShape<D>;
        try {
          if (!message.value) throw new PoisonMessageError("empty message value");
          decoded = fromBinary(opts.schema, message.value);
        } catch (err) {
          log.error({ err, offset: meta.offset }, "undecodable message sent to dead-letter topic");
          await this.deadLetter(message, meta, opts.groupId, err);
          return;
        }

        const id = opts.idOf?.(decoded);
        if (id && opts.processed && (await opts.processed.seen(id))) return;

        for (let attempt = 1; ; attempt++) {
          try {
            await context.with(extractTraceContext(meta.headers), () => opts.handle(decoded, meta));
            if (id && opts.processed) await opts.processed.record(id);
            return;
          } catch (err) {
            if (this.closing) throw err; // leave the offset uncommitted; another member redelivers it
            const transient = isTransient(err) && !(err instanceof PoisonMessageError);
            if (!transient && (err instanceof PoisonMessageError || attempt >= maxAttempts)) {
              log.error({ err, offset: meta.offset, attempt }, "message failed; sent to dead-letter topic");
              await this.deadLetter(message, meta, opts.groupId, err);
              return;
            }
            log.warn({ err, offset: meta.offset, attempt, transient }, "message failed; retrying");
            await sleep(Math.min(200 * 2 ** Math.min(attempt, 8), 15_000));
            await heartbeat();
          }
        }
      },
    });
    for (const p of opts.startAt ?? []) consumer.seek({ topic: this.wire(opts.topic), partition: p.partition, offset: p.offset });
  }

  /**
   * Consumes in batches (kafkajs eachBatch): records are decoded (undecodable ones go to the
   * DLQ), handed to `handleBatch` in slices of `maxBatch`, and each slice's offsets resolved
   * after it returned. Transient failures are retried without limit; a slice that keeps failing
   * otherwise is handled record by record with `handleOne`, so one bad record cannot stall the rest.
   */
  async subscribeBatch<D extends DescMessage>(opts: SubscribeBatchOptions<D>): Promise<Subscription> {
    const log = this.opts.logger.child({ component: "consumer", group: opts.groupId, topic: opts.topic });
    return keepRunning({ start: () => this.started(opts.groupId, (consumer) => this.runBatches(consumer, opts, log)), log, closing: () => this.closing });
  }

  private async runBatches<D extends DescMessage>(consumer: Consumer, opts: SubscribeBatchOptions<D>, log: Logger): Promise<void> {
    await connectAndSubscribe(consumer, this.wire(opts.topic), opts.fromBeginning ?? true, log);
    const maxAttempts = opts.maxAttempts ?? 3;
    const maxBatch = opts.maxBatch ?? 500;
    const one = async (item: BatchItem<D>, raw: KafkaMessage, heartbeat: () => Promise<void>) => {
      for (let attempt = 1; ; attempt++) {
        try {
          await context.with(extractTraceContext(item.meta.headers), () => opts.handleOne(item.message, item.meta));
          return;
        } catch (err) {
          if (this.closing) throw err;
          const transient = isTransient(err) && !(err instanceof PoisonMessageError);
          if (!transient && (err instanceof PoisonMessageError || attempt >= maxAttempts)) {
            log.error({ err, offset: item.meta.offset, attempt }, "message failed; sent to dead-letter topic");
            await this.deadLetter(raw, item.meta, opts.groupId, err);
            return;
          }
          await sleep(Math.min(200 * 2 ** Math.min(attempt, 8), 15_000));
          await heartbeat();
        }
      }
    };

    await consumer.run({
      partitionsConsumedConcurrently: opts.partitionsConcurrently ?? 1,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        const { partition } = batch;
        const topic = this.named(batch.topic);
        for (let start = 0; start < batch.messages.length; start += maxBatch) {
          if (!isRunning() || isStale()) return;
          const slice = batch.messages.slice(start, start + maxBatch);
          const items: BatchItem<D>[] = [];
          const raws: KafkaMessage[] = [];
          for (const message of slice) {
            const meta: MessageMeta = { topic, partition, offset: message.offset, key: message.key?.toString(), headers: headersToStrings(message.headers) };
            try {
              if (!message.value) throw new PoisonMessageError("empty message value");
              items.push({ message: fromBinary(opts.schema, message.value), meta });
              raws.push(message);
            } catch (err) {
              log.error({ err, offset: meta.offset }, "undecodable message sent to dead-letter topic");
              await this.deadLetter(message, meta, opts.groupId, err);
            }
          }
          for (let attempt = 1; items.length > 0; attempt++) {
            try {
              await opts.handleBatch(items);
              break;
            } catch (err) {
              if (this.closing) throw err;
              const transient = isTransient(err) && !(err instanceof PoisonMessageError);
              if (!transient && (err instanceof PoisonMessageError || attempt >= maxAttempts)) {
                log.warn({ err, attempt, size: items.length }, "batch failed; handling its records one by one");
                for (const [i, item] of items.entries()) {
                  await one(item, raws[i]!, heartbeat);
                  resolveOffset(item.meta.offset);
                }
                break;
              }
              log.warn({ err, attempt, transient }, "batch failed; retrying");
              await sleep(Math.min(200 * 2 ** Math.min(attempt, 8), 15_000));
              await heartbeat();
            }
          }
          resolveOffset(slice.at(-1)!.offset);
          await heartbeat();
        }
      },
    });
  }

  /** Stops consumers first (their in-flight message finishes), then the producer. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.consumers].map((c) => c.disconnect()));
    this.consumers.clear();
    if (this.producerConnected) await this.producer.disconnect().catch(() => undefined);
    if (this.admin) await this.admin.disconnect().catch(() => undefined);
  }
}

/**
 * Connects and subscribes. On a fresh cluster a topic another service has just created can be
 * missing from the broker's metadata for a moment ("does not host this topic-partition"): those
 * retriable refusals are retried.
 */
async function connectAndSubscribe(consumer: Consumer, topic: string, fromBeginning: boolean, log: Logger): Promise<void> {
  await consumer.connect();
  await pRetry(() => consumer.subscribe({ topic, fromBeginning }), {
    retries: 9,
    minTimeout: 250,
    factor: 1.5,
    maxTimeout: 2500,
    shouldRetry: ({ error, attemptNumber }) => {
      const retriable = (error as { retriable?: boolean }).retriable === true;
      if (retriable) log.warn({ err: error.message, attempt: attemptNumber }, "subscribe retried");
      return retriable;
    },
  });
}
