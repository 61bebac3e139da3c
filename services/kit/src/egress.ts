import ipaddr from "ipaddr.js";
import type { Network } from "./networks.js";

/*
 * The one rule for addresses a service connects to on a customer's behalf (DESIGN.md §3 "webhook
 * URLs", §5 egress allowlist): webhook deliveries, and the look-ups that verify a scan target
 * (issue 29). Only public unicast, unless the operator allows the special-purpose ranges;
 * ipaddr.js names every one (loopback, private, linkLocal — the cloud metadata address is one —,
 * carrierGradeNat, multicast, unspecified, uniqueLocal, NAT64, 6to4, teredo, reserved, …) and an
 * IPv4-mapped IPv6 address is judged as the IPv4 address it carries. When the operator sets an
 * allowlist, every address must also lie inside it.
 */
export interface EgressRules {
  allowPrivate: boolean;
  allowed: Network[] | undefined;
  /** The variable named in refusals, e.g. WEBHOOK_ALLOWED_NETWORKS. */
  allowlistName: string;
}

/** Why `address` may not be reached, or undefined when it may. */
export function egressRefusal(address: string, rules: EgressRules): string | undefined {
  const a = ipaddr.process(address);
  const { allowed } = rules;
  if (allowed && !allowed.some(([range, bits]) => range.kind() === a.kind() && a.match([range, bits]))) {
    return `address ${a.toString()} is outside ${rules.allowlistName}`;
  }
  const range = a.range();
  if (range !== "unicast" && !rules.allowPrivate) return `address ${a.toString()} is ${range}, not public`;
  return undefined;
}
