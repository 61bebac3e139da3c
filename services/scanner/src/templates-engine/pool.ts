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
  let next = 0;
  const worker = async () => {
    while (next < items.length && !opts.signal?.aborted) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (err) {
        if (opts.signal?.aborted) return;
        opts.onError?.(err, item);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
