import ipaddr from "ipaddr.js";
import type { Cidr, ParsedTarget } from "./target.js";
import type { TargetRecord } from "./targets-types.js";

/*
 * Which addresses and names the verified targets of an organization cover (issue 29). Scanning
 * sends traffic to addresses, so every address a scan would touch must be proved: by an IP or
 * CIDR target, by a domain whose HTTP file was served from it, or by the operator's
 * SCAN_VERIFIED_NETWORKS. A name is scanned under its own name too (HTTP Host, TLS SNI), so it
 * must also be covered by a verified domain — unless every address it resolves to is in the
 * operator's networks (the lab). A TXT record proves the name only: pointing a name one owns at
 * someone else's address must not make that address scannable.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A range larger than this is never enumerated (the plans cap ranges at /20: 4096 addresses). */
export const MAX_ENUMERATED = 65_536;

const unwrap = (a: Address): Address => (a.kind() === "ipv6" && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address() : a);

const inNetworks = (a: Address, nets: Cidr[] | undefined) => !!nets?.some(([net, bits]) => net.kind() === a.kind() && a.match(net, bits));

/** Every address of a range, first to last (bounded by MAX_ENUMERATED). */
export function addressesOf(address: Address, prefix: number): Address[] {
  const bytes = address.toByteArray();
  const width = bytes.length * 8;
  if (2 ** (width - prefix) > MAX_ENUMERATED) throw new RangeError(`range /${prefix} is too large to enumerate`);
  const first = bytes.slice();
  for (let bit = prefix; bit < width; bit++) first[bit >> 3] = first[bit >> 3]! & ~(0x80 >> (bit & 7));
  const out: Address[] = [];
  const n = 2 ** (width - prefix);
  for (let i = 0; i < n; i++) {
    const b = first.slice();
    let carry = i;
    for (let j = b.length - 1; j >= 0 && carry > 0; j--) {
      const sum = b[j]! + (carry & 0xff);
      b[j] = sum & 0xff;
      carry = (carry >>> 8) + (sum >> 8);
    }
    out.push(ipaddr.fromByteArray(b));
  }
  return out;
}

/** A whole range inside one of the networks (no enumeration needed). */
export function rangeInside(address: Address, prefix: number, nets: Cidr[] | undefined): boolean {
  const a = unwrap(address);
  const p = a === address ? prefix : prefix - 96;
  return !!nets?.some(([net, bits]) => net.kind() === a.kind() && bits <= p && a.match(net, bits));
}

/** The address text a record keeps: canonical (ipaddr's), IPv4-mapped IPv6 as IPv4. */
export const canonical = (a: string): string => unwrap(ipaddr.parse(a)).toString();

/** The verified domain targets that cover a name: itself, or a parent whose proof includes subdomains. */
export function nameCoveredBy(name: string, targets: TargetRecord[]): TargetRecord | undefined {
  const n = name.toLowerCase();
  return targets.find((t) => t.kind === "domain" && (t.target === n || (t.include_subdomains && n.endsWith(`.${t.target}`))));
}

/**
 * What proves addresses, parsed once per coverage (a /20 asks 4096 times): IP targets and
 * addresses proved with a domain by their canonical text, ranges as parsed networks.
 */
function addressIndex(targets: TargetRecord[]) {
  const byText = new Map<string, TargetRecord>();
  const ranges: { net: Address; bits: number; t: TargetRecord }[] = [];
  for (const t of targets) {
    if (t.kind === "ip") byText.set(canonical(t.target), t);
    else if (t.kind === "cidr") {
      const [net, bits] = ipaddr.parseCIDR(t.target);
      const n = unwrap(net);
      ranges.push({ net: n, bits: n === net ? bits : bits - 96, t });
    } else for (const a of t.proven_addresses) if (!byText.has(a)) byText.set(a, t);
  }
  return (address: Address): TargetRecord | undefined => {
    const a = unwrap(address);
    return byText.get(a.toString()) ?? ranges.find((r) => r.net.kind() === a.kind() && a.match(r.net, r.bits))?.t;
  };
}

export interface Coverage {
  /** Addresses no target (and no operator network) covers, in order. */
  uncovered: string[];
  /** For a name: false when no verified domain covers it (and it is not all in the operator's networks). */
  nameCovered: boolean;
  /** The targets that made it pass (re-checked before a scheduled scan when stale). */
  usedTargets: TargetRecord[];
}

/**
 * Coverage of one scan target. `addresses` are what a name resolves to now (ignored for IPs
 * and ranges, which are their own addresses).
 */
export function coverageOf(target: ParsedTarget, addresses: string[], exempt: Cidr[] | undefined, targets: TargetRecord[]): Coverage {
  const used = new Set<TargetRecord>();
  let all: Address[];
  if (target.kind === "domain") all = addresses.filter((a) => ipaddr.isValid(a)).map((a) => unwrap(ipaddr.parse(a)));
  else if (target.kind === "ip") all = [unwrap(target.address)];
  else {
    if (rangeInside(target.address, target.prefix, exempt)) return { uncovered: [], nameCovered: true, usedTargets: [] };
    all = addressesOf(target.address, target.prefix).map(unwrap);
  }
  const uncovered: string[] = [];
  const coveredBy = addressIndex(targets);
  for (const a of all) {
    if (inNetworks(a, exempt)) continue;
    const by = coveredBy(a);
    if (by) used.add(by);
    else uncovered.push(a.toString());
  }
  let nameCovered = true;
  if (target.kind === "domain" && !all.every((a) => inNetworks(a, exempt))) {
    const by = nameCoveredBy(target.name, targets);
    nameCovered = !!by;
    if (by) used.add(by);
  }
  return { uncovered, nameCovered, usedTargets: [...used] };
}

/** Addresses as a short list for a message: the first `max`, then how many more. */
export function listAddresses(addresses: string[], max = 32): string {
  const shown = addresses.slice(0, max).join(", ");
  return addresses.length > max ? `${shown} and ${addresses.length - max} more` : shown;
}
