import { timestampDate } from "@bufbuild/protobuf/wkt";
import { DomainError, PoisonMessageError, Topics, type KafkaBus, type Subscription } from "@vulnscan/kit";
import { DetectionSchema, type Detection } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import { coverageId, type CoverageDoc, type ScanDiffs } from "../domain/coverage.js";
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

/** A coverage record (detection.proto ScanCoverage) as stored. */
export function coverageDoc(d: Detection, now: Date): CoverageDoc {
  const c = d.coverage!;
  if (!d.orgId || !d.scanId || !c.address) throw new PoisonMessageError("invalid coverage record: org_id, scan_id and address are required");
  return {
    _id: coverageId(d.scanId, c.attempt, c.address),
    org_id: d.orgId,
    scan_id: d.scanId,
    attempt: c.attempt,
    outcome: c.outcome,
    started_at: c.startedAt ? timestampDate(c.startedAt) : now,
    target: c.target || c.address,
    address: c.address,
    alive: c.alive,
    host_checks: [...c.hostChecks],
    ports: c.ports.map((p) => ({ port: p.port, outcome: p.outcome, checks: [...p.checks] })),
    recorded_at: now,
  };
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
  opts: { topic?: string; groupId?: string; batchSize?: number; coverage?: Pick<ScanDiffs, "record">; now?: () => Date } = {},
): Promise<Subscription> {
  const now = opts.now ?? (() => new Date());
  // A scan's coverage comes after its detections (same key, one partition): the batch is taken
  // in order, the detections before a coverage record stored before it.
  const apply = async (ds: Detection[]) => {
    let run: Detection[] = [];
    const flush = async () => {
      if (run.length) await ingestion.ingestBatch(run.map(factsOf));
      run = [];
    };
    for (const d of ds) {
      if (!d.coverage) {
        run.push(d);
        continue;
      }
      await flush();
      if (opts.coverage) await opts.coverage.record(coverageDoc(d, now()));
    }
    await flush();
  };
  return kafka.subscribeBatch({
    groupId: opts.groupId ?? CONSUMER_GROUP,
    topic: opts.topic ?? Topics.findingsDetected,
    schema: DetectionSchema,
    maxBatch: opts.batchSize ?? 500,
    handleBatch: async (items) => {
      await apply(items.map((it) => it.message));
    },
    handleOne: async (d) => {
      await apply([d]);
    },
  });
}
