import { httpRequest, type HttpResult } from "../../net/http.js";
import type { EgressGuard } from "../../net/egress.js";
import type { Identity } from "./banner.js";

/** The URL of a service: by name when the target was a domain (Host header, SNI), else by address. */
export function serviceUrl(svc: { host: string; hostname?: string; port: number; tls: boolean }, path = "/"): string {
  const name = svc.hostname ?? (svc.host.includes(":") ? `[${svc.host}]` : svc.host);
  return `${svc.tls ? "https" : "http"}://${name}:${svc.port}${path}`;
}

const title = (body: string) => /<title[^>]*>([^<]{0,200})<\/title>/i.exec(body)?.[1]?.trim();

/** Product/version from a Server header: "nginx/1.18.0", "Apache/2.4.41 (Ubuntu)". */
export function parseServerHeader(server: string | undefined): Pick<Identity, "product" | "version"> {
  if (!server) return {};
  const m = /^([A-Za-z][\w .-]*?)(?:\/(\d[\w.]*))?(?:\s|$)/.exec(server.trim());
  return m ? { product: m[1]!.toLowerCase() === "apache" ? "apache" : m[1]!.toLowerCase(), version: m[2] } : { product: server };
}

export interface HttpIdentity extends Identity {
  response: HttpResult;
}

/** GET / and read who answered: a web server (Server header, title) or Elasticsearch (its JSON). */
export async function probeHttp(
  svc: { host: string; hostname?: string; port: number; tls: boolean },
  opts: { guard: EgressGuard; timeoutMs: number; signal?: AbortSignal },
): Promise<HttpIdentity | undefined> {
  let res: HttpResult;
  try {
    res = await httpRequest(serviceUrl(svc), { guard: opts.guard, address: svc.host, timeoutMs: opts.timeoutMs, signal: opts.signal, maxBodyBytes: 64 * 1024 });
  } catch {
    return undefined;
  }
  if (!res.status) return undefined;
  const body = res.body.toString("utf8");
  if (/application\/json/.test(String(res.headers["content-type"] ?? ""))) {
    try {
      const doc = JSON.parse(body) as { version?: { number?: string; distribution?: string }; tagline?: string };
      if (doc.tagline === "You Know, for Search" && doc.version?.number) {
        const product = doc.version.distribution === "opensearch" ? "opensearch" : "elasticsearch";
        return { name: "elasticsearch", product, version: doc.version.number, banner: body.slice(0, 512), response: res };
      }
    } catch {
      /* not JSON after all */
    }
  }
  const server = typeof res.headers.server === "string" ? res.headers.server : undefined;
  const t = title(body);
  return {
    name: svc.tls ? "https" : "http",
    ...parseServerHeader(server),
    banner: [`HTTP ${res.status}`, server && `Server: ${server}`, t && `title: ${t}`].filter(Boolean).join("; "),
    response: res,
  };
}
