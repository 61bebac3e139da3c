// Rate-limit bookkeeping of the load benchmark, kept by the client side from what the gateway
// answered: per organization and per rate window (the X-RateLimit-Reset value), how many
// requests were admitted and refused, and which X-RateLimit-Remaining values the admitted ones
// carried. Both the orchestrator (set-up and scan requests) and the load generator record here,
// so every request an organization sent is counted once.

/** What one window of one organization saw. */
export interface WindowTally {
  /** Requests the limiter let through, whatever the upstream answered (5xx included). */
  admitted: number;
  refused: number;
  /** X-RateLimit-Limit values seen (one expected). */
  limits: number[];
  /** X-RateLimit-Remaining of each admitted request. */
  remaining: number[];
}

export type Tallies = Record<string, Record<string, WindowTally>>;

/** A response broken down to what the checks need. */
export interface Seen {
  status: number;
  header(name: string): string | undefined;
  /** Parsed JSON body, when the response was JSON. */
  body: unknown;
}

const isErrorBody = (b: unknown): b is { detail: string; error_code: string; field?: string } =>
  typeof b === "object" &&
  b !== null &&
  typeof (b as { detail?: unknown }).detail === "string" &&
  typeof (b as { error_code?: unknown }).error_code === "string" &&
  Object.keys(b).every((k) => k === "detail" || k === "error_code" || k === "field");

/** A refusal by the request-rate limiter (not a scan quota, which is a 429 too). */
export const isRateRefusal = (r: Seen) => r.status === 429 && (r.body as { error_code?: string } | undefined)?.error_code === "RATE_LIMIT_EXCEEDED";

export class Tally {
  readonly orgs: Tallies = {};
  /** Responses that broke the contract: missing headers, a 429 without the spec's error shape, … */
  readonly violations: string[] = [];

  private window(org: string, reset: string): WindowTally {
    const windows = this.orgs[org] ?? {};
    this.orgs[org] = windows;
    const w = windows[reset] ?? { admitted: 0, refused: 0, limits: [], remaining: [] };
    windows[reset] = w;
    return w;
  }

  private violation(text: string) {
    if (this.violations.length < 50) this.violations.push(text);
  }

  /** Records one authenticated response of `org`. */
  record(org: string, r: Seen): void {
    // A 5xx is a failure of its own (counted by the caller). One without the headers came before
    // the limiter ran; one with them was admitted by the limiter and failed upstream, so it
    // counts as admitted below.
    if (r.status >= 500 && !r.header("x-ratelimit-reset")) return;
    const limit = Number(r.header("x-ratelimit-limit"));
    const remaining = Number(r.header("x-ratelimit-remaining"));
    const reset = r.header("x-ratelimit-reset");
    if (!reset || !Number.isInteger(limit) || !Number.isInteger(remaining)) {
      this.violation(`${org}: ${r.status} without X-RateLimit-* headers`);
      return;
    }
    const w = this.window(org, reset);
    if (!w.limits.includes(limit)) w.limits.push(limit);
    if (isRateRefusal(r)) {
      w.refused++;
      if (!isErrorBody(r.body)) this.violation(`${org}: 429 body is not the spec's error shape: ${JSON.stringify(r.body)}`);
      if (remaining !== 0) this.violation(`${org}: 429 with X-RateLimit-Remaining ${remaining}`);
      if (!r.header("retry-after")) this.violation(`${org}: 429 without Retry-After`);
    } else {
      w.admitted++;
      w.remaining.push(remaining);
    }
  }

  /** Adds another tally's counts (the load generator's, returned as JSON). */
  merge(other: { orgs: Tallies; violations: string[] }): void {
    for (const [org, windows] of Object.entries(other.orgs)) {
      for (const [reset, o] of Object.entries(windows)) {
        const w = this.window(org, reset);
        w.admitted += o.admitted;
        w.refused += o.refused;
        for (const l of o.limits) if (!w.limits.includes(l)) w.limits.push(l);
        w.remaining.push(...o.remaining);
      }
    }
    for (const v of other.violations) this.violation(v);
  }
}

export interface WindowVerdict {
  reset: number;
  admitted: number;
  refused: number;
  limit: number;
  /** Empty when exact. */
  problems: string[];
}

/**
 * Exactness of one window with one gateway: the limit header is the organization's limit; a
 * window that refused anything admitted exactly `limit`; the admitted requests carried distinct
 * remaining values, exactly limit-1 down to limit-admitted (positions handed out once each, in order).
 */
export function judgeWindow(expectedLimit: number, reset: string, w: WindowTally): WindowVerdict {
  const problems: string[] = [];
  if (w.limits.length !== 1 || w.limits[0] !== expectedLimit) problems.push(`X-RateLimit-Limit ${w.limits.join("/")} ≠ ${expectedLimit}`);
  if (w.refused > 0 && w.admitted !== expectedLimit) problems.push(`admitted ${w.admitted} ≠ limit ${expectedLimit} although ${w.refused} were refused`);
  if (w.admitted > expectedLimit) problems.push(`admitted ${w.admitted} > limit ${expectedLimit}`);
  const sorted = [...w.remaining].sort((a, b) => b - a);
  const gaps = sorted.filter((v, i) => v !== expectedLimit - 1 - i).length;
  if (gaps > 0) problems.push(`${gaps} X-RateLimit-Remaining values out of the sequence ${expectedLimit - 1}…${expectedLimit - w.admitted}`);
  return { reset: Number(reset), admitted: w.admitted, refused: w.refused, limit: expectedLimit, problems };
}
