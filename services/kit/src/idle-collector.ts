import { performance } from "node:perf_hooks";
import v8 from "node:v8";

/**
 * Gives V8's young generation back once a process is quiet. Under traffic V8 grows the new space
 * to 32 MiB (two 16 MiB semi-spaces) and keeps it: capping it (`--max-semi-space-size=1`) nearly
 * doubled the CPU of a list request, but an idle process holding 32 MiB it does not use was most
 * of the gap to its memory budget.
 *
 * V8 shrinks the new space at an ordinary full collection only when the allocation rate it
 * measured over the last seconds is below 1 MB/s, which a service's idle Kafka fetches and
 * readiness checks often exceed (a `gc()` of `--expose-gc` shrank it in some services and not in
 * others). A memory-reducing collection shrinks it regardless: the inspector protocol's
 * `HeapProfiler.collectGarbage`, posted through an in-process `node:inspector` session (no port,
 * no flag), is one: on Node 20, with idle work allocating, a `gc()` left the new space at
 * 32 MiB and this collection at 1 MiB. docs/decisions.md ("Compiled deployables").
 *
 * Nothing here runs per request: a timer reads the event loop's utilization every `checkMs`.
 * Under traffic the loop is busy, so it never collects; while the new space is already small
 * (after a shrink, until traffic grows it again) it does not collect either. An idle service
 * still uses 2–5 % of its loop (more on a loaded machine), hence the 10 % line. A collection
 * takes a few tens of milliseconds, once per quiet spell.
 */
export interface IdleCollectorOptions {
  /** How often the event loop's utilization is read. */
  checkMs?: number;
  /** Checks in a row under `idleUtilization` before a process counts as quiet. */
  quietChecks?: number;
  /** Event-loop utilization (0–1) below which a check counts as quiet. */
  idleUtilization?: number;
  /** A new space at or below this needs no collection (V8 starts it at 1 MiB a semi-space). */
  smallYoungBytes?: number;
  /** A memory-reducing full collection (tests). */
  collect?: () => Promise<void>;
  /** The event loop's utilization since the previous call (tests). */
  utilization?: () => number;
  /** The new space's committed bytes (tests). */
  youngBytes?: () => number;
}

export interface IdleCollector {
  /** Collections made so far. */
  readonly collections: number;
  stop(): void;
}

function loopUtilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(now, last);
    last = now;
    return delta.utilization;
  };
}

function newSpaceBytes(): number {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0;
}

/** A full collection that reduces memory: V8 gives back the new space and other free pages. */
export async function collectReducingMemory(): Promise<void> {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  try {
    await session.post("HeapProfiler.collectGarbage");
  } finally {
    session.disconnect();
  }
}

export function startIdleCollector(opts: IdleCollectorOptions = {}): IdleCollector {
  const collect = opts.collect ?? collectReducingMemory;
  const checkMs = opts.checkMs ?? 3_000;
  const quietChecks = opts.quietChecks ?? 2;
  const idleUtilization = opts.idleUtilization ?? 0.1;
  const smallYoungBytes = opts.smallYoungBytes ?? 4 * 1024 * 1024;
  const utilization = opts.utilization ?? loopUtilization();
  const youngBytes = opts.youngBytes ?? newSpaceBytes;
  let quiet = 0;
  let collectedThisSpell = false;
  let collecting = false;
  let collections = 0;
  const timer = setInterval(() => {
    if (collecting) return;
    if (utilization() >= idleUtilization) {
      quiet = 0;
      collectedThisSpell = false;
      return;
    }
    quiet++;
    if (quiet < quietChecks || collectedThisSpell || youngBytes() <= smallYoungBytes) return;
    collecting = true;
    collectedThisSpell = true;
    collect()
      .catch(() => undefined) // a failed collection only leaves the memory where it was
      .finally(() => {
        collections++;
        collecting = false;
        // The collection's own time is not traffic: the next check measures from here.
        utilization();
      });
  }, checkMs);
  timer.unref();
  return {
    get collections() {
      return collections;
    },
    stop: () => clearInterval(timer),
  };
}
