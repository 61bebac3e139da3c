import type { HttpResult } from "../../net/http.js";
import type { Site } from "./page.js";

/*
 * Where a site's APIs live, for the checks that matter most there (CORS): API-looking paths the
 * home page links to, that robots.txt names and that sitemap.xml lists, plus the usual prefixes.
 * Only paths on the same service are kept; at most MAX_PATHS, so a large sitemap costs nothing.
 */

export const API_PREFIXES = ["/api/", "/v1/", "/graphql"];
const API_LIKE = /^\/(?:[\w.-]+\/)*(?:api|rest|graphql|v\d+)(?:[/?#]|$)/i;
const MAX_PATHS = 8;

/** A same-site path from an href, a robots.txt rule or a sitemap URL; undefined for other sites. */
export function sitePath(ref: string, origin: string): string | undefined {
  try {
    const u = new URL(ref.replace(/[*$].*$/, ""), origin);
    if (u.origin !== new URL(origin).origin) return undefined;
    return u.pathname || "/";
  } catch {
    return undefined;
  }
}

/** API-looking paths in a page, a robots.txt and a sitemap (pure: the texts are given). */
export function apiPathsIn(texts: { home?: string; robots?: string; sitemap?: string }, origin: string): string[] {
  const refs: string[] = [];
  for (const m of (texts.home ?? "").matchAll(/(?:href|src|action)\s*=\s*["']([^"'#]+)["']/gi)) refs.push(m[1]!);
  for (const m of (texts.robots ?? "").matchAll(/^\s*(?:dis)?allow\s*:\s*(\S+)/gim)) refs.push(m[1]!);
  for (const m of (texts.sitemap ?? "").matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)) refs.push(m[1]!);
  const paths = refs.map((r) => sitePath(r, origin)).filter((p): p is string => p !== undefined && API_LIKE.test(p));
  return [...new Set(paths)];
}

const text = (r: HttpResult | undefined) => (r && r.status === 200 ? r.body.toString("utf8") : undefined);

/** The API paths of one site, discovered ones first, then the usual prefixes; "/" excluded. */
export async function discoverApiPaths(site: Site, home: HttpResult): Promise<string[]> {
  const origin = new URL(site.url("/")).origin;
  const [robots, sitemap] = await Promise.all([
    site.fetch("/robots.txt", { maxBodyBytes: 32 * 1024 }),
    site.fetch("/sitemap.xml", { maxBodyBytes: 256 * 1024 }),
  ]);
  const found = apiPathsIn({ home: home.body.toString("utf8"), robots: text(robots), sitemap: text(sitemap) }, origin);
  return [...new Set([...found, ...API_PREFIXES])].filter((p) => p !== "/").slice(0, MAX_PATHS);
}
