import net from "node:net";
import tls from "node:tls";
import type { EgressGuard } from "./egress.js";
import { settleConnect } from "./tcp.js";

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
  /** ALPN protocols to offer, in order of preference (the server's choice is `socket.alpnProtocol`). */
  alpnProtocols?: string[];
  /** Asks for a stapled OCSP response (status_request); called with it, or null when none came. */
  onOcspResponse?: (response: Buffer | null) => void;
}

/**
 * A TLS handshake with an address (never a name) after the egress check. Certificates are not
 * verified here: the scanner inspects them itself and must see bad ones. Rejects on handshake
 * failure (protocol or cipher refused), timeout, abort, or a self-connect.
 */
export function connectTls(host: string, port: number, opts: TlsOptions): Promise<tls.TLSSocket> {
  opts.guard.check(host);
  if (opts.signal?.aborted) return Promise.reject(opts.signal.reason ?? new Error("aborted"));
  let socket: tls.TLSSocket;
  try {
    // tls.connect passes requestOCSP on to its TLSSocket; @types/node lists it only for TLSSocket.
    const options: tls.ConnectionOptions & Pick<tls.TLSSocketOptions, "requestOCSP"> = {
      host,
      port,
      servername: opts.servername && !net.isIP(opts.servername) ? opts.servername : undefined,
      rejectUnauthorized: false,
      minVersion: opts.minVersion,
      maxVersion: opts.maxVersion,
      ciphers: opts.ciphers,
      requestOCSP: opts.onOcspResponse !== undefined,
      ...(opts.alpnProtocols ? { ALPNProtocols: opts.alpnProtocols } : {}),
    };
    socket = tls.connect(options);
    // Emitted during the handshake, before secureConnect: listen from the start.
    if (opts.onOcspResponse) socket.once("OCSPResponse", opts.onOcspResponse);
  } catch (err) {
    // An option this OpenSSL cannot honour (e.g. a cipher string it has no suite for).
    return Promise.reject(err as Error);
  }
  return settleConnect(socket, "secureConnect", "tls handshake timeout", host, port, opts);
}
