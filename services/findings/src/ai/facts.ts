import { isIP } from "node:net";
import type { AnalysisInput } from "./provider.js";

/*
 * What the analyst reads out of a finding before it says anything: where it is (host, port,
 * URL), what runs there, how reachable it is. Every statement of an analysis is built from these
 * and from the finding's own fields, so it cannot describe another finding.
 */

export type Exposure = "internet" | "internal" | "adjacent" | "local";

/** Exposure from the CVSS attack vector and the target's address. */
export function exposureOf(input: Pick<AnalysisInput, "cvss_vector" | "target">): Exposure {
  const av = /AV:([NALP])/.exec(input.cvss_vector)?.[1];
  if (av === "L" || av === "P") return "local";
  if (av === "A") return "adjacent";
  return isPrivate(input.target.replace(/\/\d+$/, "")) ? "internal" : "internet";
}

function isPrivate(host: string): boolean {
  const v = isIP(host);
  if (v === 4) return /^(10\.|127\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.)/.test(host);
  if (v === 6) return /^(::1$|fc|fd|fe80)/i.test(host);
  return false;
}

/** Who can attack, as the subject of a sentence. */
export const WHO: Record<Exposure, string> = {
  internet: "Anyone on the internet",
  internal: "An attacker with a foothold in the internal network",
  adjacent: "An attacker on the same network segment",
  local: "A user with local access to the host",
};

const PORT_SERVICES: Record<number, string> = {
  21: "FTP",
  22: "SSH",
  23: "telnet",
  25: "SMTP",
  80: "the web server",
  443: "the web server",
  587: "SMTP",
  2375: "the Docker API",
  3306: "MySQL",
  5432: "PostgreSQL",
  6379: "Redis",
  9200: "Elasticsearch",
  11211: "memcached",
  27017: "MongoDB",
};

export interface Location {
  host: string;
  port: string;
  /** The URL the check requested (HTTP findings), else "". */
  url: string;
  /** scheme://host[:port] of url, else http://host. */
  origin: string;
  /** The URL's path, else the component. */
  path: string;
  /** The product named by the component ("OpenSSH 7.2p2 on h:22"), else "". */
  product: string;
  /** The service in words: the product, else what usually listens on the port. */
  service: string;
}

/** Services a check's title names ("Redis reachable without authentication"), when the port is not their usual one. */
const TITLE_SERVICES = ["Redis", "memcached", "Elasticsearch", "Docker", "PostgreSQL", "MongoDB", "MySQL", "Jenkins", "Grafana", "FTP", "SSH", "SMTP"];

/** Reads host, port and URL from any component format the scanner writes. */
export function locationOf(input: Pick<AnalysisInput, "affected_component" | "target"> & { title?: string }): Location {
  const c = input.affected_component.trim();
  let host = input.target;
  let port = "";
  let url = "";
  let origin = "";
  let path = c || input.target;
  let product = "";
  const asUrl = /^(https?|tcp|tls|ssh|ftp):\/\/\S+$/.exec(c);
  if (asUrl) {
    const u = new URL(c);
    host = u.hostname.replace(/^\[|\]$/g, "");
    port = u.port || { http: "80", https: "443", ssh: "22", ftp: "21" }[u.protocol.slice(0, -1)] || "";
    if (u.protocol.startsWith("http")) {
      url = c;
      origin = u.origin;
      path = u.pathname + u.search;
    }
  } else {
    const on = /^(.+?) on (\S+?):(\d+)$/.exec(c);
    const hostPort = /^(\S+?):(\d+)$/.exec(c);
    if (on) [, product = "", host = host, port = ""] = on;
    else if (hostPort) [, host = host, port = ""] = hostPort;
  }
  if (!origin) origin = `http://${host}${port && port !== "80" ? `:${port}` : ""}`;
  const named = TITLE_SERVICES.find((w) => new RegExp(`\\b${w}\\b`, "i").test(input.title ?? ""));
  const service = product || named || PORT_SERVICES[Number(port)] || "the service";
  return { host, port: port || "(port)", url: url || origin, origin, path, product, service };
}

/** The upstream fix the scanner's remediation names ("Upgrade to OpenSSH 9.3 or later (...)"). */
export function upstreamFixOf(input: Pick<AnalysisInput, "remediation_summary">): string {
  return /^Upgrade to (.+?)(?: \(| and |\.$|$)/.exec(input.remediation_summary.trim())?.[1] ?? "";
}

export interface DistributionFix {
  distribution: string;
  version: string;
}

/**
 * A distribution's fixed package version when the scanner states it in the finding (description,
 * remediation or evidence), as the scanner's distribution check writes it: "Debian 12 fixed it in
 * 1:9.2p1-2+deb12u3 (OSV)", "OSV: Debian:12 openssh fixed in 1:9.2p1-2+deb12u3".
 */
export function distributionFixOf(
  input: Pick<AnalysisInput, "description" | "remediation_summary" | "remediation_steps" | "evidence_response">,
): DistributionFix | undefined {
  const text = [input.description, input.remediation_summary, ...input.remediation_steps, input.evidence_response].join("\n");
  const before = /\b(Debian|Ubuntu|Red Hat|RHEL|Alpine|SUSE)\b[^\n.]{0,40}?\bfixed (?:it )?in (?:version )?`?(\d[\w.:~+-]*\w)`?/i.exec(text);
  if (before) return { distribution: before[1]!, version: before[2]! };
  const after = /\bfixed in (?:version )?`?(\d[\w.:~+-]*\w)`? \(?(Debian|Ubuntu|Red Hat|RHEL|Alpine|SUSE)\b/i.exec(text);
  return after ? { distribution: after[2]!, version: after[1]! } : undefined;
}

/** The distribution a banner names (OpenSSH's "Debian-2+deb12u10", "Ubuntu-4ubuntu2.10"). */
export function bannerDistributionOf(input: Pick<AnalysisInput, "evidence_response" | "affected_component">): "Debian" | "Ubuntu" | undefined {
  const text = `${input.evidence_response} ${input.affected_component}`;
  if (/ubuntu/i.test(text)) return "Ubuntu";
  if (/debian|\+deb\d/i.test(text)) return "Debian";
  return undefined;
}
