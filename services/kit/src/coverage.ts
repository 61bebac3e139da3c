/*
 * Scan coverage (issue 28): which check ran against which component. Shared by the scanner,
 * which records it, and findings, which judges a finding absent from a later scan by it, so
 * both name a finding's check and component the same way.
 */

const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };
/** Version-control metadata is one exposure whichever of its files a check fetched. */
const VCS_DIR = /^((?:\/[^/]+)*?\/\.(?:git|svn|hg|bzr))(?:\/.*)?$/;
const URL_LIKE = /^([a-z][a-z0-9+.-]*):\/\/(\[[^\]]+\]|[^/:?#\s]+)(?::(\d+))?([^?#\s]*)/i;
const ON_HOST_PORT = /\son\s+(\[[^\]]+\]|[^\s:]+):(\d+)$/;

/**
 * The URL path as one location: the root is the service itself (""), one trailing slash is
 * dropped, version-control files fold into their directory.
 */
export function normalisePath(path: string): string {
  let p = path || "/";
  if (!p.startsWith("/")) p = `/${p}`;
  const vcs = VCS_DIR.exec(p);
  if (vcs) return `${vcs[1]}/`;
  return p.replace(/\/$/, "");
}

/** The port and location a component string names ("http://h:8080/x", "tcp://h:21", "redis 7 on h:6379"). */
export function componentLocation(component: string): { port: string; path: string } {
  const url = URL_LIKE.exec(component.trim());
  if (url) {
    const scheme = url[1]!.toLowerCase();
    const port = url[3] ?? String(DEFAULT_PORTS[scheme] ?? "");
    const web = scheme === "http" || scheme === "https";
    return { port, path: web ? normalisePath(url[4] ?? "") : "" };
  }
  const on = ON_HOST_PORT.exec(component.trim());
  if (on) return { port: on[2]!, path: "" };
  return { port: "", path: component.trim().toLowerCase() };
}

/** The template id of the telnet exposure the port scan reports (scanner fingerprint/checks.ts). */
export const TELNET_CHECK_TEMPLATE = "net-telnet-exposed";

/**
 * The coverage check id of a finding's check, from its tool and template id; undefined for
 * what no single check produces (correlation notes, analyses, plans): such a finding is never
 * judged absent.
 */
export function coverageCheck(tool: string, templateId: string): string | undefined {
  if (templateId.startsWith("cve:") || tool === "cve-match") return "cve";
  if (tool === "templates") return `template:${templateId}`;
  if (tool === "web" || tool === "tls" || tool === "ssh") return tool;
  if (tool === "datastores") return "datastore";
  if (tool === "portscan") return templateId === TELNET_CHECK_TEMPLATE ? "telnet" : "portscan";
  return undefined;
}

/** Where a coverage check runs: on a port, or on the host itself (the port inventory). */
export const hostLevelCheck = (check: string) => check === "portscan";
