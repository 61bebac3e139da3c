import { pendingEvent, type EnvelopeInit, type PendingEvent } from "@vulnscan/kit";

/** The Kafka key of a grc event: the id of the entity it is about (DESIGN.md §2). */
function keyOf(e: EnvelopeInit): string {
  const v = (e.payload?.value ?? {}) as Record<string, unknown>;
  const id = v.evidenceId ?? v.auditRequestId ?? v.controlId ?? v.framework;
  return typeof id === "string" && id ? id : e.orgId;
}

export const toPending = (topic: string, events: EnvelopeInit[]): PendingEvent[] => events.map((e) => pendingEvent(topic, keyOf(e), e));
