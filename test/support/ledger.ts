import { fromBinary } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Topics, topicConfig } from "@vulnscan/kit";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { DetectionSchema } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import { Kafka, logLevel, type Consumer } from "kafkajs";

/*
 * An independent ledger of what the system published, kept by a test (the fault-injection run):
 * its own kafkajs consumer group reads every topic from the beginning and records each event by
 * envelope id and each detection by detection id, with how many copies Kafka carried (at least
 * once: a copy is a redelivery, not a second fact). It knows nothing of the services' databases
 * or counters, so comparing it with what the API answers finds what was lost or doubled.
 */

export interface LedgerEvent {
  id: string;
  type: string;
  orgId: string;
  occurredAt: Date;
  /** scan_id or finding_id of the payload, when it has one. */
  scanId?: string;
  findingId?: string;
  phase?: string;
  /** A vulnerability event's severity (as the finding had it when the event was made). */
  severity?: string;
  copies: number;
}

export interface LedgerDetection {
  id: string;
  orgId: string;
  scanId: string;
  /** The natural key of a finding: organization, target, template, affected component. */
  key: string;
  severity: number;
  copies: number;
}

/** The topics whose records are envelopes (events) and the one of detections. */
const EVENT_TOPICS = [Topics.scanEvents, Topics.findingEvents, Topics.grcEvents, Topics.authEvents, Topics.webhookEvents];
const ALL_TOPICS = [...EVENT_TOPICS, Topics.findingsDetected, Topics.scanJobs, Topics.scanReports, Topics.scanCancellations];
const DLQ_TOPICS = ALL_TOPICS.map((t) => `${t}.dlq`);

export const fingerprintKey = (d: { orgId: string; target: string; templateId: string; affectedComponent: string }) =>
  [d.orgId, d.target, d.templateId, d.affectedComponent].join("|");

export class Ledger {
  readonly events = new Map<string, LedgerEvent>();
  readonly detections = new Map<string, LedgerDetection>();
  /** Records that landed on a dead-letter topic: each is a message some service gave up on. */
  readonly deadLetters: string[] = [];
  /** Consumer crashes kafkajs did not restart by itself (the ledger would then be incomplete). */
  readonly fatal: string[] = [];
  private constructor(private readonly consumer: Consumer) {}

  /**
   * Creates every topic (and its dead-letter topic) with the services' partition count, so the
   * ledger reads them from their first record, then starts consuming in a group of its own.
   */
  static async start(brokers: string, groupId: string, partitions = 6): Promise<Ledger> {
    const kafka = new Kafka({ clientId: groupId, brokers: [brokers], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    try {
      const existing = new Set(await admin.listTopics());
      const missing = [...ALL_TOPICS, ...DLQ_TOPICS].filter((t) => !existing.has(t));
      if (missing.length)
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({
            topic,
            numPartitions: partitions,
            // As the services create them (KafkaBus.ensureTopics), whoever comes first.
            configEntries: Object.entries(topicConfig(topic)).map(([name, value]) => ({ name, value })),
          })),
        });
    } finally {
      await admin.disconnect();
    }
    const consumer = kafka.consumer({ groupId, sessionTimeout: 30_000, heartbeatInterval: 3000 });
    const ledger = new Ledger(consumer);
    consumer.on(consumer.events.CRASH, (e) => {
      if (!e.payload.restart) ledger.fatal.push(String(e.payload.error));
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [...EVENT_TOPICS, Topics.findingsDetected, ...DLQ_TOPICS], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        if (!message.value) return;
        if (topic.endsWith(".dlq")) ledger.deadLetters.push(`${topic}[${partition}]@${message.offset}`);
        else if (topic === Topics.findingsDetected) ledger.recordDetection(message.value);
        else ledger.recordEvent(message.value);
      },
    });
    return ledger;
  }

  private recordEvent(value: Buffer) {
    const e = fromBinary(EventEnvelopeSchema, value);
    const seen = this.events.get(e.id);
    if (seen) {
      seen.copies++;
      return;
    }
    const payload = (e.payload.value ?? {}) as { scanId?: string; findingId?: string; phase?: string; severity?: string };
    this.events.set(e.id, {
      id: e.id,
      type: e.type,
      orgId: e.orgId,
      occurredAt: e.occurredAt ? timestampDate(e.occurredAt) : new Date(0),
      ...(payload.scanId ? { scanId: payload.scanId } : {}),
      ...(payload.findingId ? { findingId: payload.findingId } : {}),
      ...(payload.phase ? { phase: payload.phase } : {}),
      ...(typeof payload.severity === "string" ? { severity: payload.severity } : {}),
      copies: 1,
    });
  }

  private recordDetection(value: Buffer) {
    const d = fromBinary(DetectionSchema, value);
    // A scan's coverage record shares the topic (detection.proto) and is no detection.
    if (d.coverage) return;
    const seen = this.detections.get(d.detectionId);
    if (seen) {
      seen.copies++;
      return;
    }
    this.detections.set(d.detectionId, { id: d.detectionId, orgId: d.orgId, scanId: d.scanId, key: fingerprintKey(d), severity: d.severity, copies: 1 });
  }

  eventsOf(filter: (e: LedgerEvent) => boolean): LedgerEvent[] {
    return [...this.events.values()].filter(filter);
  }

  /** Distinct events by type, and Kafka copies beyond the first (redeliveries). */
  counts() {
    const byType: Record<string, number> = {};
    let eventCopies = 0;
    for (const e of this.events.values()) {
      byType[e.type] = (byType[e.type] ?? 0) + 1;
      eventCopies += e.copies - 1;
    }
    let detectionCopies = 0;
    for (const d of this.detections.values()) detectionCopies += d.copies - 1;
    return {
      events: this.events.size,
      eventsByType: Object.fromEntries(Object.entries(byType).sort()),
      eventRedeliveries: eventCopies,
      detections: this.detections.size,
      detectionRedeliveries: detectionCopies,
      fingerprints: new Set([...this.detections.values()].map((d) => d.key)).size,
      deadLetters: this.deadLetters.length,
    };
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect().catch(() => undefined);
  }
}
