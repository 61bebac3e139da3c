import pLimit from "p-limit";

/** What an item left unstarted because the signal aborted resolves to. */
const SKIPPED = Symbol("skipped");

/**
 * Maps `items` with at most `limit` calls of `fn` in flight (p-limit). Once the signal aborts no
 * new item starts (items in flight finish or fail on the same signal); the result holds the
 * items that ran, in input order. An error of one item rejects the whole map.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
  const run = pLimit(Math.max(1, limit));
  const out = await run.map<T, R | typeof SKIPPED>(items, (item) => (signal?.aborted ? SKIPPED : fn(item)));
  return out.filter((r): r is Awaited<R> => r !== SKIPPED);
}

/**
 * Runs `fn` over `items` with at most `limit` in flight. Stops taking new items once the signal
 * aborts (items in flight finish or fail on the same signal); errors of single items are passed
 * to `onError` rather than failing the batch — one unreachable service must not end a scan.
 */
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
  opts: { signal?: AbortSignal; onError?: (err: unknown, item: T) => void } = {},
): Promise<void> {
  await mapLimit(
    items,
    limit,
    async (item) => {
      try {
        await fn(item);
      } catch (err) {
        if (!opts.signal?.aborted) opts.onError?.(err, item);
      }
    },
    opts.signal,
  );
}
