import { describe, expect, it } from "vitest";
import { AttemptGate } from "./event-consumer.js";

describe("AttemptGate", () => {
  it("lets a waiter in when a slot frees, and tells one that waited too long", async () => {
    const gate = new AttemptGate(1);
    expect(await gate.acquire(10)).toBe(true);
    const waiting = gate.acquire(1000);
    expect(await gate.acquire(20)).toBe(false); // no room within 20 ms: the caller hands over
    gate.release();
    expect(await waiting).toBe(true); // the slot went to the first waiter, not back to the pool
    expect(await gate.acquire(10)).toBe(false);
  });

  it("is drained once every slot is back", async () => {
    const gate = new AttemptGate(2);
    await gate.acquire(10);
    await gate.acquire(10);
    let drained = false;
    const done = gate.drained().then(() => (drained = true));
    gate.release();
    await new Promise((r) => setTimeout(r, 5));
    expect(drained).toBe(false);
    gate.release();
    await done;
    expect(drained).toBe(true);
  });
});
