import os from "node:os";
import { create } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { newId, Topics, type KafkaBus, type Logger } from "@vulnscan/kit";
import { startPeriodic, type PeriodicJob } from "@vulnscan/kit/periodic";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";

/**
 * Writes an auth.heartbeat to every partition of vulnscan.auth.events every `intervalMs`.
 * Events of one partition are read in order, so a gateway that has read a heartbeat emitted at
 * T on every partition has seen every event auth published before T: that is how a replica
 * shows its view is current, and how it notices it is not (DESIGN.md §6). Every auth replica
 * beats; more replicas only mean more (tiny) records.
 */
export function startHeartbeat(kafka: KafkaBus, logger: Logger, intervalMs: number): PeriodicJob {
  const emitter = `${os.hostname()}/${process.pid}`;
  let partitions: number[] = [];
  const beat = async () => {
    try {
      if (partitions.length === 0) partitions = (await kafka.latestOffsets(Topics.authEvents)).map((p) => p.partition);
      await Promise.all(
        partitions.map((partition) =>
          kafka.publish(
            Topics.authEvents,
            EventEnvelopeSchema,
            create(EventEnvelopeSchema, {
              id: newId("evt", Date.now()),
              type: "auth.heartbeat",
              occurredAt: timestampNow(),
              payload: { case: "authHeartbeat", value: { partition, emitter } },
            }),
            { key: "heartbeat", partition },
          ),
        ),
      );
    } catch (err) {
      partitions = []; // re-read the partition list next time (it may have grown)
      throw err;
    }
  };
  return startPeriodic({ name: "auth heartbeat", intervalMs, run: beat, logger, immediate: true });
}
