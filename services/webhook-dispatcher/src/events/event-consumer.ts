import { Topics, type KafkaBus, type Subscription } from "@vulnscan/kit";
import { type EventEnvelope, EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import type { Dispatcher } from "../domain/dispatch.js";
import type { Delivery } from "../domain/types.js";

/** Every topic whose envelopes can become deliveries (auth.* on the auth topic are skipped by type). */
export const EVENT_TOPICS = [Topics.scanEvents, Topics.findingEvents, Topics.grcEvents, Topics.authEvents] as const;

/**
 * Attempts in flight at once. A consumer waits for room rather than spilling deliveries into the
 * durable schedule: Kafka is the buffer, and a spilled delivery costs more writes than it saves.
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

const sleep = (ms: number) => new Promise<"slow">((r) => setTimeout(() => r("slow"), ms).unref());

/**
 * Thin consumer per event topic: decode a batch → fan each envelope out → make the first attempts
 * whose leases this replica took → resolve the offsets. A first attempt that has no slot
 * within `handOverMs`, is still running after it, or failed to run is handed to the durable
 * schedule before the offsets resolve, so a slow receiver holds a partition for seconds, not 30,
 * and nothing is left without a way to be attempted. A crash before the offsets resolve
 * redelivers the batch; the deterministic delivery ids make that a no-op (`Dispatcher.fanOut`).
 */
export async function subscribeEvents(
  kafka: KafkaBus,
  dispatcher: Pick<Dispatcher, "fanOut" | "attempt" | "handOver">,
  gate: AttemptGate,
  opts: { groupPrefix: string; handOverMs: number; onError: (err: unknown) => void },
): Promise<Subscription[]> {
  const first = async (d: Delivery) => {
    if (!(await gate.acquire(opts.handOverMs))) return dispatcher.handOver(d, "now");
    let handedOver = false;
    let free = true;
    // The slot bounds requests in flight; writing the result does not hold one.
    const answered = () => {
      if (free) gate.release();
      free = false;
    };
    const run = dispatcher.attempt(d.id, { known: d, owned: true, handedOver: () => handedOver, answered }).finally(answered);
    const outcome = await Promise.race([run.then(() => "done" as const), sleep(opts.handOverMs)]).catch((err: unknown) => {
      opts.onError(err);
      return "failed" as const;
    });
    if (outcome === "done") return;
    if (outcome === "slow") run.catch(opts.onError); // it goes on; its end removes the entry
    handedOver = true;
    // A slow attempt still holds its lease: the schedule takes it after the lease. A failed one
    // has ended, so its lease is given back now. Throws when the database is down: the batch is
    // retried, and fanOut takes the failed attempt back then (Dispatcher.abandoned).
    await dispatcher.handOver(d, outcome === "slow" ? "after-lease" : "now");
  };
  const handle = async (env: EventEnvelope) => {
    await Promise.all((await dispatcher.fanOut(env)).map(first));
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
        // A batch mostly waits on the database and receivers; the partitions' events are independent.
        partitionsConcurrently: 3,
        handleBatch: async (items) => {
          await Promise.all(items.map((it) => handle(it.message)));
        },
        handleOne: handle,
      }),
    ),
  );
}
