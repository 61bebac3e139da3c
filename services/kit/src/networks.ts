import ipaddr from "ipaddr.js";
import { z } from "zod";

/*
 * Network allowlists (DESIGN.md §5: SCAN_ALLOWED_NETWORKS, WEBHOOK_ALLOWED_NETWORKS): a comma
 * list of CIDR ranges or single addresses, one syntax for every service that reads them.
 */

export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

const items = (list: string | undefined) =>
  (list ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

const validItem = (c: string) => (c.includes("/") ? ipaddr.isValidCIDR(c) : ipaddr.isValid(c));

/** The parsed list; undefined when empty (no allowlist). A single address is a /32 or /128. */
export function parseNetworkList(list: string | undefined): Network[] | undefined {
  const all = items(list);
  if (all.length === 0) return undefined;
  return all.map((c) => {
    if (c.includes("/")) return ipaddr.parseCIDR(c);
    const address = ipaddr.parse(c);
    return [address, address.kind() === "ipv6" ? 128 : 32];
  });
}

/** Env schema of an allowlist; empty or unset = no allowlist. */
export const networkListEnv = z
  .string()
  .default("")
  .refine((s) => items(s).every(validItem), "must be a comma-separated list of CIDR ranges or addresses, e.g. 127.0.0.0/8,10.231.0.0/16");
