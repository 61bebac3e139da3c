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
 * A collection alone does not keep it small: idle work (Kafka fetches, readiness checks) still
 * allocates, some of it survives a scavenge, and V8 doubles the new space each time a capacity's
 * worth has survived since it last grew, so a process it left at 1 MiB semi-spaces was back at
 * 4 MiB within seconds and at 8 MiB within a minute (webhook-dispatcher, scan-orchestrator,
 * findings). While quiet the collector therefore sets V8's growth factor to 1
 * (`--semi-space-growth-factor`, which V8 reads each time it grows the space), so the space stays
 * at V8's starting size, and gives V8's factor back at the first busy check: traffic grows it as
 * before, at most one check later. No cap on the size, which V8's default young generation
 * (docs/decisions.md) rejected for what it cost a list under traffic.
 *
 * Nothing here runs per request: a timer reads the event loop's utilization every `checkMs`.
 * Under traffic the loop is busy, so it never collects; while the new space is at its starting
 * size it does not collect either. An idle service still uses 2–5 % of its loop (more on a
 * loaded machine), hence the 10 % line. A collection takes a few tens of milliseconds: once when
 * a quiet spell starts, then again only if the space grew back anyway, at most once per
 * `recollectMs`. docs/decisions.md ("Compiled deployables").
 */
export interface IdleCollectorOptions {
  /** How often the event loop's utilization is read. */
  checkMs?: number;
  /** Checks in a row under `idleUtilization` before a process counts as quiet. */
  quietChecks?: number;
  /** Event-loop utilization (0–1) below which a check counts as quiet. */
  idleUtilization?: number;
  /**
   * A new space at or below this needs no collection: V8 starts it at one 1 MiB semi-space and
   * commits the second at the first scavenge.
   */
  smallYoungBytes?: number;
  /** Within one quiet spell, the least time between two collections. */
  recollectMs?: number;
  /** A memory-reducing full collection (tests). */
  collect?: () => Promise<void>;
  /** The event loop's utilization since the previous call (tests). */
  utilization?: () => number;
  /** The new space's committed bytes (tests). */
  youngBytes?: () => number;
  /** Holds the new space's growth while quiet (true) or gives V8's growth back (false) (tests). */
  holdGrowth?: (hold: boolean) => void;
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

// V8's own factor (src/flags/flag-definitions.h), given back when traffic returns.
const V8_SEMI_SPACE_GROWTH_FACTOR = 2;

/** Whether this process was started with its own growth factor, which the collector then leaves alone. */
function growthFactorGiven(): boolean {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((a) => /semi[-_]space[-_]growth[-_]factor/.test(a));
}

function holdNewSpaceGrowth(hold: boolean): void {
  v8.setFlagsFromString(`--semi-space-growth-factor=${hold ? 1 : V8_SEMI_SPACE_GROWTH_FACTOR}`);
}

export function startIdleCollector(opts: IdleCollectorOptions = {}): IdleCollector {
  const collect = opts.collect ?? collectReducingMemory;
  const checkMs = opts.checkMs ?? 3_000;
  const quietChecks = opts.quietChecks ?? 2;
  const idleUtilization = opts.idleUtilization ?? 0.1;
  const smallYoungBytes = opts.smallYoungBytes ?? 2 * 1024 * 1024;
  const recollectMs = opts.recollectMs ?? 30_000;
  const utilization = opts.utilization ?? loopUtilization();
  const youngBytes = opts.youngBytes ?? newSpaceBytes;
  const holdGrowth = opts.holdGrowth ?? (growthFactorGiven() ? () => undefined : holdNewSpaceGrowth);
  let quiet = 0;
  let held = false;
  let lastCollection: number | undefined; // in this quiet spell
  let collecting = false;
  let collections = 0;
  const hold = (on: boolean) => {
    if (held === on) return;
    held = on;
    holdGrowth(on);
  };
  const timer = setInterval(() => {
    if (collecting) return;
    if (utilization() >= idleUtilization) {
      quiet = 0;
      lastCollection = undefined;
      hold(false);
      return;
    }
    quiet++;
    if (quiet < quietChecks) return;
    // Before the collection, so the scavenges after it do not double the space straight back.
    hold(true);
    if (youngBytes() <= smallYoungBytes) return;
    if (lastCollection !== undefined && Date.now() - lastCollection < recollectMs) return;
    collecting = true;
    collect()
      .catch(() => undefined) // a failed collection only leaves the memory where it was
      .finally(() => {
        collections++;
        collecting = false;
        lastCollection = Date.now();
        // The collection's own time is not traffic: the next check measures from here.
        utilization();
      });
  }, checkMs);
  timer.unref();
  return {
    get collections() {
      return collections;
    },
    stop: () => {
      clearInterval(timer);
      hold(false);
    },
  };
}
