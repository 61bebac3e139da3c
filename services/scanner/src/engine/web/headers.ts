import type { HttpResult } from "../../net/http.js";
import type { Service } from "../types.js";
import { MISSING_CSP, MISSING_FRAME_PROTECTION, MISSING_HSTS, MISSING_NOSNIFF, MISSING_REFERRER_POLICY } from "./checks.js";
import type { CheckDef } from "./check.js";
import { header, isHtml, isRedirect } from "./page.js";

/**
 * Security headers of a page response. Redirects are skipped (a bare 301 to HTTPS is the right
 * answer on port 80); CSP and framing only matter for HTML.
 */
export function missingHeaders(svc: Service, res: HttpResult): CheckDef[] {
  if (isRedirect(res) || res.status >= 400) return [];
  const out: CheckDef[] = [];
  const csp = header(res, "content-security-policy") ?? "";
  if (svc.tls && !header(res, "strict-transport-security")) out.push(MISSING_HSTS);
  if (isHtml(res)) {
    if (!csp) out.push(MISSING_CSP);
    if (!header(res, "x-frame-options") && !/frame-ancestors/i.test(csp)) out.push(MISSING_FRAME_PROTECTION);
  }
  if ((header(res, "x-content-type-options") ?? "").toLowerCase() !== "nosniff") out.push(MISSING_NOSNIFF);
  if (!header(res, "referrer-policy")) out.push(MISSING_REFERRER_POLICY);
  return out;
}
