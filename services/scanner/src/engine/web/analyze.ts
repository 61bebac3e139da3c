import type { EgressGuard } from "../../net/egress.js";
import type { HttpResult } from "../../net/http.js";
import type { DetectionDraft, Service } from "../types.js";
import { detection } from "./check.js";
import { CORS_REFLECTION, CORS_WILDCARD_CREDENTIALS, DANGEROUS_METHODS, DIRECTORY_LISTING, NO_HTTPS_REDIRECT, TRACE_ENABLED } from "./checks.js";
import { cookieIssues } from "./cookies.js";
import { FILE_PROBES, isExposed } from "./exposed-files.js";
import { missingHeaders } from "./headers.js";
import { Site, header, headEvidence, isRedirect, randomPath } from "./page.js";
import { discoverApiPaths } from "./api-paths.js";

const PROBE_ORIGIN = "https://evil.vulnscan.invalid";
const LISTING = /<title>\s*Index of \/|<h1>\s*Index of \/|Directory listing for \//i;
const LISTING_CANDIDATES = ["/files/", "/uploads/", "/backup/", "/backups/", "/images/", "/static/"];

export interface WebContext {
  guard: EgressGuard;
  signal?: AbortSignal;
  /** Whether the same host serves HTTPS somewhere (decides redirect and cookie Secure findings). */
  hostHasHttps: boolean;
}

/**
 * Every web check on one HTTP(S) service: headers and cookies of the home page, CORS with a
 * foreign Origin on the root and on the API paths the site shows (api-paths.ts), directory listings, sensitive files (after learning the soft-404 shape),
 * TRACE and advertised methods, and the HTTP→HTTPS redirect.
 */
export async function analyzeWebService(svc: Service, wc: WebContext): Promise<DetectionDraft[]> {
  const site = new Site(svc, { guard: wc.guard, signal: wc.signal });
  const target = svc.hostname ?? svc.host;
  const at = (path: string) => site.url(path);
  const out: DetectionDraft[] = [];
  const home = await site.fetch("/");
  if (!home) return out;

  for (const check of missingHeaders(svc, home)) out.push(detection(check, { target, affectedComponent: at("/"), evidence: headEvidence(home) }));

  for (const issue of cookieIssues(home, svc.tls || wc.hostHasHttps)) {
    out.push(detection(issue.check, { target, affectedComponent: at("/"), detail: `Cookies: ${issue.cookies.join(", ")}.`, evidence: headEvidence(home) }));
  }

  // CORS where APIs live, not only on the home page: the root, then the API paths the site shows.
  const corsSeen: { path: string; res: HttpResult; kind: "reflect" | "wildcard" }[] = [];
  for (const path of ["/", ...(await discoverApiPaths(site, home))]) {
    const res = await site.fetch(path, { headers: { origin: PROBE_ORIGIN }, maxBodyBytes: 4096 });
    if (!res) continue;
    const allowOrigin = header(res, "access-control-allow-origin");
    const credentials = (header(res, "access-control-allow-credentials") ?? "").toLowerCase() === "true";
    if (credentials && allowOrigin === PROBE_ORIGIN) corsSeen.push({ path, res, kind: "reflect" });
    else if (credentials && allowOrigin === "*") corsSeen.push({ path, res, kind: "wildcard" });
  }
  for (const [kind, check] of [
    ["reflect", CORS_REFLECTION],
    ["wildcard", CORS_WILDCARD_CREDENTIALS],
  ] as const) {
    const hits = corsSeen.filter((c) => c.kind === kind);
    const first = hits[0];
    if (!first) continue;
    // One finding per service, on the root when the root does it too (templates report it there).
    out.push(
      detection(check, {
        target,
        affectedComponent: at(first.path),
        detail: `Seen on: ${hits.map((h) => h.path).join(", ")}.`,
        evidence: { request: hits.map((h) => h.res.requestText).join("\n\n"), response: hits.map((h) => headEvidence(h.res).response).join("\n\n") },
      }),
    );
  }

  const notFound = await site.fetch(randomPath());

  // Directory listings: the root, directories the home page links to, and usual upload folders.
  const body = home.body.toString("latin1");
  const linked = [...body.matchAll(/href="(\/?[\w.-]+\/)"/g)].map((m) => (m[1]!.startsWith("/") ? m[1]! : `/${m[1]!}`));
  for (const path of [...new Set(["/", ...linked.slice(0, 5), ...LISTING_CANDIDATES])]) {
    const res = path === "/" ? home : await site.fetch(path);
    if (res?.status === 200 && LISTING.test(res.body.toString("latin1")) && !notFound?.body.equals(res.body)) {
      out.push(detection(DIRECTORY_LISTING, { target, affectedComponent: at(path), evidence: { request: res.requestText, response: res.responseText } }));
    }
  }

  const reported = new Set<string>();
  for (const probe of FILE_PROBES) {
    const res = await site.fetch(probe.path, { maxBodyBytes: 64 * 1024 });
    if (!isExposed(probe, res, notFound) || reported.has(probe.path)) continue;
    reported.add(probe.path);
    out.push(
      detection(probe.check, {
        target,
        affectedComponent: at(probe.path),
        detail: notFound ? `A random path answered ${notFound.status} with different content, so this is not a soft 404.` : undefined,
        evidence: { request: res.requestText, response: res.responseText.slice(0, 1024) },
      }),
    );
  }

  const marker = `vulnscan-${Date.now().toString(36)}`;
  const trace = await site.fetch("/", { method: "TRACE", headers: { "x-vulnscan-trace": marker } });
  if (trace?.status === 200 && trace.body.toString("latin1").includes(marker)) {
    out.push(detection(TRACE_ENABLED, { target, affectedComponent: at("/"), evidence: { request: trace.requestText, response: trace.responseText } }));
  }
  const options = await site.fetch("/", { method: "OPTIONS" });
  const allowed = `${options ? (header(options, "allow") ?? "") : ""},${options ? (header(options, "access-control-allow-methods") ?? "") : ""}`.toUpperCase();
  const dangerous = ["PUT", "DELETE"].filter((m) => new RegExp(`\\b${m}\\b`).test(allowed));
  if (options && options.status < 400 && dangerous.length) {
    out.push(
      detection(DANGEROUS_METHODS, { target, affectedComponent: at("/"), detail: `Advertised: ${dangerous.join(", ")}.`, evidence: headEvidence(options) }),
    );
  }

  // Plain HTTP must send users to HTTPS: flagged when the host has HTTPS, or on the standard port.
  if (!svc.tls && (wc.hostHasHttps || svc.port === 80)) {
    const location = header(home, "location") ?? "";
    if (!(isRedirect(home) && /^https:\/\//i.test(location))) {
      out.push(
        detection(NO_HTTPS_REDIRECT, {
          target,
          affectedComponent: at("/"),
          detail: wc.hostHasHttps ? "The host also serves HTTPS." : "No HTTPS redirect on port 80.",
          evidence: headEvidence(home),
        }),
      );
    }
  }
  return out;
}
