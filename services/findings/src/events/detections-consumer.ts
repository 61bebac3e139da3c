import { DomainError, PoisonMessageError, Topics, type KafkaBus, type Subscription } from "@vulnscan/kit";
import { DetectionSchema, type Detection } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import type { Ingestion } from "../domain/ingestion.js";
import type { DetectionFacts } from "../domain/types.js";
import { detectionFacts } from "../rpc/mappers.js";

export const CONSUMER_GROUP = "findings";

function factsOf(d: Detection): DetectionFacts {
  try {
    return detectionFacts(d);
  } catch (err) {
    if (err instanceof DomainError) throw new PoisonMessageError(`invalid detection: ${err.field ?? ""} ${err.message}`);
    throw err;
  }
}

/**
 * Thin consumer: decode a batch → ingest it (Ingestion.ingestBatch: de-duplication, the
 * bulk insert, and the redelivery checks) → the kit resolves the batch's offsets. A crash
 * mid-batch redelivers every record of it; ingestion makes a redelivery change nothing. A
 * batch with a record that can never apply (missing ids, unknown severity) is handled record by
 * record instead, and that record goes to the DLQ.
 */
export function subscribeDetections(
  kafka: KafkaBus,
  ingestion: Pick<Ingestion, "ingest" | "ingestBatch">,
  opts: { topic?: string; groupId?: string; batchSize?: number } = {},
): Promise<Subscription> {
  return kafka.subscribeBatch({
    groupId: opts.groupId ?? CONSUMER_GROUP,
    topic: opts.topic ?? Topics.findingsDetected,
    schema: DetectionSchema,
    maxBatch: opts.batchSize ?? 500,
    handleBatch: async (items) => {
      await ingestion.ingestBatch(items.map((it) => factsOf(it.message)));
    },
    handleOne: async (d) => {
      await ingestion.ingest(factsOf(d));
    },
  });
}
