import { randomBytes } from "node:crypto";
import { httpRequest, type HttpOptions, type HttpResult } from "../../net/http.js";
import type { EgressGuard } from "../../net/egress.js";
import type { Service } from "../types.js";
import { serviceUrl } from "../fingerprint/http-probe.js";

/** Requests against one HTTP(S) service, pinned to its address, never throwing. */
export class Site {
  constructor(
    readonly svc: Service,
    private readonly opts: { guard: EgressGuard; signal?: AbortSignal; timeoutMs?: number },
  ) {}

  url(path: string): string {
    return serviceUrl(this.svc, path);
  }

  async fetch(path: string, extra: Omit<HttpOptions, "guard"> = {}): Promise<HttpResult | undefined> {
    if (this.opts.signal?.aborted) return undefined;
    try {
      return await httpRequest(this.url(path), {
        guard: this.opts.guard,
        address: this.svc.host,
        signal: this.opts.signal,
        timeoutMs: this.opts.timeoutMs ?? 8000,
        ...extra,
      });
    } catch {
      return undefined;
    }
  }
}

export const header = (res: HttpResult, name: string): string | undefined => {
  const v = res.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(", ") : v;
};

/** Header-only evidence (bodies would drown the point). */
export const headEvidence = (res: HttpResult) => ({ request: res.requestText, response: res.responseText.split("\r\n\r\n")[0] ?? "" });

export const randomPath = () => `/vulnscan-${randomBytes(6).toString("hex")}-does-not-exist`;

export const isRedirect = (res: HttpResult) => res.status >= 300 && res.status < 400;
export const isHtml = (res: HttpResult) => /text\/html/i.test(header(res, "content-type") ?? "") || /<html/i.test(res.body.subarray(0, 512).toString("latin1"));
