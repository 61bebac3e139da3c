// The console's only way to the server: the public REST API, with the bearer token kept in
// sessionStorage (this tab only; never a cookie, never a URL, never logged).
import { ApiError, errorBodyOf } from "./errors.js";
import { parseSse, type SseEvent } from "./sse.js";
import { type Identity, identityOf, isExpired, refreshDelayMs, signOutReason, type StoredToken, storedTokenOf, type TokenResponse } from "./session.js";

const STORAGE_KEY = "vulnscan.session";

type Listener = (signedIn: boolean, reason?: string) => void;

let current: StoredToken | null = load();
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<Listener>();

function load(): StoredToken | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    const t = raw ? (JSON.parse(raw) as StoredToken) : null;
    return t && typeof t.token === "string" && !isExpired(t, Date.now()) ? t : null;
  } catch {
    return null;
  }
}

function save(t: StoredToken | null): void {
  current = t;
  if (t) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(t));
  else sessionStorage.removeItem(STORAGE_KEY);
  schedule();
}

function schedule(): void {
  clearTimeout(refreshTimer);
  if (!current) return;
  refreshTimer = setTimeout(() => void refresh().catch(() => undefined), refreshDelayMs(current, Date.now()));
}
schedule();

export function onSessionChange(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function isSignedIn(): boolean {
  return current !== null;
}

/** The signed-in user's email and organization id, from the token (for the header). */
export function identity(): Identity | null {
  return current ? identityOf(current.token) : null;
}

function ended(reason?: string): void {
  save(null);
  for (const l of listeners) l(false, reason);
}

async function parse(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  return (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | undefined | null>;
  signal?: AbortSignal;
}

export function withQuery(path: string, query: RequestOptions["query"]): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (current) headers.authorization = `Bearer ${current.token}`;
  let body: string | FormData | undefined;
  // FormData goes as multipart (the browser writes the boundary); anything else as JSON.
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  return fetch(withQuery(path, opts.query), {
    method: opts.method ?? "GET",
    headers,
    body,
    credentials: "same-origin",
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}

/** Calls the API; a 401 on an authenticated call ends the session with the reason shown at sign-in. */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await send(path, opts);
  const parsed = await parse(res);
  if (res.ok) return parsed as T;
  const err = new ApiError(res.status, errorBodyOf(res.status, parsed));
  if (res.status === 401 && current) ended(signOutReason(err.code));
  throw err;
}

/**
 * Reads a text/event-stream endpoint with the bearer token (EventSource cannot send it), handing
 * each event to `on`; resolves when the server closes the stream, rejects on an API error.
 */
export async function stream(path: string, on: (e: SseEvent) => void, signal: AbortSignal): Promise<void> {
  const res = await send(path, { signal });
  if (!res.ok || !res.body) {
    const err = new ApiError(res.status, errorBodyOf(res.status, await parse(res)));
    if (res.status === 401 && current) ended(signOutReason(err.code));
    throw err;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const { events, rest } = parseSse(buffered + value);
    buffered = rest;
    for (const e of events) on(e);
  }
}

/** Downloads a file from the API (exports, evidence) with the bearer token, then hands it to the browser. */
export async function download(path: string, query: RequestOptions["query"], fallbackName: string): Promise<void> {
  const res = await send(path, { query });
  if (!res.ok) {
    const err = new ApiError(res.status, errorBodyOf(res.status, await parse(res)));
    if (res.status === 401 && current) ended(signOutReason(err.code));
    throw err;
  }
  const name = /filename="?([^";]+)"?/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function adopt(res: TokenResponse): Promise<void> {
  save(storedTokenOf(res, Date.now()));
  await openDocs();
}

/**
 * Lets this browser open /docs, /redoc and /openapi.json: the gateway sets an HttpOnly,
 * SameSite=Strict cookie scoped to those paths and bound to this session. Best effort: a
 * gateway without the endpoint simply leaves the docs behind their bearer check.
 */
async function openDocs(): Promise<void> {
  await send("/api/v1/auth/docs-cookie", { method: "POST" }).catch(() => undefined);
}

/** Username/password sign-in; ApiError MFA_REQUIRED asks the caller for the code. */
export async function signIn(username: string, password: string, mfaCode?: string): Promise<void> {
  const form = new URLSearchParams({ username, password });
  if (mfaCode) form.set("mfa_code", mfaCode);
  const res = await fetch("/api/v1/auth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: form.toString(),
  });
  const parsed = await parse(res);
  if (!res.ok) throw new ApiError(res.status, errorBodyOf(res.status, parsed));
  await adopt(parsed as TokenResponse);
  for (const l of listeners) l(true);
}

/** Same session, new token, before the old one expires (scheduled; also callable). */
export async function refresh(): Promise<void> {
  if (!current) return;
  await adopt(await api<TokenResponse>("/api/v1/auth/refresh", { method: "POST" }));
}

/** Revokes this session on the server, then forgets the token. */
export async function signOut(): Promise<void> {
  try {
    const sessions = await api<{ items: { id: string; current: boolean }[] }>("/api/v1/auth/sessions");
    const mine = sessions.items.find((s) => s.current);
    if (mine) await api(`/api/v1/auth/sessions/${encodeURIComponent(mine.id)}`, { method: "DELETE" });
  } catch {
    // Signing out locally still happens; the token dies with its expiry.
  }
  ended();
}

/** Called after "sign out everywhere": the server has already revoked this session too. */
export function forget(reason?: string): void {
  ended(reason);
}
