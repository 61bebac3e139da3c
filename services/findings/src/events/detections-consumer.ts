import { DomainError, PoisonMessageError, Topics, type KafkaBus, type ProcessedEvents, type Subscription } from "@vulnscan/kit";
import { DetectionSchema } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import type { FindingsApp } from "../application.js";
import { detectionFacts } from "../rpc/mappers.js";

export const CONSUMER_GROUP = "findings";

/**
 * Thin consumer: decode → ingest → (the kit commits). The kit resolves a record's offset only
 * after this handler returned, so a crash mid-batch redelivers every record whose write may
 * not have happened; the detection_id marker (processed_events) and the finding's
 * last_detection_id make the redelivery change nothing.
 */
export function subscribeDetections(
  kafka: KafkaBus,
  app: FindingsApp,
  processed: ProcessedEvents,
  opts: { topic?: string; groupId?: string } = {},
): Promise<Subscription> {
  return kafka.subscribe({
    groupId: opts.groupId ?? CONSUMER_GROUP,
    topic: opts.topic ?? Topics.findingsDetected,
    schema: DetectionSchema,
    idOf: (d) => d.detectionId,
    processed,
    handle: async (d) => {
      let facts;
      try {
        facts = detectionFacts(d);
      } catch (err) {
        if (err instanceof DomainError) throw new PoisonMessageError(`invalid detection: ${err.field ?? ""} ${err.message}`);
        throw err;
      }
      await app.ingest(facts);
    },
  });
}
