import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { keepRunning, type RunningConsumer } from "./consumer-restarts.js";

/** A consumer whose crash the test raises, as kafkajs' CRASH event would. */
class FakeConsumer implements RunningConsumer {
  private listeners: ((err: Error, restarting: boolean) => void)[] = [];
  stopped = false;
  onCrash(listener: (err: Error, restarting: boolean) => void) {
    this.listeners.push(listener);
  }
  crash(restarting: boolean) {
    for (const l of this.listeners) l(new Error("Failed to find group coordinator"), restarting);
  }
  async stop() {
    this.stopped = true;
  }
}

const logger = { error: () => undefined, warn: () => undefined } as never;

function bus(failStarts = 0) {
  const started: FakeConsumer[] = [];
  let failures = failStarts;
  return {
    started,
    closing: false,
    start: async () => {
      if (failures-- > 0) throw new Error("broker down");
      const c = new FakeConsumer();
      started.push(c);
      return c;
    },
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("keepRunning", () => {
  it("starts a new consumer of the group after a crash its client will not restart", async () => {
    const b = bus();
    await keepRunning({ start: b.start, log: logger, closing: () => b.closing });
    b.started[0]!.crash(false);
    expect(b.started[0]!.stopped).toBe(true);
    expect(b.started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(b.started).toHaveLength(2);
    expect(b.started[1]!.stopped).toBe(false);
  });

  it("leaves a crash its client restarts by itself alone", async () => {
    const b = bus();
    await keepRunning({ start: b.start, log: logger, closing: () => b.closing });
    b.started[0]!.crash(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(b.started).toHaveLength(1);
    expect(b.started[0]!.stopped).toBe(false);
  });

  it("retries a restart that fails, pausing longer each time, while the broker is away", async () => {
    const b = bus();
    let down = 2;
    const sub = await keepRunning({
      start: async () => {
        if (b.started.length > 0 && down-- > 0) throw new Error("broker down");
        return b.start();
      },
      log: logger,
      closing: () => false,
    });
    b.started[0]!.crash(false);
    await vi.advanceTimersByTimeAsync(1000); // the first restart fails
    await vi.advanceTimersByTimeAsync(1999); // the second waits 2 s
    expect(b.started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1); // the second fails; the third waits 4 s
    await vi.advanceTimersByTimeAsync(3999);
    expect(b.started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(b.started).toHaveLength(2);
    await sub.stop();
    expect(b.started[1]!.stopped).toBe(true);
  });

  it("starts nothing once stopped or while the bus closes", async () => {
    const b = bus();
    const sub = await keepRunning({ start: b.start, log: logger, closing: () => b.closing });
    b.started[0]!.crash(false);
    await sub.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(b.started).toHaveLength(1);

    const c = bus();
    await keepRunning({ start: c.start, log: logger, closing: () => c.closing });
    c.closing = true;
    c.started[0]!.crash(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(c.started).toHaveLength(1);
  });
});
