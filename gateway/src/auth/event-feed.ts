import os from "node:os";
import { randomUUID } from "node:crypto";
import { Topics, type KafkaBus } from "@vulnscan/kit";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import type { AuthEventFeed } from "./auth-view.js";

/**
 * vulnscan.auth.events through the kit's Kafka wrapper. Every follow() is a consumer group of
 * its own (host, process, a random part): each replica must see every event, so replicas must
 * never share a group, and a group positioned explicitly commits nothing, so the broker
 * forgets it once it stops. reset() replaces the client: after a network cut kafkajs' cached
 * admin connection was seen to keep timing out once the broker was reachable again, so every
 * resync after a failure starts from a fresh client.
 */
export function kafkaAuthEventFeed(newBus: () => KafkaBus, groupPrefix = "gateway-auth-view"): AuthEventFeed & { close(): Promise<void> } {
  let bus = newBus();
  const closeQuietly = (b: KafkaBus) => Promise.race([b.close().catch(() => undefined), new Promise<void>((r) => setTimeout(r, 5000).unref())]);
  return {
    latestOffsets: () => bus.latestOffsets(Topics.authEvents),
    async follow(startAt, onEvent, onGap) {
      const groupId = `${groupPrefix}-${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
      return bus.subscribe({
        groupId,
        topic: Topics.authEvents,
        schema: EventEnvelopeSchema,
        startAt,
        onCrash: onGap,
        handle: async (event, meta) => onEvent(event, meta.partition),
      });
    },
    async reset() {
      const old = bus;
      bus = newBus();
      await closeQuietly(old);
    },
    close: () => closeQuietly(bus),
  };
}
