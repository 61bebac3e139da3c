import net from "node:net";

/** A port the OS says is free right now on loopback (bind to 0, read, release). */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once("error", reject);
    srv.listen(0, host, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it returns true or the deadline passes. */
export async function waitUntil(
  probe: () => Promise<boolean>,
  opts: { timeoutMs: number; intervalMs?: number; what: string; failIf?: () => string | undefined },
) {
  const deadline = Date.now() + opts.timeoutMs;
  while (Date.now() < deadline) {
    const fatal = opts.failIf?.();
    if (fatal) throw new Error(`${opts.what}: ${fatal}`);
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 250));
  }
  throw new Error(`${opts.what}: not ready after ${opts.timeoutMs} ms`);
}

export async function httpOk(url: string, timeoutMs = 1000): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  return res.ok;
}
