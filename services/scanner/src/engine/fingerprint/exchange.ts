import type { EgressGuard } from "../../net/egress.js";
import { connectTcp, readSome } from "../../net/tcp.js";
import { connectTls } from "../../net/tls.js";

export interface ExchangeOptions {
  guard: EgressGuard;
  timeoutMs: number;
  signal?: AbortSignal;
  tls?: boolean;
  servername?: string;
  maxBytes?: number;
  /** Stop reading once the answer is complete. */
  until?: (data: Buffer) => boolean;
}

/**
 * One request/answer on a fresh connection: connect (TLS when asked), send `payload` (or
 * nothing — the NULL probe, for services that speak first), read the answer. Never throws for
 * a silent or closed peer: an empty buffer means "no answer".
 */
export async function exchange(host: string, port: number, payload: Buffer | string | undefined, opts: ExchangeOptions): Promise<Buffer> {
  const socket = opts.tls
    ? await connectTls(host, port, {
        guard: opts.guard,
        timeoutMs: opts.timeoutMs,
        signal: opts.signal,
        servername: opts.servername,
        ciphers: "DEFAULT@SECLEVEL=0",
        minVersion: "TLSv1",
      })
    : await connectTcp(host, port, { guard: opts.guard, timeoutMs: opts.timeoutMs, signal: opts.signal });
  try {
    if (payload !== undefined) socket.write(payload);
    return await readSome(socket, { timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes ?? 16_384, until: opts.until });
  } finally {
    socket.destroy();
  }
}

/** `exchange` that reports a failed connect as no answer. */
export async function tryExchange(host: string, port: number, payload: Buffer | string | undefined, opts: ExchangeOptions): Promise<Buffer> {
  try {
    return await exchange(host, port, payload, opts);
  } catch {
    return Buffer.alloc(0);
  }
}
