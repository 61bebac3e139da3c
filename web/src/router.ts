// Hash routing (#/findings/finding_1?status=open): the gateway serves one index.html at /,
// and every view stays a plain link that keyboard, history and new tabs understand.
import { useEffect, useState } from "react";

export interface Route {
  path: string[];
  query: URLSearchParams;
}

function parse(): Route {
  const raw = window.location.hash.replace(/^#\/?/, "");
  const [p = "", q = ""] = raw.split("?");
  return { path: p.split("/").filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(q) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(parse);
  useEffect(() => {
    const on = () => setRoute(parse());
    window.addEventListener("hashchange", on);
    return () => window.removeEventListener("hashchange", on);
  }, []);
  return route;
}

export function href(path: string, query?: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return `#${path}${s ? `?${s}` : ""}`;
}

export function navigate(path: string, query?: Record<string, string | number | undefined>): void {
  window.location.hash = href(path, query).slice(1);
}

/** The `page` of a list's URL: a whole number from 1, whatever was typed there. */
export function pageOf(query: URLSearchParams): number {
  const n = Math.floor(Number(query.get("page") ?? 1));
  return Number.isFinite(n) && n >= 1 ? n : 1;
}
