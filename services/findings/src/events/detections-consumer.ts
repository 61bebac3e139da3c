import { DomainError, PoisonMessageError, Topics, type KafkaBus, type Subscription } from "@vulnscan/kit";
import { DetectionSchema } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import type { FindingsApp } from "../application.js";
import { detectionFacts } from "../rpc/mappers.js";
import type { ProcessedDetections } from "../storage/processed-detections.js";

export const CONSUMER_GROUP = "findings";

/**
 * Thin consumer: decode → skip if applied → ingest → mark applied (→ the kit commits). The kit
 * resolves a record's offset only after this handler returned, so a crash mid-batch redelivers
 * every record whose write may not have happened. The detection_id marker, and the finding's
 * last_detection_id when the crash fell between the write and the marker, make a redelivery
 * change nothing. Records that can never apply (missing ids, unknown severity) go to the DLQ.
 */
export function subscribeDetections(
  kafka: KafkaBus,
  app: FindingsApp,
  processed: ProcessedDetections,
  opts: { topic?: string; groupId?: string } = {},
): Promise<Subscription> {
  return kafka.subscribe({
    groupId: opts.groupId ?? CONSUMER_GROUP,
    topic: opts.topic ?? Topics.findingsDetected,
    schema: DetectionSchema,
    handle: async (d) => {
      let facts;
      try {
        facts = detectionFacts(d);
      } catch (err) {
        if (err instanceof DomainError) throw new PoisonMessageError(`invalid detection: ${err.field ?? ""} ${err.message}`);
        throw err;
      }
      if (await processed.seen(facts.detection_id)) return;
      await app.ingest(facts);
      await processed.record(facts.detection_id);
    },
  });
}
