/** Polls `fn` until it returns something other than undefined (end-to-end tests wait on eventually consistent reads). */
export async function waitFor<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 90_000, everyMs = 300): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
