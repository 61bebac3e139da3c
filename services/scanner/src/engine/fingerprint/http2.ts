import type { EgressGuard } from "../../net/egress.js";
import { connectTls } from "../../net/tls.js";
import type { Service } from "../types.js";
import { tryExchange } from "./exchange.js";

/*
 * Whether a web service speaks HTTP/2, the precondition of HTTP/2 protocol flaws such as Rapid
 * Reset (CVE-2023-44487). Over TLS: does the server pick "h2" when ALPN offers it? In clear text
 * (h2c): does it answer the HTTP/2 connection preface with a SETTINGS frame? Both stop there: no
 * stream is opened, nothing is requested.
 */

/** RFC 9113 §3.4: the client connection preface, then an empty SETTINGS frame. */
const PREFACE = Buffer.concat([Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1"), Buffer.from("000000040000000000", "hex")]);
const FRAME_SETTINGS = 0x04;

export interface Http2Offer {
  offered: boolean;
  /** How it was asked and what came back (evidence). */
  how: string;
}

/** True when the bytes start with an HTTP/2 SETTINGS frame on stream 0 (a server's first frame). */
export function isSettingsFrame(b: Buffer): boolean {
  return b.length >= 9 && b[3] === FRAME_SETTINGS && (b.readUInt32BE(5) & 0x7fffffff) === 0 && b.readUIntBE(0, 3) % 6 === 0;
}

export async function http2Offered(svc: Service, opts: { guard: EgressGuard; signal?: AbortSignal; timeoutMs?: number }): Promise<Http2Offer> {
  const timeoutMs = opts.timeoutMs ?? 4000;
  if (svc.tls) {
    try {
      const s = await connectTls(svc.host, svc.port, {
        guard: opts.guard,
        signal: opts.signal,
        timeoutMs,
        servername: svc.hostname,
        alpnProtocols: ["h2", "http/1.1"],
      });
      const chosen = s.alpnProtocol;
      s.destroy();
      return { offered: chosen === "h2", how: `TLS ALPN offered h2,http/1.1; server chose ${chosen || "none"}` };
    } catch (err) {
      return { offered: false, how: `TLS handshake with ALPN failed (${(err as Error).message})` };
    }
  }
  const answer = await tryExchange(svc.host, svc.port, PREFACE, {
    guard: opts.guard,
    signal: opts.signal,
    timeoutMs,
    maxBytes: 512,
    until: (b) => b.length >= 9,
  });
  const offered = isSettingsFrame(answer);
  const first = offered ? "a SETTINGS frame" : answer.length ? JSON.stringify(answer.subarray(0, 24).toString("latin1")) : "nothing";
  return { offered, how: `HTTP/2 connection preface in clear text (h2c prior knowledge); server answered ${first}` };
}
