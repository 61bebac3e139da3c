import { performance } from "node:perf_hooks";
import type { EgressGuard } from "../../net/egress.js";
import { ConnectProber } from "../../net/tcp-probe.js";
import { AimdWindow } from "./aimd.js";
import { RttEstimator } from "./rtt.js";

export type PortState = "open" | "closed" | "filtered";

export interface PortScanOptions {
  guard: EgressGuard;
  signal?: AbortSignal;
  /** Concurrency window: starts at `initialConcurrency`, moves between min and max (AIMD). */
  initialConcurrency?: number;
  minConcurrency?: number;
  maxConcurrency?: number;
  /** Connect timeout bounds; the timeout itself follows each host's observed RTT. */
  minTimeoutMs?: number;
  maxTimeoutMs?: number;
  initialTimeoutMs?: number;
  /** Extra tries for probes that timed out (refusals and answers are final). */
  retries?: number;
  /** Fixed source port for every probe (nmap's -g); mostly for tests. */
  sourcePort?: number;
  /** Called once per open port as soon as it is known. */
  onOpen?: (host: string, port: number) => void;
}

export interface HostPortScan {
  host: string;
  open: number[];
  /** Ports that never answered within the tries: dropped by a firewall (or the host is gone). */
  filtered: number[];
  closed: number;
  /** Connects the kernel turned into a self-connect (loopback ephemeral ports), counted closed. */
  selfConnects: number;
  smoothedRttMs?: number;
}

export interface PortScanResult {
  hosts: HostPortScan[];
  probes: number;
  retries: number;
  aborted: boolean;
  durationMs: number;
}

interface Probe {
  hostIndex: number;
  port: number;
  attempt: number;
}

/**
 * TCP connect scan of `ports` (exactly these, in this order) on every host. Work is spread
 * across hosts port by port; the number of connects in flight follows an AIMD window and each
 * host's timeout follows its RTT. Probes that time out are retried with backoff (up to
 * `retries` times) and then reported filtered; refusals are final. On abort the scan stops
 * starting probes, cancels those in flight and resolves with what it has (`aborted: true`).
 */
export async function scanPorts(hosts: readonly string[], ports: readonly number[], opts: PortScanOptions): Promise<PortScanResult> {
  const started = performance.now();
  for (const host of hosts) opts.guard.check(host);
  const retries = opts.retries ?? 2;
  const window = new AimdWindow({
    initial: opts.initialConcurrency ?? 64,
    min: opts.minConcurrency ?? 8,
    max: opts.maxConcurrency ?? 2048,
  });
  const bounds = { minMs: opts.minTimeoutMs ?? 150, maxMs: opts.maxTimeoutMs ?? 3000, initialMs: opts.initialTimeoutMs ?? 1000 };
  const state = hosts.map((host) => ({
    host,
    rtt: new RttEstimator(bounds),
    open: [] as number[],
    filtered: [] as number[],
    closed: 0,
    selfConnects: 0,
  }));

  const total = hosts.length * ports.length;
  let next = 0; // index into the host-major-by-port enumeration of fresh probes
  const retryQueue: Probe[] = [];
  let inFlight = 0;
  let probes = 0;
  let retried = 0;
  let aborted = false;

  const takeProbe = (): Probe | undefined => {
    const retry = retryQueue.shift();
    if (retry) return retry;
    if (next >= total) return undefined;
    const i = next++;
    return { hostIndex: i % hosts.length, port: ports[Math.floor(i / hosts.length)]!, attempt: 0 };
  };

  const prober = new ConnectProber(opts.guard, { signal: opts.signal, sourcePort: opts.sourcePort });

  return new Promise<PortScanResult>((resolve) => {
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      prober.close();
      opts.signal?.removeEventListener("abort", onAbort);
      resolve({
        hosts: state.map((s) => ({
          host: s.host,
          open: s.open.sort((a, b) => a - b),
          filtered: s.filtered.sort((a, b) => a - b),
          closed: s.closed,
          selfConnects: s.selfConnects,
          smoothedRttMs: s.rtt.smoothedMs,
        })),
        probes,
        retries: retried,
        aborted,
        durationMs: performance.now() - started,
      });
    };
    const onAbort = () => {
      aborted = true;
      if (inFlight === 0) finish();
    };
    if (opts.signal?.aborted) {
      aborted = true;
      return finish();
    }
    opts.signal?.addEventListener("abort", onAbort, { once: true });

    const launch = (probe: Probe) => {
      const host = state[probe.hostIndex]!;
      const epoch = window.currentEpoch;
      inFlight++;
      probes++;
      prober.probe(host.host, probe.port, host.rtt.timeoutMs(probe.attempt), (r) => {
        switch (r.outcome) {
          case "open":
            host.rtt.observe(r.rttMs);
            host.open.push(probe.port);
            opts.onOpen?.(host.host, probe.port);
            window.answered(r.rttMs);
            break;
          case "refused":
            host.rtt.observe(r.rttMs);
            host.closed++;
            window.answered(r.rttMs);
            break;
          case "self-connect":
            host.selfConnects++;
            host.closed++;
            break;
          case "timeout":
            window.timedOut(epoch);
            if (!aborted && probe.attempt < retries) {
              retried++;
              retryQueue.push({ ...probe, attempt: probe.attempt + 1 });
            } else host.filtered.push(probe.port);
            break;
          case "resource":
            window.resourceError(inFlight, epoch);
            // Not the target's answer: the same probe again, without using up a retry.
            if (!aborted) retryQueue.unshift(probe);
            break;
          case "unreachable":
            // ICMP unreachable (a REJECT rule, no route): nmap reports these filtered too.
            host.filtered.push(probe.port);
            break;
          case "aborted":
            break;
          default:
            host.filtered.push(probe.port);
        }
        settle();
      });
    };

    const settle = () => {
      inFlight--;
      pump();
    };

    const pump = () => {
      if (opts.signal?.aborted) aborted = true;
      if (aborted) {
        if (inFlight === 0) finish();
        return;
      }
      while (inFlight < window.limit) {
        const probe = takeProbe();
        if (!probe) break;
        launch(probe);
      }
      if (inFlight === 0 && next >= total && retryQueue.length === 0) finish();
    };

    pump();
  });
}
