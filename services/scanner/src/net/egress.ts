import dns from "node:dns/promises";
import net from "node:net";
import { parseNetworkList, type Network } from "@vulnscan/kit/networks";
import ipaddr from "ipaddr.js";

export class EgressDenied extends Error {
  override name = "EgressDenied";
}

/** Name → addresses. The default is the system resolver; tests and the lab pass a fixed table. */
export type Lookup = (host: string) => Promise<string[]>;

const systemLookup: Lookup = async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The scanner's egress allowlist (DESIGN.md §5). Every connection the scanner makes goes
 * through `check` with the address it is about to connect to — the resolved address, not the
 * name — so neither a bug nor DNS rebinding can send traffic outside SCAN_ALLOWED_NETWORKS.
 * An unset allowlist allows everything (production decides by policy at scan creation).
 */
export class EgressGuard {
  private readonly ranges?: Network[];
  private readonly lookup: Lookup;

  constructor(allowed: string | undefined, opts: { lookup?: Lookup } = {}) {
    this.lookup = opts.lookup ?? systemLookup;
    this.ranges = parseNetworkList(allowed);
  }

  get restricted(): boolean {
    return this.ranges !== undefined;
  }

  allows(address: string): boolean {
    if (!this.ranges) return true;
    let addr = ipaddr.parse(address);
    if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
    return this.ranges.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));
  }

  check(address: string): void {
    if (!this.allows(address)) throw new EgressDenied(`connection to ${address} is outside SCAN_ALLOWED_NETWORKS`);
  }

  /** Resolves a host name (or passes an IP through) and returns only allowed addresses. */
  async resolve(host: string): Promise<string[]> {
    const addresses = net.isIP(host) ? [host] : await this.lookup(host);
    return addresses.filter((a) => this.allows(a));
  }
}
