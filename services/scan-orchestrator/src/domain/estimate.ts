import type { ScanTypeName } from "@vulnscan/scan-contract";

/*
 * estimated_duration_seconds (the spec's `estimated_duration`, in seconds):
 *
 *   base(type) × (1 + log2(hosts) / 4) × clamp(sqrt(ports / 1000), 0.5, 4), capped at the
 *   type's maximum duration
 *
 * base: quick 420 s, full 2700 s, compliance 1320 s (the middle of the spec's stated 5-10,
 * 30-60 and 15-30 minutes for one host and the default ports, counted as 1000). Hosts scale
 * logarithmically because the scanner probes hosts in parallel (/28: ×2, /24: ×3, /20: ×4);
 * ports by the square root, since most probes of closed ports end fast. The scan fails at its
 * maximum duration, so an estimate never promises longer.
 */

export const BASE_SECONDS: Readonly<Record<ScanTypeName, number>> = { quick: 420, full: 2700, compliance: 1320 };
export const DEFAULT_PORT_COUNT = 1000;

export function estimateSeconds(type: ScanTypeName, hosts: number, ports: number | undefined, maxSeconds: number): number {
  const hostFactor = 1 + Math.log2(Math.max(1, hosts)) / 4;
  const portFactor = Math.min(4, Math.max(0.5, Math.sqrt((ports ?? DEFAULT_PORT_COUNT) / DEFAULT_PORT_COUNT)));
  return Math.min(maxSeconds, Math.round(BASE_SECONDS[type] * hostFactor * portFactor));
}

/**
 * How many of an organization's latest completed scans of one type the estimate is taken from.
 * The formula above is the default until the first completes; after that the measurements win:
 * it guessed 210 s for scans of a small lab that finish in 2 s (issue 26).
 */
export const RECENT_DURATIONS = 10;

/** The median of the recent measured durations (seconds; at least 1, at most the type's maximum), or `fallback` without any. */
export function measuredEstimate(recent: readonly number[], fallback: number, maxSeconds: number): number {
  const xs = recent.filter((x) => Number.isFinite(x) && x >= 0).sort((a, b) => a - b);
  if (xs.length === 0) return fallback;
  const mid = xs.length >> 1;
  const median = xs.length % 2 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
  return Math.min(maxSeconds, Math.max(1, Math.round(median)));
}

/** The running summary kept per organization and type: the latest durations, oldest first. */
export function withDuration(recent: readonly number[], seconds: number): number[] {
  return [...recent, seconds].slice(-RECENT_DURATIONS);
}
