import pRetry from "p-retry";
import type { Logger } from "./logger.js";

/**
 * Runs `fn` until it succeeds or `signal` aborts, backing off from 0.5 s to 5 s and logging each
 * failure as a warning: for start-up work on dependencies that may come up later or come back
 * (a database that restarts must not leave a process unready for good).
 */
export function untilSucceeds<T>(fn: () => Promise<T>, opts: { logger: Logger; what: string; signal?: AbortSignal }): Promise<T> {
  return pRetry(fn, {
    retries: Number.POSITIVE_INFINITY,
    minTimeout: 500,
    factor: 2,
    maxTimeout: 5000,
    ...(opts.signal ? { signal: opts.signal } : {}),
    onFailedAttempt: ({ error, attemptNumber }) => opts.logger.warn({ err: error.message, attempt: attemptNumber }, opts.what),
  });
}
