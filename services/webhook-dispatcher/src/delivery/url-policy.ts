import net from "node:net";
import { egressRefusal } from "@vulnscan/kit/egress";
import type { Network } from "@vulnscan/kit/networks";

/*
 * Which addresses a webhook may reach (DESIGN.md §3 "webhook URLs", §5 egress allowlist): the
 * kit's egress rule (also used by target verification), with WEBHOOK_ALLOW_PRIVATE_URLS and
 * WEBHOOK_ALLOWED_NETWORKS.
 */

export class UrlRefused extends Error {
  override name = "UrlRefused";
}

/** Name → every address it resolves to (the system resolver in production). */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

export interface UrlPolicyOptions {
  allowPrivate: boolean;
  allowed: Network[] | undefined;
  resolve: Resolve;
}

export interface CheckedTarget {
  url: URL;
  /** The address to connect to: the one that was checked (no second lookup: DNS rebinding). */
  address: string;
  family: 4 | 6;
}

const MAX_URL = 2048;

/** Syntax: an absolute https URL without credentials. The WHATWG parser canonicalises decimal, octal and hex IPv4 hosts. */
export function parseWebhookUrl(raw: string): URL {
  if (raw.length > MAX_URL) throw new UrlRefused(`URL must be at most ${MAX_URL} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused("URL is not a valid absolute URL");
  }
  if (url.protocol !== "https:") throw new UrlRefused("URL must use https");
  if (url.username || url.password) throw new UrlRefused("URL must not carry credentials");
  if (!url.hostname) throw new UrlRefused("URL has no host");
  // Port 0 is no port: connecting to it fails on every host, or means "any port" to some stacks.
  if (url.port === "0") throw new UrlRefused("URL port must be between 1 and 65535");
  return url;
}

export class UrlPolicy {
  constructor(private readonly opts: UrlPolicyOptions) {}

  /** Why `address` may not be reached, or undefined when it may. */
  refusal(address: string): string | undefined {
    return egressRefusal(address, { allowPrivate: this.opts.allowPrivate, allowed: this.opts.allowed, allowlistName: "WEBHOOK_ALLOWED_NETWORKS" });
  }

  /** Parses, resolves and checks every address of the host; the first one is the one to connect to. */
  async check(raw: string): Promise<CheckedTarget> {
    const url = parseWebhookUrl(raw);
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    let answers: { address: string; family: number }[];
    if (net.isIP(host)) answers = [{ address: host, family: net.isIP(host) }];
    else {
      try {
        answers = await this.opts.resolve(host);
      } catch {
        answers = [];
      }
      if (answers.length === 0) throw new UrlRefused(`host ${host} does not resolve`);
    }
    // Every answer must pass: a name with one public and one private address is refused, so a
    // resolver's order cannot choose the private one later.
    for (const { address } of answers) {
      const why = this.refusal(address);
      if (why) throw new UrlRefused(`URL refused: ${why}`);
    }
    const first = answers[0]!;
    return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
  }
}
