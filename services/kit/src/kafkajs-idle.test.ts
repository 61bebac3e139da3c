import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";
import "./kafkajs-idle.js";

const require = createRequire(import.meta.url);
type Queue = {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  canSendSocketRequestImmediately(): boolean;
  sendSocketRequest(r: unknown): void;
};
const RequestQueue = require("kafkajs/src/network/requestQueue/index.js") as new (o: object) => Queue;
const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const queue = () => new RequestQueue({ maxInFlightRequests: 1, requestTimeout: 30_000, enforceRequestTimeout: true, clientId: "t", broker: "b:1", logger });

describe("kafkajs request queue (kafkajs-idle.ts)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("an idle connection arms no timer (kafkajs 2.2.4 re-armed one every millisecond)", () => {
    vi.useFakeTimers();
    const q = queue();
    const checks = vi.spyOn(q, "checkPendingRequests");
    q.checkPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
    vi.advanceTimersByTime(1_000);
    expect(checks).toHaveBeenCalledTimes(1);
  });

  it("a request waiting on a throttle is sent when the throttle ends", () => {
    vi.useFakeTimers();
    const q = queue();
    const sent: unknown[] = [];
    q.sendSocketRequest = (r) => sent.push(r);
    q.throttledUntil = Date.now() + 500;
    q.pending.push({ correlationId: 1, pendingDuration: 0 });
    q.canSendSocketRequestImmediately = () => Date.now() >= q.throttledUntil;
    q.checkPendingRequests();
    expect(sent).toHaveLength(0);
    expect(q.throttleCheckTimeoutId).not.toBeNull();
    vi.advanceTimersByTime(499);
    expect(sent).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(sent).toHaveLength(1);
    // Nothing left waiting: no further timer.
    expect(q.throttleCheckTimeoutId).toBeNull();
  });
});
