import { describe, expect, it } from "vitest";
import { forEachLimit, mapLimit } from "./pool.js";

const tick = () => new Promise((r) => setImmediate(r));

describe("mapLimit / forEachLimit", () => {
  it("keeps at most `limit` in flight and answers in input order", async () => {
    let active = 0;
    let max = 0;
    const out = await mapLimit([5, 1, 4, 2, 3], 2, async (n) => {
      active++;
      max = Math.max(max, active);
      for (let i = 0; i < n; i++) await tick();
      active--;
      return n * 10;
    });
    expect(max).toBe(2);
    expect(out).toEqual([50, 10, 40, 20, 30]);
  });

  it("starts no new item once the signal aborts", async () => {
    const ac = new AbortController();
    const started: number[] = [];
    const out = await mapLimit(
      [1, 2, 3, 4, 5],
      2,
      async (n) => {
        started.push(n);
        if (n === 2) ac.abort();
        await tick();
        return n;
      },
      ac.signal,
    );
    expect(started).toEqual([1, 2]);
    expect(out).toEqual([1, 2]);
  });

  it("passes single failures to onError and goes on; failures after the abort are not reported", async () => {
    const errors: number[] = [];
    const done: number[] = [];
    await forEachLimit(
      [1, 2, 3],
      1,
      async (n) => {
        if (n === 2) throw new Error("unreachable");
        done.push(n);
      },
      { onError: (_err, n) => errors.push(n) },
    );
    expect(errors).toEqual([2]);
    expect(done).toEqual([1, 3]);

    const ac = new AbortController();
    const reported: number[] = [];
    await forEachLimit(
      [1, 2],
      2,
      async (n) => {
        ac.abort();
        throw new Error(`aborted ${n}`);
      },
      { signal: ac.signal, onError: (_err, n) => reported.push(n) },
    );
    expect(reported).toEqual([]);
  });
});
