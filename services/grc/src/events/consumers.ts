import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { KafkaBus, ProcessedEvents, Subscription } from "@vulnscan/kit";
import { EventEnvelopeSchema, type EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import type { GrcDomain } from "../domain/index.js";

const at = (e: EventEnvelope) => (e.occurredAt ? timestampDate(e.occurredAt) : new Date());

/** vulnerability.found / status_changed → FindingsSync; finding.retested (fixed) → evidence. Other kinds are not grc's business. */
export async function onFindingEvent(domain: GrcDomain, e: EventEnvelope): Promise<void> {
  const { orgId, payload: p } = e;
  if (p.case === "findingRetested") {
    const r = p.value;
    if (r.verdict !== "fixed") return;
    await domain.verifiedFixes.fixed({
      orgId,
      findingId: r.findingId,
      retestId: r.retestId,
      title: r.title,
      severity: r.severity,
      target: r.target,
      affectedComponent: r.affectedComponent,
      templateId: r.templateId,
      requestedBy: r.requestedBy,
      frameworks: r.frameworks.map((f) => ({ name: f.name, controls: [...f.controls] })),
      at: r.completedAt ? timestampDate(r.completedAt) : at(e),
    });
    return;
  }
  if (p.case === "vulnerabilityStatusChanged") return domain.findings.statusChanged({ orgId, findingId: p.value.findingId, to: p.value.to });
  if (p.case !== "vulnerabilityFound") return;
  const { findingId, severity, frameworks } = p.value;
  await domain.findings.found({ orgId, findingId, severity, frameworks: frameworks.map((f) => ({ name: f.name, controls: [...f.controls] })) });
}

/** scan.created (remember compliance scans) and scan.completed (their report becomes evidence). */
export async function onScanEvent(domain: GrcDomain, e: EventEnvelope): Promise<void> {
  const p = e.payload;
  if (p.case === "scanCreated") {
    const { scanId, scanType, target, frameworks } = p.value;
    await domain.scans.created({ orgId: e.orgId, scanId, scanType, target, frameworks: [...frameworks], at: at(e) });
  } else if (p.case === "scanCompleted") {
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
  const inputs = [
    { name: "findings", topic: opts.findingTopic, apply: onFindingEvent },
    { name: "scans", topic: opts.scanTopic, apply: onScanEvent },
  ];
  return Promise.all(
    inputs.map(({ name, topic, apply }) =>
      kafka.subscribe({
        groupId: `${opts.groupId}-${name}`,
        topic,
        schema: EventEnvelopeSchema,
        idOf: (e) => e.id,
        processed: opts.processed(`grc-${name}`),
        handle: (e) => apply(domain, e),
      }),
    ),
  );
}
