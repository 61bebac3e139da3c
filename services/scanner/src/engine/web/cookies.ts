import type { HttpResult } from "../../net/http.js";
import { COOKIE_NO_HTTPONLY, COOKIE_NO_SAMESITE, COOKIE_NO_SECURE } from "./checks.js";
import type { CheckDef } from "./check.js";

export interface CookieIssue {
  check: CheckDef;
  cookies: string[];
}

/** Parses each Set-Cookie (raw headers keep them apart) and lists cookies lacking each flag. */
export function cookieIssues(res: HttpResult, siteUsesHttps: boolean): CookieIssue[] {
  const setCookies: string[] = [];
  for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i]!.toLowerCase() === "set-cookie") setCookies.push(res.rawHeaders[i + 1]!);
  const noSecure: string[] = [];
  const noHttpOnly: string[] = [];
  const noSameSite: string[] = [];
  for (const c of setCookies) {
    const [pair, ...attrs] = c.split(";").map((s) => s.trim());
    const name = pair?.split("=")[0] ?? "";
    const flags = new Set(attrs.map((a) => a.split("=")[0]!.toLowerCase()));
    // Secure only makes sense where the site has HTTPS; on HTTP-only sites the finding is the missing HTTPS.
    if (siteUsesHttps && !flags.has("secure")) noSecure.push(name);
    if (!flags.has("httponly")) noHttpOnly.push(name);
    if (!flags.has("samesite")) noSameSite.push(name);
  }
  const out: CookieIssue[] = [];
  if (noSecure.length) out.push({ check: COOKIE_NO_SECURE, cookies: noSecure });
  if (noHttpOnly.length) out.push({ check: COOKIE_NO_HTTPONLY, cookies: noHttpOnly });
  if (noSameSite.length) out.push({ check: COOKIE_NO_SAMESITE, cookies: noSameSite });
  return out;
}
