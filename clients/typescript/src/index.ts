import createClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths };
export { verifyWebhook, WebhookVerificationError, type VerifiedWebhook } from "./webhooks.js";

/** An answer outside 2xx, in the API's error shape: `detail`, `error_code`, `field`, and `errors` for validation. */
export class VulnscanError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    readonly detail: string,
    readonly field: string | undefined,
    readonly errors: { field?: string; detail: string; error_code: string }[],
    readonly requestId: string | undefined,
  ) {
    super(`${status} ${errorCode}: ${detail}${field ? ` (${field})` : ""}`);
    this.name = "VulnscanError";
  }
}

export interface VulnscanOptions {
  /** The API's origin, e.g. `https://vulnscan.example.com` (no `/api/v1`). */
  baseUrl: string;
  /** An API key (`X-API-Key`), for machines; or `accessToken`, or `Vulnscan.signIn`. */
  apiKey?: string;
  accessToken?: string;
  /** Attempts after a 429 or 503, each after the answer's `Retry-After` (default 3). */
  maxRetries?: number;
  /** The longest wait one `Retry-After` may ask for before the error is returned instead (default 60 s). */
  maxRetryAfterSeconds?: number;
  fetch?: typeof fetch;
}

/** What signing in needs; `mfaCode` is the 6-digit code or a recovery code when MFA is on. */
export interface Credentials {
  email: string;
  password: string;
  mfaCode?: string;
}

interface TokenAnswer {
  access_token: string;
  expires_in: number;
}

/** Refresh this long before the token expires. */
const REFRESH_MARGIN_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Seconds to wait from a `Retry-After` value (delay-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

/**
 * The vulnscan API. `api` is the typed client generated from the OpenAPI document
 * (`client.api.GET("/api/v1/findings", { params: { query: { severity: "high" } } })`);
 * `data()` turns its answer into the body or a `VulnscanError`; `paginate()` walks every page of
 * a list. Every request carries the credentials, refreshes a token before it expires, and is
 * sent again after a 429 or 503 once its `Retry-After` has passed.
 */
export class Vulnscan {
  readonly api: Client<paths>;
  private token: { value: string; expiresAt: number } | undefined;
  private refreshing: Promise<void> | undefined;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly opts: VulnscanOptions) {
    this.fetchImpl = opts.fetch ?? globalThis.fetch;
    if (opts.accessToken) this.token = { value: opts.accessToken, expiresAt: Number.POSITIVE_INFINITY };
    this.api = createClient<paths>({ baseUrl: opts.baseUrl, fetch: (req) => this.send(req) });
  }

  /** Signs in with an email and password (and MFA code) and returns a client that keeps its token fresh. */
  static async signIn(opts: VulnscanOptions, credentials: Credentials): Promise<Vulnscan> {
    const client = new Vulnscan({ ...opts, apiKey: undefined, accessToken: undefined });
    const body = { username: credentials.email, password: credentials.password, ...(credentials.mfaCode ? { mfa_code: credentials.mfaCode } : {}) };
    const answer = await client.data(
      client.api.POST("/api/v1/auth/token", {
        body,
        bodySerializer: (b) => new URLSearchParams(b as Record<string, string>).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
    );
    client.keep(answer);
    return client;
  }

  /** The current access token (undefined with an API key). */
  get accessToken(): string | undefined {
    return this.token?.value;
  }

  /** Exchanges the current token for a new one of the same session (done by itself before expiry). */
  async refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const res = await this.sendOnce(new Request(new URL("/api/v1/auth/refresh", this.opts.baseUrl), { method: "POST" }));
        if (!res.ok) throw await errorOf(res);
        this.keep((await res.json()) as TokenAnswer);
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  /** The body of a 2xx answer of `api`, or the answer as a `VulnscanError`. */
  async data<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok) throw errorFrom(response, error);
    return data as T;
  }

  /**
   * Every item of a list, page after page: follows `next_cursor` when the list gives one (keyset
   * lists stay consistent while items are added), otherwise `page` up to `pages`.
   */
  async *paginate<I>(
    fetchPage: (q: {
      page?: number;
      cursor?: string;
    }) => Promise<{ data?: { items: I[]; page: number; pages: number; next_cursor?: string | null }; error?: unknown; response: Response }>,
  ): AsyncGenerator<I> {
    let q: { page?: number; cursor?: string } = {};
    for (;;) {
      const body = await this.data(fetchPage(q));
      yield* body.items;
      if (body.next_cursor) q = { cursor: body.next_cursor };
      else if (body.page < body.pages && body.items.length > 0) q = { page: body.page + 1 };
      else return;
    }
  }

  private keep(answer: TokenAnswer): void {
    this.token = { value: answer.access_token, expiresAt: Date.now() + answer.expires_in * 1000 };
  }

  /** Credentials, refresh, then the request with retries (openapi-fetch's fetch). */
  private async send(req: Request): Promise<Response> {
    const refreshCall = new URL(req.url).pathname === "/api/v1/auth/refresh";
    if (!refreshCall && this.token && this.token.expiresAt - Date.now() < REFRESH_MARGIN_MS) await this.refresh();
    return this.sendOnce(req);
  }

  private async sendOnce(req: Request): Promise<Response> {
    const max = this.opts.maxRetries ?? 3;
    const longest = this.opts.maxRetryAfterSeconds ?? 60;
    for (let attempt = 0; ; attempt++) {
      // A request's body can be read once: each attempt sends a copy.
      const copy = req.clone();
      if (this.opts.apiKey) copy.headers.set("x-api-key", this.opts.apiKey);
      else if (this.token) copy.headers.set("authorization", `Bearer ${this.token.value}`);
      const res = await this.fetchImpl(copy);
      if ((res.status !== 429 && res.status !== 503) || attempt >= max) return res;
      const wait = retryAfterSeconds(res.headers.get("retry-after")) ?? 2 ** attempt;
      if (wait > longest) return res;
      await res.body?.cancel();
      await sleep(wait * 1000);
    }
  }
}

function errorFrom(res: Response, body: unknown): VulnscanError {
  const b = (body && typeof body === "object" ? body : {}) as { detail?: string; error_code?: string; field?: string; errors?: VulnscanError["errors"] };
  return new VulnscanError(
    res.status,
    b.error_code ?? `HTTP_${res.status}`,
    b.detail ?? res.statusText,
    b.field,
    b.errors ?? [],
    res.headers.get("x-request-id") ?? undefined,
  );
}

async function errorOf(res: Response): Promise<VulnscanError> {
  return errorFrom(res, await res.json().catch(() => undefined));
}
