import type { LookupFunction } from "node:net";
import { Agent, request } from "undici";
import type { OutgoingRequest, Sender } from "../domain/ports.js";
import { parseRetryAfter } from "../domain/schedule.js";
import type { AttemptResult } from "../domain/types.js";
import type { CheckedTarget, UrlPolicy } from "./url-policy.js";

export interface HttpSenderOptions {
  /** The spec's 30 s: name resolution, connect, TLS and the whole response. */
  timeoutMs?: number;
  /** At most this much of a response body is read; the rest is dropped with the connection. */
  maxBodyBytes?: number;
  /** Agents (connection pools, one per checked address) kept at most. */
  maxAgents?: number;
  /** Trusted CAs instead of the system's (tests with a throwaway CA). */
  ca?: string | Buffer;
}

/** A lookup that answers the address already checked, whatever name is asked: no second resolution (DNS rebinding). */
function pinnedLookup(target: CheckedTarget): LookupFunction {
  return (_host, options, callback) => {
    const cb = callback as (err: Error | null, address: string | { address: string; family: number }[], family?: number) => void;
    if ((options as { all?: boolean }).all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  };
}

/**
 * Sends one attempt with undici. Every attempt checks the URL again (policy + fresh
 * resolution) and connects to exactly the address it checked; redirects are never followed
 * (undici's request() does not), and the deadline covers everything up to the capped body.
 */
export class HttpSender implements Sender {
  private readonly agents = new Map<string, Agent>();
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly maxAgents: number;
  private readonly ca?: string | Buffer;

  constructor(
    private readonly policy: UrlPolicy,
    opts: HttpSenderOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.maxBodyBytes = opts.maxBodyBytes ?? 64 * 1024;
    this.maxAgents = opts.maxAgents ?? 256;
    if (opts.ca) this.ca = opts.ca;
  }

  private agentFor(target: CheckedTarget): Agent {
    const key = target.address;
    const hit = this.agents.get(key);
    if (hit) return hit;
    if (this.agents.size >= this.maxAgents) {
      const [oldest, agent] = this.agents.entries().next().value as [string, Agent];
      this.agents.delete(oldest);
      void agent.close().catch(() => undefined);
    }
    const agent = new Agent({ connect: { lookup: pinnedLookup(target), ...(this.ca ? { ca: this.ca } : {}) }, keepAliveTimeout: 10_000, connections: 64 });
    this.agents.set(key, agent);
    return agent;
  }

  async send(req: OutgoingRequest): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const signal = AbortSignal.timeout(this.timeoutMs);
    let target: CheckedTarget;
    try {
      target = await this.policy.check(req.url);
    } catch (err) {
      return { responseCode: 0, responseTimeMs: elapsed(), error: (err as Error).message };
    }
    try {
      const res = await request(target.url, { method: "POST", headers: req.headers, body: req.body, dispatcher: this.agentFor(target), signal });
      let read = 0;
      for await (const chunk of res.body) {
        read += (chunk as Buffer).length;
        if (read > this.maxBodyBytes) break; // leaving the loop destroys the body stream
      }
      const code = res.statusCode;
      if (code >= 200 && code < 300) return { responseCode: code, responseTimeMs: elapsed() };
      const header = res.headers["retry-after"];
      const retryAfterMs = code === 429 || code === 503 ? parseRetryAfter(Array.isArray(header) ? header[0] : header, new Date()) : undefined;
      const error = code >= 300 && code < 400 ? `HTTP ${code} (redirects are not followed)` : `HTTP ${code}`;
      return { responseCode: code, responseTimeMs: elapsed(), error, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    } catch (err) {
      const e = err as Error & { code?: string };
      const error = signal.aborted ? `no answer within ${this.timeoutMs / 1000} s` : `request failed: ${e.code ?? e.message}`;
      return { responseCode: 0, responseTimeMs: elapsed(), error };
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.agents.values()].map((a) => a.close()));
    this.agents.clear();
  }
}
