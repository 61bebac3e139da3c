import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { KafkaBus, ProcessedEvents, Subscription } from "@vulnscan/kit";
import { EventEnvelopeSchema, type EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import type { GrcDomain } from "../domain/index.js";

const at = (e: EventEnvelope) => (e.occurredAt ? timestampDate(e.occurredAt) : new Date());

/** vulnerability.found / status_changed → FindingsSync. Other kinds are not grc's business. */
export async function onFindingEvent(domain: GrcDomain, e: EventEnvelope): Promise<void> {
  const p = e.payload;
  if (p.case === "vulnerabilityFound")
    await domain.findings.found({
      orgId: e.orgId,
      findingId: p.value.findingId,
      severity: p.value.severity,
      frameworks: p.value.frameworks.map((f) => ({ name: f.name, controls: [...f.controls] })),
    });
  else if (p.case === "vulnerabilityStatusChanged") await domain.findings.statusChanged({ orgId: e.orgId, findingId: p.value.findingId, to: p.value.to });
}

/** scan.created (remember compliance scans) and scan.completed (their report becomes evidence). */
export async function onScanEvent(domain: GrcDomain, e: EventEnvelope): Promise<void> {
  const p = e.payload;
  if (p.case === "scanCreated")
    await domain.scans.created({
      orgId: e.orgId,
      scanId: p.value.scanId,
      scanType: p.value.scanType,
      target: p.value.target,
      frameworks: [...p.value.frameworks],
      at: at(e),
    });
  else if (p.case === "scanCompleted") {
    const f = p.value.findings;
    await domain.scans.completed({
      orgId: e.orgId,
      scanId: p.value.scanId,
      target: p.value.target,
      durationSeconds: p.value.durationSeconds,
      findings: { total: f?.total ?? 0, critical: f?.critical ?? 0, high: f?.high ?? 0, medium: f?.medium ?? 0, low: f?.low ?? 0 },
      at: at(e),
    });
  }
}

/**
 * Thin consumers: decode the envelope, apply it, mark it processed. Applying twice is harmless
 * anyway (changes are diffed against the published state, scan evidence has a fixed id).
 */
export async function subscribeGrcInputs(
  kafka: KafkaBus,
  domain: GrcDomain,
  opts: { findingTopic: string; scanTopic: string; groupId: string; processed: (consumer: string) => ProcessedEvents },
): Promise<Subscription[]> {
  return Promise.all([
    kafka.subscribe({
      groupId: `${opts.groupId}-findings`,
      topic: opts.findingTopic,
      schema: EventEnvelopeSchema,
      idOf: (e) => e.id,
      processed: opts.processed("grc-findings"),
      handle: (e) => onFindingEvent(domain, e),
    }),
    kafka.subscribe({
      groupId: `${opts.groupId}-scans`,
      topic: opts.scanTopic,
      schema: EventEnvelopeSchema,
      idOf: (e) => e.id,
      processed: opts.processed("grc-scans"),
      handle: (e) => onScanEvent(domain, e),
    }),
  ]);
}
