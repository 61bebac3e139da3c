import net from "node:net";
import type { EgressGuard } from "./egress.js";

export class SelfConnectError extends Error {
  override name = "SelfConnectError";
}

export interface TcpOptions {
  guard: EgressGuard;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Opens a TCP connection to an address (never a name: resolve and check first) after the
 * egress check. A self-connect (local address:port equal to the remote one — what the kernel
 * does when connecting to a free ephemeral port on loopback) is reported as closed, not open.
 */
export function connectTcp(host: string, port: number, opts: TcpOptions): Promise<net.Socket> {
  opts.guard.check(host);
  if (opts.signal?.aborted) return Promise.reject(opts.signal.reason ?? new Error("aborted"));
  return settleConnect(net.connect({ host, port }), "connect", "connect timeout", host, port, opts);
}

/**
 * Waits for a socket's ready event (`connect`, or `secureConnect` for TLS) under a timeout and
 * an abort signal; destroys the socket on failure. A self-connect (local address:port equal to
 * the remote one) is a SelfConnectError, never an open port.
 */
export function settleConnect<S extends net.Socket>(
  socket: S,
  readyEvent: "connect" | "secureConnect",
  timeoutMessage: string,
  host: string,
  port: number,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<S> {
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => {
      cleanup();
      socket.destroy();
      reject(err);
    };
    const timer = setTimeout(() => fail(Object.assign(new Error(timeoutMessage), { code: "ETIMEDOUT" })), opts.timeoutMs);
    const onAbort = () => fail(new Error("aborted"));
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      socket.removeAllListeners("error");
      socket.removeAllListeners(readyEvent);
    };
    socket.once("error", fail);
    socket.once(readyEvent, () => {
      cleanup();
      if (socket.localPort === socket.remotePort && socket.localAddress === socket.remoteAddress) {
        socket.destroy();
        return reject(new SelfConnectError(`self-connect on ${host}:${port}`));
      }
      // A peer reset between the caller's reads must not surface as an unhandled 'error'.
      socket.on("error", () => undefined);
      resolve(socket);
    });
  });
}

/** Reads from a connected socket until `until` says enough, the byte cap, the timeout, or close. */
export function readSome(socket: net.Socket, opts: { timeoutMs: number; maxBytes?: number; until?: (data: Buffer) => boolean }): Promise<Buffer> {
  const max = opts.maxBytes ?? 8192;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      clearTimeout(timer);
      socket.removeListener("data", onData);
      socket.removeListener("end", done);
      socket.removeListener("close", done);
      socket.removeListener("error", done);
      resolve(Buffer.concat(chunks).subarray(0, max));
    };
    const onData = (d: Buffer) => {
      chunks.push(d);
      size += d.length;
      if (size >= max || opts.until?.(Buffer.concat(chunks))) done();
    };
    const timer = setTimeout(done, opts.timeoutMs);
    socket.on("data", onData);
    socket.once("end", done);
    socket.once("close", done);
    socket.once("error", done);
  });
}
