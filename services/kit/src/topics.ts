/**
 * Kafka topic names (`vulnscan.<domain>.<kind>`), in one place so producers and
 * consumers cannot drift apart. Keys are entity ids, so one entity's records stay in order.
 */
export const Topics = {
  /** scan.* events (EventEnvelope), key scan id. Producer: scan-orchestrator. */
  scanEvents: "vulnscan.scan.events",
  /** ScanJob commands, key scan id. Producer: scan-orchestrator; consumer: scanner. */
  scanJobs: "vulnscan.scan.jobs",
  /** ScanCancellation commands, key scan id. Producer: scan-orchestrator; consumer: every scanner worker. */
  scanCancellations: "vulnscan.scan.cancellations",
  /** ScanReport progress/outcome, key scan id. Producer: scanner; consumer: scan-orchestrator. */
  scanReports: "vulnscan.scan.reports",
  /** Detection records, key scan id. Producer: scanner; consumer: findings. */
  findingsDetected: "vulnscan.findings.detected",
  /** RetestJob commands (one check against one component), key finding id. Producer: findings; consumer: scanner. */
  retestJobs: "vulnscan.retest.jobs",
  /** RetestResult verdicts, key finding id. Producer: scanner; consumer: findings. */
  retestResults: "vulnscan.retest.results",
  /** vulnerability.* events (EventEnvelope), key finding id. Producer: findings. */
  findingEvents: "vulnscan.finding.events",
  /** control/evidence/framework/audit events (EventEnvelope). Producer: grc. */
  grcEvents: "vulnscan.grc.events",
  /** user.* events (EventEnvelope), key user id. Producer: auth. */
  authEvents: "vulnscan.auth.events",
  /** Reserved for webhook.test (EventEnvelope); nothing is published on it today. */
  webhookEvents: "vulnscan.webhook.events",
} as const;

export type TopicName = (typeof Topics)[keyof typeof Topics];

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What a topic carries and the settings it is created with (KafkaBus.ensureTopics), so nothing
 * is left to the broker's defaults. docs/events.md and the AsyncAPI document
 * (scripts/asyncapi.ts) are written from this table.
 */
export interface TopicSpec {
  /** `public`: an EventEnvelope topic other teams may consume; `internal`: a command or work queue between our services. */
  audience: "public" | "internal";
  /** Event kinds it carries, by prefix of the envelope's `type` (public topics; every kind is on exactly one topic). */
  kinds: readonly string[];
  /** Full protobuf name of every record's value. */
  message: string;
  /** The record key and what it keeps in order. */
  key: string;
  producer: string;
  consumers: readonly string[];
  /** `retention.ms`. */
  retentionMs: number;
  /** `cleanup.policy`: records are facts in a sequence, not the latest state of a key, so never compacted. */
  cleanupPolicy: "delete";
  description: string;
}

/** Public event topics keep two weeks: a consumer down over a long weekend still catches up, and a replay by timestamp reaches back that far. */
export const EVENT_RETENTION_MS = 14 * DAY_MS;
/** Commands and work between our services: a week, longer than any outage they must ride out. */
export const INTERNAL_RETENTION_MS = 7 * DAY_MS;
/** Dead-letter topics keep a month, time for someone to read and re-drive what landed there. */
export const DLQ_RETENTION_MS = 30 * DAY_MS;

export const TOPIC_SPECS: Readonly<Record<TopicName, TopicSpec>> = {
  [Topics.scanEvents]: {
    kinds: ["scan.", "target."],
    audience: "public",
    message: "vulnscan.events.v1.EventEnvelope",
    key: "scan id: one scan's events stay in order (created, started, progress…, completed or failed)",
    producer: "scan-orchestrator",
    // scan-orchestrator itself: scan.completed/scan.failed feed the targets' inventories.
    consumers: ["grc", "webhook-dispatcher", "scan-orchestrator"],
    retentionMs: EVENT_RETENTION_MS,
    cleanupPolicy: "delete",
    description:
      "A scan's lifecycle: scan.created, scan.started, scan.progress (one per finished phase), scan.completed, scan.failed; target.verification_expired (keyed by target id) when a verified target's proof is gone.",
  },
  [Topics.findingEvents]: {
    kinds: ["vulnerability.", "finding."],
    audience: "public",
    message: "vulnscan.events.v1.EventEnvelope",
    key: "finding id: one finding's events stay in order (found, then its status changes)",
    producer: "findings",
    consumers: ["grc", "webhook-dispatcher"],
    retentionMs: EVENT_RETENTION_MS,
    cleanupPolicy: "delete",
    description:
      "Findings: vulnerability.found for every new finding (plus vulnerability.critical or vulnerability.high for those severities), vulnerability.status_changed on triage (plus vulnerability.resolved); finding.sla_breached once per finding and deadline, finding.acceptance_requested and finding.acceptance_expired (risk acceptance).",
  },
  [Topics.grcEvents]: {
    kinds: ["control.", "evidence.", "framework.", "audit.", "quarantine."],
    audience: "public",
    message: "vulnscan.events.v1.EventEnvelope",
    key: "id of the entity the event is about (control, evidence, framework or audit request): that entity's events stay in order",
    producer: "grc",
    consumers: ["webhook-dispatcher"],
    retentionMs: EVENT_RETENTION_MS,
    cleanupPolicy: "delete",
    description:
      "Compliance: control.status_changed, evidence.uploaded, evidence.expiring, framework.score_changed, audit.request_created, quarantine.threat_detected.",
  },
  [Topics.authEvents]: {
    kinds: ["user.", "auth."],
    audience: "public",
    message: "vulnscan.events.v1.EventEnvelope",
    key: "user id (api key id for auth.api_key_revoked, org id for auth.plan_changed): that subject's events stay in order",
    producer: "auth",
    consumers: ["gateway", "webhook-dispatcher"],
    retentionMs: EVENT_RETENTION_MS,
    cleanupPolicy: "delete",
    description:
      "Accounts: user.login_failed and user.mfa_disabled (customer event kinds), and auth.* facts the gateways authenticate from (internal: never delivered to webhooks; auth.heartbeat is written to every partition every few seconds).",
  },
  [Topics.webhookEvents]: {
    kinds: ["webhook."],
    audience: "public",
    message: "vulnscan.events.v1.EventEnvelope",
    key: "webhook id",
    producer: "webhook-dispatcher (reserved: nothing is published today)",
    consumers: [],
    retentionMs: EVENT_RETENTION_MS,
    cleanupPolicy: "delete",
    description: "Reserved for webhook.test should it ever travel on Kafka; the dispatcher builds and delivers it in-process today.",
  },
  [Topics.scanJobs]: {
    kinds: [],
    audience: "internal",
    message: "vulnscan.scans.v1.ScanJob",
    key: "scan id",
    producer: "scan-orchestrator",
    consumers: ["scanner"],
    retentionMs: INTERNAL_RETENTION_MS,
    cleanupPolicy: "delete",
    description: "A scan to run, for one scanner worker.",
  },
  [Topics.scanCancellations]: {
    kinds: [],
    audience: "internal",
    message: "vulnscan.scans.v1.ScanCancellation",
    key: "scan id",
    producer: "scan-orchestrator",
    consumers: ["scanner (every worker)"],
    retentionMs: INTERNAL_RETENTION_MS,
    cleanupPolicy: "delete",
    description: "A running scan to stop.",
  },
  [Topics.scanReports]: {
    kinds: [],
    audience: "internal",
    message: "vulnscan.scans.v1.ScanReport",
    key: "scan id: one scan's reports stay in order",
    producer: "scanner",
    consumers: ["scan-orchestrator"],
    retentionMs: INTERNAL_RETENTION_MS,
    cleanupPolicy: "delete",
    description: "A scan's progress and outcome, as the scanner saw it.",
  },
  [Topics.findingsDetected]: {
    kinds: [],
    audience: "internal",
    message: "vulnscan.findings.v1.Detection",
    key: "scan id",
    producer: "scanner",
    // scan-orchestrator reads the port inventory detections (net-open-ports) for the targets' inventories.
    consumers: ["findings", "scan-orchestrator"],
    retentionMs: INTERNAL_RETENTION_MS,
    cleanupPolicy: "delete",
    description: "One detection of a scan, before de-duplication into findings.",
  },
  [Topics.retestJobs]: {
    kinds: [],
    audience: "internal",
    message: "vulnscan.findings.v1.RetestJob",
    key: "finding id: one finding's retests stay in order",
    producer: "findings",
    consumers: ["scanner"],
    retentionMs: INTERNAL_RETENTION_MS,
    cleanupPolicy: "delete",
    description: "A retest of one finding: only the check that produced it, against its component, for one scanner worker.",
  },
  [Topics.retestResults]: {
    kinds: [],
    audience: "internal",
    message: "vulnscan.findings.v1.RetestResult",
    key: "finding id",
    producer: "scanner",
    consumers: ["findings"],
    retentionMs: INTERNAL_RETENTION_MS,
    cleanupPolicy: "delete",
    description: "The verdict of one retest: fixed, still_vulnerable (fresh evidence) or inconclusive (unreachable, timeout, refused).",
  },
};

/** The broker settings a topic is created with; a name outside the table (a test's own topic) gets the internal ones. */
export function topicConfig(topic: string): Record<string, string> {
  const isDlq = topic.endsWith(".dlq");
  const spec = (TOPIC_SPECS as Record<string, TopicSpec | undefined>)[topic];
  return {
    "cleanup.policy": "delete",
    "retention.ms": String(isDlq ? DLQ_RETENTION_MS : (spec?.retentionMs ?? INTERNAL_RETENTION_MS)),
    // Replaying from a time (offsets for a timestamp) reads the producer's timestamps.
    "message.timestamp.type": "CreateTime",
  };
}
