/*
 * The spec's delivery schedule: attempt 1 at once, then 5 min, 30 min, 2 h and 8 h after the
 * previous failure; 5 attempts in all. A receiver's Retry-After (429/503) moves the next attempt
 * later, never earlier, and at most to the longest step (8 h), so a hostile header cannot park
 * a delivery forever.
 */
export const RETRY_DELAYS_MS = [0, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 8 * 3600_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;
/** Up to this fraction of a delay is added at random, so a recovered endpoint is not hit by a wall of retries. */
export const JITTER = 0.05;
/** A webhook whose every attempt failed for this long, with a delivery out of attempts, is disabled. */
export const DISABLE_AFTER_MS = 3 * 24 * 3600_000;

/** When attempt `attemptsMade + 1` is due after a failure at `now`; undefined when none is left. */
export function nextAttemptAt(
  attemptsMade: number,
  now: Date,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
  delays: readonly number[] = RETRY_DELAYS_MS,
): Date | undefined {
  if (attemptsMade >= delays.length) return undefined;
  const step = delays[attemptsMade]!;
  const jittered = step + Math.floor(step * JITTER * random());
  const honoured = Math.min(Math.max(jittered, retryAfterMs ?? 0), delays[delays.length - 1]!);
  return new Date(now.getTime() + honoured);
}

/** Retry-After as ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/** The start of the hour after `now` (where a delivery over the hourly cap is deferred to). */
export function nextHour(now: Date): Date {
  const d = new Date(now);
  d.setUTCMinutes(0, 0, 0);
  return new Date(d.getTime() + 3600_000);
}

/** Whether a webhook has failed long enough to be disabled. */
export const shouldDisable = (failingSince: Date | undefined, now: Date) =>
  failingSince !== undefined && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS;
