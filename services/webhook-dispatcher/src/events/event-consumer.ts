import { Topics, type KafkaBus, type Subscription } from "@vulnscan/kit";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import type { Dispatcher } from "../domain/dispatch.js";

/** Every topic whose envelopes can become deliveries (auth.* on the auth topic are skipped by type). */
export const EVENT_TOPICS = [Topics.scanEvents, Topics.findingEvents, Topics.grcEvents, Topics.authEvents] as const;

/** Attempts in flight at once; beyond it a due delivery waits for the schedule's poll. */
export class AttemptGate {
  private inFlight = 0;
  private readonly idle = new Set<() => void>();

  constructor(private readonly max: number) {}

  /** Starts `run` unless the gate is full (then false: the durable schedule picks it up). */
  tryRun(run: () => Promise<unknown>, onError: (err: unknown) => void): boolean {
    if (this.inFlight >= this.max) return false;
    this.inFlight++;
    void run()
      .catch(onError)
      .finally(() => {
        this.inFlight--;
        if (this.inFlight === 0) for (const r of this.idle) r();
      });
    return true;
  }

  /** Resolves when nothing is in flight (shutdown). */
  drained(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((r) => {
      const done = () => {
        this.idle.delete(done);
        r();
      };
      this.idle.add(done);
    });
  }
}

/**
 * Thin consumer per event topic: decode a batch → fan each envelope out (deliveries stored and
 * scheduled before the offsets resolve) → first attempts started at once through the gate. A
 * crash after the fan-out redelivers the batch; the deterministic delivery ids make that a no-op.
 */
export async function subscribeEvents(
  kafka: KafkaBus,
  dispatcher: Pick<Dispatcher, "fanOut" | "attempt" | "unlease">,
  gate: AttemptGate,
  opts: { groupPrefix: string; onError: (err: unknown) => void },
): Promise<Subscription[]> {
  const handle = async (env: Parameters<Dispatcher["fanOut"]>[0]) => {
    for (const due of await dispatcher.fanOut(env)) {
      const started = gate.tryRun(() => dispatcher.attempt(due.delivery.id, false, due.delivery, due.leased), opts.onError);
      // Left to the schedule's poll, which must be able to take the lease.
      if (!started) await dispatcher.unlease(due);
    }
  };
  return Promise.all(
    EVENT_TOPICS.map((topic) =>
      kafka.subscribeBatch({
        // One group per topic: members of one group must subscribe to the same topics.
        groupId: `${opts.groupPrefix}.${topic}`,
        topic,
        schema: EventEnvelopeSchema,
        maxBatch: 200,
        // A partition this group never committed on starts at its first record, never at the
        // newest: with "newest", a partition first written while every replica was down (a
        // restart) was skipped whole and its events never delivered. What came before a webhook
        // existed is not delivered to it (Dispatcher.fanOut), so a new group replays nothing.
        fromBeginning: true,
        // A batch mostly waits on the database; the partitions' events are independent.
        partitionsConcurrently: 3,
        handleBatch: async (items) => {
          await Promise.all(items.map((it) => handle(it.message)));
        },
        handleOne: handle,
      }),
    ),
  );
}
