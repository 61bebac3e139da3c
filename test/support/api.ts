import { spawnSync } from "node:child_process";
import { ROOT } from "../../scripts/lib/root.js";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A tiny client for the public API, as a customer would call it. */
export class Api {
  constructor(
    readonly baseUrl: string,
    private readonly auth: { token?: string; apiKey?: string } = {},
  ) {}

  withToken(token: string) {
    return new Api(this.baseUrl, { token });
  }

  withApiKey(apiKey: string) {
    return new Api(this.baseUrl, { apiKey });
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const h: Record<string, string> = { ...headers };
    if (this.auth.token) h.authorization = `Bearer ${this.auth.token}`;
    if (this.auth.apiKey) h["x-api-key"] = this.auth.apiKey;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === "string" ? body : JSON.stringify(body);
      h["content-type"] ??= "application/json";
    }
    const send = () => fetch(`${this.baseUrl}${path}`, { method, headers: h, body: payload });
    // A pooled keep-alive connection the server closed while idle fails the request before it is
    // sent ("other side closed"); a read is sent again once, on a fresh connection. Writes are not:
    // whether they were applied would be unknown.
    const res = await send().catch((err: Error & { cause?: { code?: string } }) => {
      if ((method === "GET" || method === "HEAD") && err.cause?.code === "UND_ERR_SOCKET") return send();
      throw err;
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get("content-type") ?? "").includes("application/json") && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  get<T = any>(path: string) {
    return this.request<T>("GET", path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>("POST", path, body);
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.request<T>("PATCH", path, body);
  }
  delete<T = any>(path: string) {
    return this.request<T>("DELETE", path);
  }

  /** POST /api/v1/auth/token with form fields, as the spec describes. */
  token(username: string, password: string, mfaCode?: string) {
    const form = new URLSearchParams({ username, password, ...(mfaCode ? { mfa_code: mfaCode } : {}) });
    return this.request<{ access_token: string; token_type: string; expires_in: number }>("POST", "/api/v1/auth/token", form.toString(), {
      "content-type": "application/x-www-form-urlencoded",
    });
  }
}

/** Runs the operator CLI (`npm run admin -- ...`) and returns the JSON object of its last line. */
export function admin(args: string[], env: { MONGO_URL: string; MONGO_DB: string }): { id: string; [k: string]: unknown } {
  const res = spawnSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_LEVEL: "silent" },
    encoding: "utf8",
  });
  if (res.status !== 0) throw new Error(`admin ${args.join(" ")} failed (${res.status}): ${res.stderr}${res.stdout}`);
  const last = res.stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(last);
}

/**
 * A new organization on `plan` with one user (the operator CLI against the system's auth
 * database), signed in through the gateway.
 */
export async function newAccount(o: { gatewayUrl: string; mongoUrl: string; authDb: string; plan: string; name: string; password: string }): Promise<Api> {
  const env = { MONGO_URL: o.mongoUrl, MONGO_DB: o.authDb };
  const org = admin(["create-org", "--name", `${o.plan} ${o.name}`, "--plan", o.plan], env);
  const email = `${o.name}-${o.plan}@example.test`.toLowerCase();
  admin(["create-user", "--org", org.id, "--email", email, "--password", o.password], env);
  const api = new Api(o.gatewayUrl);
  const res = await api.token(email, o.password);
  if (res.status !== 200) throw new Error(`sign-in of ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return api.withToken(res.body.access_token);
}
