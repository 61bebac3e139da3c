import { decodeJwt } from "jose";

/**
 * A browser cannot attach `Authorization` to a navigation, so /docs, /redoc, /openapi.json and
 * the events catalogue (/asyncapi, /asyncapi.json)
 * also accept the console's access token from an HttpOnly, SameSite=Strict cookie scoped to
 * those paths. It is the session's own token: revoking the session (or its expiry) ends it.
 * It is honoured for GET/HEAD on those paths only, so it can never authorize an API call.
 */
export const DOCS_COOKIE = "vulnscan_docs";
export const DOCS_PATHS = ["/docs", "/redoc", "/openapi.json", "/asyncapi", "/asyncapi.json"] as const;

export function isDocsRequest(method: string, url: string): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  const p = url.split("?")[0]!;
  return DOCS_PATHS.some((d) => p === d || p.startsWith(`${d}/`));
}

/** The cookie's value from a Cookie header, if present and shaped like a JWT. */
export function docsToken(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === DOCS_COOKIE) {
      const value = rest.join("=");
      return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** One Set-Cookie per docs path (a cookie has one Path), living as long as the token. */
export function docsCookies(token: string, secure: boolean, now = Date.now()): string[] {
  const exp = decodeJwt(token).exp;
  const maxAge = Math.max(0, Math.floor((exp ?? 0) - now / 1000));
  return DOCS_PATHS.map((p) => `${DOCS_COOKIE}=${token}; Path=${p}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`);
}
