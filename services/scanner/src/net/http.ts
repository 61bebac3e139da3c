import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { EgressGuard } from "./egress.js";

export interface HttpResult {
  url: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Raw header lines (keeps repeated Set-Cookie headers apart). */
  rawHeaders: string[];
  body: Buffer;
  /** Request and response as text, trimmed, for finding evidence. */
  requestText: string;
  responseText: string;
}

export interface HttpOptions {
  guard: EgressGuard;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  maxBodyBytes?: number;
  signal?: AbortSignal;
  /** Connect to this (already resolved) address while the URL keeps the name for Host and SNI. */
  address?: string;
}

const EVIDENCE_BYTES = 2048;

/**
 * One HTTP(S) request, redirects not followed (callers decide), certificates not verified (the
 * scanner inspects them separately). The name is resolved once and the connection goes to that
 * checked address, so DNS rebinding cannot steer it past the egress allowlist.
 */
export async function httpRequest(url: string, opts: HttpOptions): Promise<HttpResult> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const [address] = opts.address ? [opts.address] : net.isIP(host) ? [host] : await opts.guard.resolve(host);
  if (!address) throw new Error(`${host} does not resolve to an allowed address`);
  opts.guard.check(address);
  const method = opts.method ?? "GET";
  const headers = { "user-agent": "vulnscan/0.1 (+authorized security scan)", accept: "*/*", ...opts.headers };
  const lib = u.protocol === "https:" ? https : http;
  const maxBody = opts.maxBodyBytes ?? 256 * 1024;

  return new Promise<HttpResult>((resolve, reject) => {
    const req = lib.request(
      {
        protocol: u.protocol,
        hostname: host,
        port: u.port || (u.protocol === "https:" ? 443 : 80),
        path: `${u.pathname}${u.search}`,
        method,
        headers,
        servername: net.isIP(host) ? undefined : host,
        rejectUnauthorized: false,
        lookup: (_name, options, cb) => {
          const family = net.isIP(address);
          if ((options as { all?: boolean }).all) (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
          else (cb as (e: null, a: string, f: number) => void)(null, address, family);
        },
        signal: opts.signal,
        timeout: opts.timeoutMs ?? 10_000,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (d: Buffer) => {
          if (size < maxBody) chunks.push(d);
          size += d.length;
          if (size >= maxBody) res.destroy();
        });
        const finish = () => {
          const body = Buffer.concat(chunks).subarray(0, maxBody);
          const headLines = [`HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage ?? ""}`.trim()];
          for (let i = 0; i < res.rawHeaders.length; i += 2) headLines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
          resolve({
            url,
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body,
            requestText: [`${method} ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)]
              .join("\r\n")
              .slice(0, EVIDENCE_BYTES),
            responseText: `${headLines.join("\r\n")}\r\n\r\n${body.toString("latin1")}`.slice(0, EVIDENCE_BYTES),
          });
        };
        res.once("end", finish);
        res.once("close", finish);
        res.once("error", finish);
      },
    );
    req.once("timeout", () => req.destroy(Object.assign(new Error("request timeout"), { code: "ETIMEDOUT" })));
    req.once("error", reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}
