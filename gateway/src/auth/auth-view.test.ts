import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { createLogger, type PartitionOffset } from "@vulnscan/kit";
import { GetAuthStateResponseSchema } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { afterEach, describe, expect, it } from "vitest";
import { AuthView } from "./auth-view.js";
import { MemoryFeed } from "./testing.js";

/** A feed whose reader joins only when the test lets it (a consumer group's join), or fails to. */
class GatedFeed extends MemoryFeed {
  joins = 0;
  private open!: (outcome: "join" | "fail") => void;
  private gate = this.newGate();

  private newGate(): Promise<"join" | "fail"> {
    return new Promise((resolve) => (this.open = resolve));
  }

  /** Lets the waiting reader join (or fail); the next one waits again. */
  release(outcome: "join" | "fail" = "join"): void {
    this.open(outcome);
  }

  override async follow(startAt: PartitionOffset[], onEvent: (e: EventEnvelope, p: number) => void) {
    const outcome = await this.gate;
    this.gate = this.newGate();
    if (outcome === "fail") throw new Error("could not join the group");
    this.joins++;
    return super.follow(startAt, onEvent);
  }
}

const revoked = (sessionId: string) =>
  ({
    type: "auth.session_revoked",
    orgId: "org_a",
    payload: { case: "authSessionRevoked", value: { sessionId, tokensValidUntil: timestampFromMs(Date.now() + 3_600_000) } },
  }) as const;

let view: AuthView | undefined;
let feed: GatedFeed | undefined;
afterEach(async () => {
  feed?.release();
  await view?.stop();
  feed?.close();
  view = feed = undefined;
});

function start(opts: { asOfMs?: () => number; maxStalenessMs?: number; snapshotSessions?: string[] } = {}) {
  feed = new GatedFeed(0);
  view = new AuthView({
    feed,
    snapshot: async () =>
      create(GetAuthStateResponseSchema, {
        asOf: timestampFromMs(opts.asOfMs?.() ?? Date.now()),
        revokedSessions: (opts.snapshotSessions ?? []).map((sessionId) => ({ sessionId, tokensValidUntil: timestampFromMs(Date.now() + 3_600_000) })),
      }),
    plans: { applyPlan: () => undefined, clear: () => undefined },
    maxStalenessMs: opts.maxStalenessMs ?? 30_000,
    logger: createLogger("auth-view-test", "silent"),
    stepTimeoutMs: 10_000,
  });
  return { view, feed, ready: view.start().ready };
}

async function until(what: string, cond: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("AuthView", () => {
  it("is current from auth's snapshot on, before its reader has joined, and loses no event published meanwhile", async () => {
    const { view, feed, ready } = start({ snapshotSessions: ["revoked_before"] });
    feed.publish(revoked("published_before_the_offsets")); // in the snapshot too, in reality; here only in the log
    await ready;
    expect(view.isCurrent()).toBe(true);
    expect(feed.joins).toBe(0);
    expect(view.sessionRevoked("revoked_before")).toBe(true);
    // After the offsets and the snapshot were taken, before the reader's first fetch.
    feed.publish(revoked("between_snapshot_and_join"));
    expect(view.sessionRevoked("between_snapshot_and_join")).toBe(false);
    feed.release("join");
    await until("the event published before the join is applied", () => view.sessionRevoked("between_snapshot_and_join"));
    expect(view.sessionRevoked("published_before_the_offsets")).toBe(false); // read from the offsets, not from the start
    expect(view.isCurrent()).toBe(true);
  });

  it("goes stale by the bound while its reader has not joined (the snapshot's time is all it vouches for)", async () => {
    const { view, ready } = start({ asOfMs: () => Date.now() - 800, maxStalenessMs: 1000 });
    await ready;
    expect(view.isCurrent()).toBe(true);
    await until("stale", () => !view.isCurrent(), 1000);
    expect(view.staleness()).toBeGreaterThan(1000);
  });

  it("refuses once its reader fails to join, and is current again after a resync that joins", async () => {
    const { view, feed, ready } = start();
    await ready;
    expect(view.isCurrent()).toBe(true);
    feed.release("fail");
    await until("refusing after the failed join", () => !view.isCurrent());
    // The retry (after 0.5 s) loads the snapshot again and is current until its reader fails or joins.
    await until("current again", () => view.isCurrent());
    feed.release("join");
    await until("joined", () => feed.joins === 1);
    feed.publish(revoked("after_the_retry"));
    await until("following again", () => view.sessionRevoked("after_the_retry"));
    expect(view.isCurrent()).toBe(true);
  });
});
