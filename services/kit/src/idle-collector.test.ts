import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startIdleCollector } from "./idle-collector.js";

const MiB = 1024 * 1024;

interface Outcome {
  youngBefore: number;
  youngAfter: number;
  collections: number;
}

/**
 * A process that grows its young generation as traffic does, then runs `then` with the collector
 * on (`churn(ms)` allocates short-lived objects for ms milliseconds).
 */
async function inNode(checkMs: number, then: string): Promise<Outcome> {
  const collector = fileURLToPath(new URL("./idle-collector.ts", import.meta.url));
  const script = `
    import v8 from "node:v8";
    import { startIdleCollector } from ${JSON.stringify(collector)};
    const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size;
    let sink = 0;
    const churn = (ms) => { const end = Date.now() + ms; while (Date.now() < end) { const a = []; for (let i = 0; i < 1000; i++) a.push({ i, s: "x" + i }); sink += a.length; } };
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    churn(1500);
    const youngBefore = young();
    const idle = startIdleCollector({ checkMs: ${checkMs} });
    ${then}
    console.log(JSON.stringify({ youngBefore, youngAfter: young(), collections: idle.collections }));
    idle.stop();
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { timeout: 30_000 });
  return JSON.parse(stdout) as Outcome;
}

describe("startIdleCollector in a real process", () => {
  it("gives the young generation back once the process is quiet, and keeps it small while idle work still allocates", async () => {
    // Idle work as a service's (Kafka fetches, readiness checks): a little every 50 ms, about
    // 1 % of the loop but a few MB/s, more than V8's own shrinking heuristic allows. After a
    // collection alone, V8 doubled the space from this work back to 4 MiB within a second and
    // to 8 MiB within ten.
    const r = await inNode(
      300,
      `const background = setInterval(() => churn(0.5), 50);
       await sleep(6000);
       clearInterval(background);`,
    );
    expect(r.youngBefore).toBeGreaterThanOrEqual(16 * MiB);
    expect(r.collections).toBe(1);
    expect(r.youngAfter).toBeLessThanOrEqual(2 * MiB);
  }, 30_000);

  it("never collects while the event loop stays busy, and the young generation stays", async () => {
    // Work in slices, as requests are served: the loop turns, but is rarely idle.
    const r = await inNode(
      300,
      `const end = Date.now() + 2000;
       while (Date.now() < end) { churn(20); await new Promise((r) => setImmediate(r)); }`,
    );
    expect(r.collections).toBe(0);
    expect(r.youngAfter).toBeGreaterThanOrEqual(r.youngBefore);
  }, 30_000);
});

describe("startIdleCollector", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** `loads[k]`: the loop's utilization over second k+1. */
  function fake(loads: number[], young = 32 * MiB) {
    const t0 = Date.now();
    const state = { young, collected: 0, held: false };
    const idle = startIdleCollector({
      checkMs: 1000,
      quietChecks: 2,
      recollectMs: 30_000,
      collect: async () => {
        state.collected++;
        state.young = 1 * MiB;
      },
      utilization: () => loads[Math.min(Math.round((Date.now() - t0) / 1000) - 1, loads.length - 1)]!,
      youngBytes: () => state.young,
      holdGrowth: (hold) => {
        state.held = hold;
      },
    });
    return { idle, state };
  }

  it("collects once a quiet spell, and again only after traffic", async () => {
    const { idle, state } = fake([0.5, 0.05, 0.05, 0.05, 0.05, 0.05, 0.4, 0.05, 0.05, 0.05]);
    await vi.advanceTimersByTimeAsync(6000);
    expect(state.collected).toBe(1);
    state.young = 32 * MiB; // as traffic grows it again
    await vi.advanceTimersByTimeAsync(4000); // busy at 7 s, quiet again at 8 and 9 s
    expect(state.collected).toBe(2);
    idle.stop();
  });

  it("does not collect when the young generation is at V8's starting size", async () => {
    const { idle, state } = fake([0], 2 * MiB);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.collected).toBe(0);
    idle.stop();
  });

  it("collects a young generation of 4 MiB, twice the starting size", async () => {
    const { idle, state } = fake([0], 4 * MiB);
    await vi.advanceTimersByTimeAsync(3000);
    expect(state.collected).toBe(1);
    idle.stop();
  });

  it("collects again in the same quiet spell when the young generation grew back, at most once per 30 s", async () => {
    const { idle, state } = fake([0.5, 0.05]);
    await vi.advanceTimersByTimeAsync(3000);
    expect(state.collected).toBe(1);
    state.young = 8 * MiB; // grew back, quiet all along
    await vi.advanceTimersByTimeAsync(29_000);
    expect(state.collected).toBe(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(state.collected).toBe(2);
    await vi.advanceTimersByTimeAsync(60_000); // stayed small
    expect(state.collected).toBe(2);
    idle.stop();
  });

  it("holds the young generation's growth while quiet and gives it back at the first busy check", async () => {
    const { idle, state } = fake([0.5, 0.05, 0.05, 0.05, 0.4, 0.05]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(state.held).toBe(false);
    await vi.advanceTimersByTimeAsync(2000); // quiet at 2 and 3 s
    expect(state.held).toBe(true);
    await vi.advanceTimersByTimeAsync(2000); // busy at 5 s
    expect(state.held).toBe(false);
    idle.stop();
  });
});
