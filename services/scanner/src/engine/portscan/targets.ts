import net from "node:net";
import ipaddr from "ipaddr.js";

/** The orchestrator caps CIDR targets by plan; the engine never expands more than a /20. */
export const MAX_HOSTS = 4096;

/**
 * Addresses of a CIDR target, network and broadcast addresses excluded for IPv4 prefixes
 * shorter than /31 (nothing answers there). Refuses ranges larger than `max`.
 */
export function expandCidr(cidr: string, max = MAX_HOSTS): string[] {
  const [addr, bits] = ipaddr.parseCIDR(cidr);
  const width = addr.kind() === "ipv4" ? 32 : 128;
  const size = 2 ** (width - bits);
  if (size > max) throw new Error(`${cidr} has ${size} addresses, more than the ${max} allowed`);
  if (addr.kind() === "ipv4") {
    const base = ipaddr.IPv4.networkAddressFromCIDR(cidr)
      .toByteArray()
      .reduce((a, b) => a * 256 + b, 0);
    const out: string[] = [];
    const skipEdges = bits < 31;
    for (let i = skipEdges ? 1 : 0; i < (skipEdges ? size - 1 : size); i++) {
      const n = base + i;
      out.push([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join("."));
    }
    return out;
  }
  const first = ipaddr.IPv6.networkAddressFromCIDR(cidr).toByteArray();
  const out: string[] = [];
  for (let i = 0; i < size; i++) {
    const bytes = [...first];
    let carry = i;
    for (let j = 15; j >= 0 && carry > 0; j--) {
      const sum = bytes[j]! + (carry & 255);
      bytes[j] = sum & 255;
      carry = (carry >>> 8) + (sum >> 8);
    }
    out.push(ipaddr.fromByteArray(bytes).toString());
  }
  return out;
}

export type TargetKind = "ip" | "cidr" | "domain";

export function targetKind(target: string): TargetKind {
  if (net.isIP(target)) return "ip";
  if (target.includes("/")) return "cidr";
  return "domain";
}
