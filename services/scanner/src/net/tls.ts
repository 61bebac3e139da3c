import net from "node:net";
import tls from "node:tls";
import type { EgressGuard } from "./egress.js";
import { SelfConnectError } from "./tcp.js";

export interface TlsOptions {
  guard: EgressGuard;
  timeoutMs: number;
  /** SNI and the name the certificate is judged against; omitted for bare addresses. */
  servername?: string;
  minVersion?: tls.SecureVersion;
  maxVersion?: tls.SecureVersion;
  /** OpenSSL cipher string. Probes for legacy protocols need `DEFAULT@SECLEVEL=0`. */
  ciphers?: string;
  signal?: AbortSignal;
}

/**
 * A TLS handshake with an address (never a name) after the egress check. Certificates are not
 * verified here: the scanner inspects them itself and must see bad ones. Rejects on handshake
 * failure (protocol or cipher refused), timeout, abort, or a self-connect.
 */
export function connectTls(host: string, port: number, opts: TlsOptions): Promise<tls.TLSSocket> {
  opts.guard.check(host);
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(opts.signal.reason ?? new Error("aborted"));
    let socket: tls.TLSSocket;
    try {
      socket = tls.connect({
        host,
        port,
        servername: opts.servername && !net.isIP(opts.servername) ? opts.servername : undefined,
        rejectUnauthorized: false,
        minVersion: opts.minVersion,
        maxVersion: opts.maxVersion,
        ciphers: opts.ciphers,
      });
    } catch (err) {
      // An option this OpenSSL cannot honour (e.g. a cipher string it has no suite for).
      return reject(err as Error);
    }
    const fail = (err: Error) => {
      cleanup();
      socket.destroy();
      reject(err);
    };
    const timer = setTimeout(() => fail(Object.assign(new Error("tls handshake timeout"), { code: "ETIMEDOUT" })), opts.timeoutMs);
    const onAbort = () => fail(new Error("aborted"));
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      socket.removeAllListeners("error");
      socket.removeAllListeners("secureConnect");
    };
    socket.once("error", fail);
    socket.once("secureConnect", () => {
      cleanup();
      if (socket.localPort === socket.remotePort && socket.localAddress === socket.remoteAddress) {
        socket.destroy();
        return reject(new SelfConnectError(`self-connect on ${host}:${port}`));
      }
      // Late errors (peer reset after the handshake) must not crash the process.
      socket.on("error", () => undefined);
      resolve(socket);
    });
  });
}
