import http from "node:http";
import https from "node:https";
import net from "node:net";
import { egressRefusal, type EgressRules } from "@vulnscan/kit/egress";
import { WELL_KNOWN_PATH } from "../domain/targets-types.js";
import type { DnsClient } from "./dns.js";

/*
 * Reads a target's verification file (issue 29) under the webhooks' egress rules: every address
 * the host resolves to is checked before any connection, the connection goes to exactly the
 * address checked (no second resolution: DNS rebinding), redirects are not followed, and the
 * time and the bytes read are bounded. HTTPS first, then HTTP.
 */

export interface HttpProofOptions {
  rules: EgressRules;
  dns: DnsClient;
  /** 0 turns a scheme off (tests serve HTTP on a port of their own). */
  httpsPort: number;
  httpPort: number;
  timeoutMs?: number;
  maxBytes?: number;
}

export class FileNotServed extends Error {}

function get(scheme: "http" | "https", address: string, host: string, port: number, timeoutMs: number, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const lib = scheme === "https" ? https : http;
    const req = lib.request(
      {
        host: address,
        port,
        path: WELL_KNOWN_PATH,
        method: "GET",
        headers: { host: net.isIP(host) ? address : host, "user-agent": "vulnscan-verification" },
        ...(scheme === "https" && !net.isIP(host) ? { servername: host } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        const code = res.statusCode ?? 0;
        if (code !== 200) {
          res.resume();
          reject(new FileNotServed(code >= 300 && code < 400 ? `HTTP ${code} (redirects are not followed)` : `HTTP ${code}`));
          return;
        }
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
          if (body.length > maxBytes) res.destroy();
        });
        res.on("close", () => resolve(body.slice(0, maxBytes)));
        res.on("error", reject);
      },
    );
    req.on("error", (err) => reject(new FileNotServed(`${scheme}: ${(err as { code?: string }).code ?? err.message}`)));
    req.end();
  });
}

export class HttpProofReader {
  constructor(private readonly opts: HttpProofOptions) {}

  async httpFile(host: string): Promise<{ address: string; body: string }[]> {
    const { rules, dns, httpsPort, httpPort } = this.opts;
    const addresses = net.isIP(host) ? [host] : await dns.resolve(host);
    if (addresses.length === 0) throw new FileNotServed(`${host} does not resolve`);
    // Every address must pass before any is contacted: the resolver's order must not choose.
    for (const a of addresses) {
      const why = egressRefusal(a, rules);
      if (why) throw new FileNotServed(`not fetched: ${why}`);
    }
    const timeoutMs = this.opts.timeoutMs ?? 10_000;
    const maxBytes = this.opts.maxBytes ?? 4096;
    const out: { address: string; body: string }[] = [];
    for (const address of addresses) {
      const errors: string[] = [];
      let body: string | undefined;
      for (const [scheme, port] of [
        ["https", httpsPort],
        ["http", httpPort],
      ] as const) {
        if (!port) continue;
        try {
          body = await get(scheme, address, host, port, timeoutMs, maxBytes);
          break;
        } catch (err) {
          errors.push((err as Error).message);
        }
      }
      if (body === undefined) throw new FileNotServed(`${WELL_KNOWN_PATH} not served by ${address}${errors.length ? ` (${errors.join("; ")})` : ""}`);
      out.push({ address, body });
    }
    return out;
  }
}
