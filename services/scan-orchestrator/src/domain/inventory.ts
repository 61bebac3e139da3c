import ipaddr from "ipaddr.js";
import { parseTarget, type ParsedTarget } from "./target.js";
import type { TargetRecord } from "./targets-types.js";

/*
 * A target's inventory (issue 29): its last scan and the open ports its hosts showed, first and
 * last seen. Kept as summaries updated as events arrive — a scan's end (scan.completed /
 * scan.failed on the scan events topic) and the scanner's port inventory detection of a host
 * (`net-open-ports`) — so a read is two small look-ups, never a pass over scans or findings.
 * Every update only moves forward ($max of times, a scan replaced only by a later one, a first
 * sighting only by an earlier one), so a redelivered or late event changes nothing.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The scanner's port inventory check (services/scanner: engine/fingerprint/checks.ts). */
export const OPEN_PORTS_TEMPLATE = "net-open-ports";
/** Ports a target's inventory keeps at most (a /20 of busy hosts would be larger; the newest are kept). */
export const MAX_PORTS = 1000;
/** Hosts findings is asked to count at most (its GetTargetCounts takes 500). */
export const MAX_HOSTS = 500;

export interface LastScan {
  scan_id: string;
  status: "completed" | "failed";
  ended_at: Date;
}

export interface OpenService {
  port: number;
  /** tcp, or tls when the service spoke TLS. */
  transport: string;
  service: string;
  product: string;
}

/** One host's open ports as one scan found them. */
export interface PortsSeen {
  org_id: string;
  scan_id: string;
  /** As findings name the host: its name, else its address. */
  host: string;
  address: string;
  services: OpenService[];
  seen_at: Date;
}

export interface SeenPortRecord extends OpenService {
  /** `<target id>|<address>|<port>`. */
  _id: string;
  org_id: string;
  target_id: string;
  host: string;
  address: string;
  first_seen_at: Date;
  last_seen_at: Date;
  last_scan_id: string;
}

export interface Inventory {
  last_scan?: LastScan;
  ports: SeenPortRecord[];
  /** Finding targets to count findings of: the target itself, then every host seen. */
  hosts: string[];
}

export interface InventoryStore {
  /** Every target of the organization, whatever its verification (an inventory is what scans saw). */
  targetsOf(orgId: string): Promise<TargetRecord[]>;
  /** Sets the last scan of these targets unless they have a later one. */
  recordScanEnd(orgId: string, targetIds: string[], scan: LastScan): Promise<void>;
  /** Records each open port of the host: first seen the earliest, last seen the latest sighting. */
  recordPorts(targetId: string, seen: PortsSeen): Promise<void>;
  lastScan(orgId: string, targetId: string): Promise<LastScan | undefined>;
  /** The target's ports by address and port (at most MAX_PORTS). */
  ports(orgId: string, targetId: string): Promise<SeenPortRecord[]>;
  /** Forgets a deleted target's inventory. */
  forget(orgId: string, targetId: string): Promise<void>;
}

/**
 * The scanner's inventory evidence, one line per open port: `<port> <tcp|tls> <service> [product
 * [version]]` (services/scanner engine/phases/enumeration.ts `describe`). Lines that do not read
 * so are skipped rather than guessed at.
 */
export function parseOpenServices(evidence: string): OpenService[] {
  const out: OpenService[] = [];
  for (const line of evidence.split("\n")) {
    const [port, transport, service, ...rest] = line.trim().split(/\s+/);
    const n = Number(port);
    if (!Number.isInteger(n) || n < 1 || n > 65_535 || (transport !== "tcp" && transport !== "tls")) continue;
    out.push({ port: n, transport, service: service || "unknown", product: rest.join(" ") });
  }
  return out;
}

const unwrap = (a: Address): Address => (a.kind() === "ipv6" && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address() : a);

function parsedOf(text: string): ParsedTarget | undefined {
  try {
    return parseTarget(text);
  } catch {
    return undefined;
  }
}

/** A name the domain target stands for: itself, or a subdomain when its proof includes subdomains. */
const nameUnder = (name: string, t: TargetRecord) => name === t.target || (t.include_subdomains && name.endsWith(`.${t.target}`));

/** The range of an IP or CIDR target as [network, prefix]. */
function rangeOf(p: ParsedTarget): [Address, number] | undefined {
  if (p.kind === "ip") {
    const a = unwrap(p.address);
    return [a, a.kind() === "ipv6" ? 128 : 32];
  }
  if (p.kind === "cidr") {
    const a = unwrap(p.address);
    return [a, a === p.address ? p.prefix : p.prefix - 96];
  }
  return undefined;
}

/** Two ranges overlap when one contains the other's network (ranges nest or are apart). */
function rangesOverlap([a, abits]: [Address, number], [b, bbits]: [Address, number]): boolean {
  if (a.kind() !== b.kind()) return false;
  return abits <= bbits ? b.match(a, abits) : a.match(b, bbits);
}

/** Whether a scan of `scanTarget` touched what the target stands for (a domain by name, addresses by range). */
export function scanTouches(scanTarget: string, t: TargetRecord): boolean {
  const scan = parsedOf(scanTarget);
  const own = parsedOf(t.target);
  if (!scan || !own) return false;
  if (scan.kind === "domain" || own.kind === "domain") return scan.kind === "domain" && own.kind === "domain" && nameUnder(scan.name, t);
  return rangesOverlap(rangeOf(scan)!, rangeOf(own)!);
}

/** Whether a host a scan reported (its name or address, and its address) belongs to the target. */
export function hostBelongs(host: string, address: string, t: TargetRecord): boolean {
  const own = parsedOf(t.target);
  if (!own) return false;
  if (own.kind === "domain") return nameUnder(host.toLowerCase(), t);
  if (!ipaddr.isValid(address)) return false;
  const a = unwrap(ipaddr.parse(address));
  const [net, bits] = rangeOf(own)!;
  return a.kind() === net.kind() && a.match(net, bits);
}

/** Keeps the inventories: applies scan ends and port sightings, answers a target's inventory. */
export class TargetInventory {
  constructor(private readonly store: InventoryStore) {}

  /** A scan ended: it becomes the last scan of every target of its organization it touched. */
  async scanEnded(orgId: string, scanTarget: string, scan: LastScan): Promise<number> {
    const ids = (await this.store.targetsOf(orgId)).filter((t) => scanTouches(scanTarget, t)).map((t) => t._id);
    if (ids.length > 0) await this.store.recordScanEnd(orgId, ids, scan);
    return ids.length;
  }

  /** A host's open ports: recorded on every target of its organization the host belongs to. */
  async portsSeen(seen: PortsSeen): Promise<number> {
    if (seen.services.length === 0) return 0;
    const targets = (await this.store.targetsOf(seen.org_id)).filter((t) => hostBelongs(seen.host, seen.address, t));
    for (const t of targets) await this.store.recordPorts(t._id, seen);
    return targets.length;
  }

  forget(orgId: string, targetId: string): Promise<void> {
    return this.store.forget(orgId, targetId);
  }

  /** `target` must be the organization's (the caller read it); another organization's id finds nothing. */
  async of(t: TargetRecord): Promise<Inventory> {
    const [last_scan, ports] = await Promise.all([this.store.lastScan(t.org_id, t._id), this.store.ports(t.org_id, t._id)]);
    const hosts = [...new Set([t.target, ...ports.map((p) => p.host)])].slice(0, MAX_HOSTS);
    return { ...(last_scan ? { last_scan } : {}), ports, hosts };
  }
}
