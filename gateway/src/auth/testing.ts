// Unit-test wiring of the gateway's authentication: an in-memory event feed standing in for
// vulnscan.auth.events (integration tests use the real topic), and an Authenticator on it.
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { createLogger, type PartitionOffset } from "@vulnscan/kit";
import { GetAuthStateResponseSchema, type AuthService } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { EventEnvelopeSchema, type EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { PlanCache } from "../plans.js";
import { Authenticator } from "./authenticator.js";
import { AuthView, type AuthEventFeed } from "./auth-view.js";
import type { TokenVerifier } from "./token-verifier.js";

/** One-partition feed the test drives: publish events, beat, or go silent. */
export class MemoryFeed implements AuthEventFeed {
  private readonly log: EventEnvelope[] = [];
  /** Each reader with the offset of the next event it has not seen (as a Kafka consumer has). */
  private readers = new Map<(e: EventEnvelope, p: number) => void, number>();
  private timer?: NodeJS.Timeout;
  private isCut = false;

  constructor(beatEveryMs = 50) {
    if (beatEveryMs > 0) {
      this.timer = setInterval(() => {
        if (!this.isCut) this.publish({ type: "auth.heartbeat", payload: { case: "authHeartbeat", value: { partition: 0 } } });
      }, beatEveryMs);
      this.timer.unref();
    }
  }

  /**
   * While true, nothing is delivered and nothing can subscribe (a cut network). Events published
   * meanwhile stay in the log and reach the readers once the cut ends, as Kafka keeps them.
   */
  get cut(): boolean {
    return this.isCut;
  }

  set cut(value: boolean) {
    this.isCut = value;
    if (!value) this.deliver();
  }

  publish(init: MessageInitShape<typeof EventEnvelopeSchema>): void {
    this.log.push(create(EventEnvelopeSchema, { occurredAt: timestampFromMs(Date.now()), ...init }));
    this.deliver();
  }

  private deliver(): void {
    if (this.isCut) return;
    for (const [reader, next] of this.readers) {
      this.readers.set(reader, this.log.length);
      for (const e of this.log.slice(next)) reader(e, 0);
    }
  }

  async latestOffsets(): Promise<PartitionOffset[]> {
    if (this.isCut) throw new Error("feed unreachable");
    return [{ partition: 0, offset: String(this.log.length) }];
  }

  async follow(startAt: PartitionOffset[], onEvent: (e: EventEnvelope, p: number) => void) {
    if (this.isCut) throw new Error("feed unreachable");
    this.readers.set(onEvent, Number(startAt[0]?.offset ?? 0));
    this.deliver();
    return { stop: async () => void this.readers.delete(onEvent) };
  }

  close(): void {
    clearInterval(this.timer);
    this.readers.clear();
  }
}

export function testAuthenticator(opts: {
  verifier: TokenVerifier;
  auth: Pick<Client<typeof AuthService>, "verifyApiKey">;
  plans: PlanCache;
  feed?: MemoryFeed;
  /** The snapshot auth would answer (default: nothing revoked). */
  snapshot?: () => Promise<MessageInitShape<typeof GetAuthStateResponseSchema>>;
  maxStalenessMs?: number;
}): { authenticator: Authenticator; view: AuthView; feed: MemoryFeed; ready: Promise<void> } {
  const feed = opts.feed ?? new MemoryFeed();
  const view = new AuthView({
    feed,
    snapshot: async () => create(GetAuthStateResponseSchema, { asOf: timestampFromMs(Date.now()), ...(await opts.snapshot?.()) }),
    plans: opts.plans,
    maxStalenessMs: opts.maxStalenessMs ?? 30_000,
    logger: createLogger("auth-view-test", "silent"),
    stepTimeoutMs: 1000,
  });
  const { ready } = view.start();
  const authenticator = new Authenticator({ verifier: opts.verifier, auth: opts.auth, view, plans: opts.plans });
  return { authenticator, view, feed, ready };
}
