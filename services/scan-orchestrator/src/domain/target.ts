import ipaddr from "ipaddr.js";
import { validationError } from "@vulnscan/kit/core";

/*
 * Scan targets: a domain name, an IPv4 or IPv6 address, or a CIDR range (DESIGN.md §3 "target
 * policy", §5). Parsing is syntax only; `TargetPolicy` then applies the plan's range cap, the
 * refusal of special-purpose addresses and the operator's egress allowlist.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

export type ParsedTarget =
  | { kind: "domain"; raw: string; name: string }
  | { kind: "ip"; raw: string; address: Address }
  | { kind: "cidr"; raw: string; address: Address; prefix: number };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** RFC 1123 host name with at least one dot; the last label is not all digits (that is an IP). */
export function isDomainName(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  const labels = s.split(".");
  if (labels.length < 2) return false;
  if (!labels.every((l) => LABEL.test(l))) return false;
  return !/^\d+$/.test(labels[labels.length - 1]!);
}

const IPV4_STRICT = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Only canonical dotted quads and standard IPv6 text: ipaddr.js alone also takes "10.1" or "0x0a.0.0.1". */
function parseAddress(s: string): Address | undefined {
  if (IPV4_STRICT.test(s)) return ipaddr.IPv4.parse(s);
  if (s.includes(":") && ipaddr.IPv6.isValid(s) && !s.includes("%")) return ipaddr.IPv6.parse(s);
  return undefined;
}

export function parseTarget(input: string): ParsedTarget {
  const raw = input.trim();
  if (raw.length === 0) throw validationError("target", "Target is required");
  if (raw.length > 253) throw validationError("target", "Target must be at most 253 characters");
  const slash = raw.indexOf("/");
  if (slash >= 0) {
    const address = parseAddress(raw.slice(0, slash));
    const bits = raw.slice(slash + 1);
    const width = address?.kind() === "ipv6" ? 128 : 32;
    if (!address || !/^\d{1,3}$/.test(bits) || Number(bits) > width) {
      throw validationError("target", "Target must be a domain name, an IP address or a CIDR range (e.g. 203.0.113.0/28)");
    }
    return { kind: "cidr", raw, address, prefix: Number(bits) };
  }
  const address = parseAddress(raw);
  if (address) return { kind: "ip", raw, address };
  if (isDomainName(raw)) return { kind: "domain", raw, name: raw.toLowerCase() };
  throw validationError("target", "Target must be a domain name, an IP address or a CIDR range (e.g. 203.0.113.0/28)");
}

/** Addresses a target covers: 1 for a domain or an address, 2^(width - prefix) for a range. */
export function hostCount(t: ParsedTarget): number {
  if (t.kind !== "cidr") return 1;
  const width = t.address.kind() === "ipv6" ? 128 : 32;
  return 2 ** (width - t.prefix);
}

/** A range's prefix in IPv4 terms (PlanLimits.min_cidr_prefix_length: IPv6 counts as prefix - 96). */
export function ipv4EquivalentPrefix(t: Extract<ParsedTarget, { kind: "cidr" }>): number {
  return t.address.kind() === "ipv6" ? t.prefix - 96 : t.prefix;
}

/** Refuses a range larger than the plan allows. */
export function checkRangeSize(t: ParsedTarget, minPrefixLength: number): void {
  if (t.kind !== "cidr") return;
  if (ipv4EquivalentPrefix(t) < minPrefixLength) {
    throw validationError("target", `CIDR range too large for your plan: the largest range allowed is /${minPrefixLength} (IPv6 /${minPrefixLength + 96})`);
  }
}

function unwrap(a: Address): Address {
  return a.kind() === "ipv6" && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address() : a;
}

/** First and last address of a range. */
function bounds(address: Address, prefix: number): [Address, Address] {
  const bytes = address.toByteArray();
  const first = bytes.slice();
  const last = bytes.slice();
  for (let bit = prefix; bit < bytes.length * 8; bit++) {
    const i = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    first[i] = first[i]! & ~mask;
    last[i] = last[i]! | mask;
  }
  return [ipaddr.fromByteArray(first), ipaddr.fromByteArray(last)];
}

const METADATA = ["169.254.169.254", "fd00:ec2::254"].map((a) => ipaddr.parse(a));

/** Why an address may not be scanned (its special-purpose range), or undefined when it is public unicast. */
export function specialRange(address: Address): string | undefined {
  const a = unwrap(address);
  if (METADATA.some((m) => m.kind() === a.kind() && m.toString() === a.toString())) return "cloud metadata";
  const range = a.range();
  return range === "unicast" ? undefined : range;
}

function specialRangesOf(kind: "ipv4" | "ipv6"): [Address, number][] {
  // ipaddr.js keeps its range table on the prototype without typing it.
  const proto = (kind === "ipv4" ? ipaddr.IPv4.prototype : ipaddr.IPv6.prototype) as unknown as { SpecialRanges: unknown };
  const table = proto.SpecialRanges as Record<string, [Address, number] | [Address, number][]>;
  return Object.values(table).flatMap((v) => (Array.isArray(v[0]) ? (v as [Address, number][]) : [v as [Address, number]]));
}

/** The special-purpose range a CIDR range overlaps, if any. */
function specialRangeOfCidr(address: Address, prefix: number): string | undefined {
  const [first, last] = bounds(address, prefix);
  const hit = specialRange(first) ?? specialRange(last);
  if (hit) return hit;
  // A large range can hold a small special one between its bounds (e.g. a documentation /24).
  for (const [net] of specialRangesOf(address.kind())) {
    if (net.kind() === address.kind() && net.match(first, prefix)) return specialRange(net) ?? "special-purpose";
  }
  return undefined;
}

/** A network as ipaddr.js parses a CIDR (the config's allowlist, parsed by the kit's networks.ts). */
export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

function inside(address: Address, prefix: number, networks: Cidr[]): boolean {
  const a = unwrap(address);
  const width = a.kind() === "ipv6" ? 128 : 32;
  const p = a === address ? prefix : prefix - 96; // an IPv4-mapped range
  return networks.some(([net, bits]) => net.kind() === a.kind() && bits <= Math.min(p, width) && a.match(net, bits));
}

/** The system resolver behind a port, so tests decide what names resolve to. */
export interface Resolver {
  /** Every address of a name; rejects (or returns none) when it does not resolve. */
  resolve(name: string): Promise<string[]>;
}

export interface TargetPolicyOptions {
  /** SCAN_ALLOW_PRIVATE_TARGETS: loopback, private, link-local... are allowed (local stack). */
  allowPrivate: boolean;
  /** SCAN_ALLOWED_NETWORKS: when set, every address scanned must be inside one of these. */
  allowedNetworks: Cidr[] | undefined;
  resolver: Resolver;
}

const refused = (target: string, why: string) => validationError("target", `Target ${target} is not allowed: ${why}`);

/**
 * The operator's policy. A domain is checked on every address it resolves to now (the scanner
 * checks again at connect time, against DNS rebinding); a domain that does not resolve is
 * refused whenever there is something to check, since its safety cannot be shown.
 */
export class TargetPolicy {
  constructor(private readonly opts: TargetPolicyOptions) {}

  async check(t: ParsedTarget): Promise<void> {
    const { allowPrivate, allowedNetworks } = this.opts;
    if (allowPrivate && !allowedNetworks) return;
    if (t.kind === "domain") {
      let addresses: Address[];
      try {
        addresses = (await this.opts.resolver.resolve(t.name)).filter((a) => ipaddr.isValid(a)).map((a) => ipaddr.parse(a));
      } catch {
        addresses = [];
      }
      if (addresses.length === 0) throw refused(t.raw, "the domain does not resolve");
      for (const a of addresses) this.checkRange(t.raw, a, a.kind() === "ipv6" ? 128 : 32, true);
      return;
    }
    const prefix = t.kind === "cidr" ? t.prefix : t.address.kind() === "ipv6" ? 128 : 32;
    this.checkRange(t.raw, t.address, prefix, false);
  }

  private checkRange(raw: string, address: Address, prefix: number, resolved: boolean): void {
    const via = resolved ? ` (it resolves to ${address.toString()})` : "";
    if (!this.opts.allowPrivate) {
      const special = specialRangeOfCidr(address, prefix);
      if (special) {
        throw refused(raw, `${special} addresses may not be scanned${via}; only public addresses are`);
      }
    }
    const nets = this.opts.allowedNetworks;
    if (nets && !inside(address, prefix, nets)) {
      throw refused(raw, `outside the networks this installation may scan (SCAN_ALLOWED_NETWORKS)${via}`);
    }
  }
}
