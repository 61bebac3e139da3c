import { Topics, type KafkaBus, type Subscription } from "@vulnscan/kit";
import { type EventEnvelope, EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import type { Dispatcher } from "../domain/dispatch.js";
import type { Delivery } from "../domain/types.js";
import { dispatchEventOf } from "./envelope.js";

/** Every topic whose envelopes can become deliveries (auth.* on the auth topic are skipped by type). */
export const EVENT_TOPICS = [Topics.scanEvents, Topics.findingEvents, Topics.grcEvents, Topics.authEvents] as const;

/**
 * Attempts in flight at once. A consumer waits for room rather than leaving first attempts to the
 * retry pass: Kafka is the buffer, and an attempt the pass takes costs one more write.
 */
export class AttemptGate {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly idle = new Set<() => void>();

  constructor(private readonly max: number) {}

  /** Takes a slot, waiting up to `timeoutMs` for one; false when none came in time. */
  async acquire(timeoutMs: number): Promise<boolean> {
    if (this.inFlight < this.max) {
      this.inFlight++;
      return true;
    }
    return new Promise<boolean>((resolve) => {
      const take = () => {
        clearTimeout(timer);
        this.inFlight++;
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(take), 1);
        resolve(false);
      }, timeoutMs);
      this.waiting.push(take);
    });
  }

  release(): void {
    this.inFlight--;
    const next = this.waiting.shift();
    if (next) next();
    else if (this.inFlight === 0) for (const r of this.idle) r();
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
 * Thin consumer per event topic: decode a batch → map each envelope to the domain's event → fan
 * it out → make each new delivery's first attempt, or record it for the retry pass → resolve the
 * offsets. A delivery that gets a slot within `slotWaitMs` is attempted before it is recorded
 * (`Dispatcher.first`): the offsets wait until it is recorded with its result, or with its lease
 * once `answerWaitMs` has passed, so a slow receiver holds a partition for that, not its 30 s.
 * One without a slot is recorded due now, for the retry pass. A crash before the offsets resolve
 * redelivers the batch; fan-out skips the deliveries recorded by then, and the deterministic
 * delivery ids make a second record of one a no-op.
 */
export async function subscribeEvents(
  kafka: KafkaBus,
  dispatcher: Pick<Dispatcher, "fanOut" | "admit" | "first">,
  gate: AttemptGate,
  opts: { groupPrefix: string; partitions: number; slotWaitMs: number; answerWaitMs: number; onError: (err: unknown) => void },
): Promise<Subscription[]> {
  const admit = async (d: Delivery) => {
    if (!(await gate.acquire(opts.slotWaitMs))) return void (await dispatcher.admit(d, false));
    // The slot bounds requests in flight: freed when the receiver answers, not when its result is written.
    let held = true;
    const release = () => {
      if (held) gate.release();
      held = false;
    };
    const { durable, settled } = dispatcher.first(d, opts.answerWaitMs, release);
    void settled.catch(opts.onError).finally(release);
    await durable;
  };
  const handle = async (env: EventEnvelope) => {
    const event = dispatchEventOf(env);
    if (event) await Promise.all((await dispatcher.fanOut(event)).map(admit));
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
        // Every partition a replica may hold (KAFKA_PARTITIONS). kafkajs fetches again only once
        // every batch of its last fetch is handled, and a batch is held until its first attempts
        // are recorded: with 3 workers for 6 partitions, half the batches waited for the other
        // half's attempts and commit before they started (the paced tail, docs/decisions.md "Webhooks").
        partitionsConcurrently: opts.partitions,
        handleBatch: async (items) => {
          await Promise.all(items.map((it) => handle(it.message)));
        },
        handleOne: handle,
      }),
    ),
  );
}
