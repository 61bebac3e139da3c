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
  /** vulnerability.* events (EventEnvelope), key finding id. Producer: findings. */
  findingEvents: "vulnscan.finding.events",
  /** control/evidence/framework/audit events (EventEnvelope). Producer: grc. */
  grcEvents: "vulnscan.grc.events",
  /** user.* events (EventEnvelope), key user id. Producer: auth. */
  authEvents: "vulnscan.auth.events",
  /** webhook.* and quarantine events (EventEnvelope). */
  webhookEvents: "vulnscan.webhook.events",
} as const;

export type TopicName = (typeof Topics)[keyof typeof Topics];
