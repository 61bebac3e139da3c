import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ipaddr from "ipaddr.js";

/*
 * Cloud provider attribution from the providers' published IP range files, shipped in
 * services/scanner/data/cloud-ranges/ in their original formats (see the README there).
 * Longest-prefix match wins, so a /24 with a region beats a covering /13.
 */

export interface Attribution {
  provider: "aws" | "gcp" | "azure" | "cloudflare";
  region?: string;
  service?: string;
  prefix: string;
}

interface Entry extends Attribution {
  net: ipaddr.IPv4 | ipaddr.IPv6;
  bits: number;
}

export const DEFAULT_RANGES_DIR = fileURLToPath(new URL("../../../data/cloud-ranges/", import.meta.url));

interface AwsFile {
  prefixes?: { ip_prefix: string; region?: string; service?: string }[];
  ipv6_prefixes?: { ipv6_prefix: string; region?: string; service?: string }[];
}
interface GoogleFile {
  prefixes?: { ipv4Prefix?: string; ipv6Prefix?: string; scope?: string; service?: string }[];
}
interface AzureFile {
  values?: { name: string; properties?: { region?: string; systemService?: string; addressPrefixes?: string[] } }[];
}

const readJson = <T>(file: string): T | undefined => (fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as T) : undefined);

export class CloudRanges {
  private constructor(private readonly entries: Entry[]) {}

  get size(): number {
    return this.entries.length;
  }

  static load(dir = DEFAULT_RANGES_DIR): CloudRanges {
    const out: Entry[] = [];
    const add = (provider: Attribution["provider"], prefix: string | undefined, region?: string, service?: string) => {
      if (!prefix) return;
      try {
        const [net, bits] = ipaddr.parseCIDR(prefix);
        out.push({ provider, prefix, net, bits, region: region && region !== "GLOBAL" && region !== "global" ? region : undefined, service });
      } catch {
        /* a malformed line in a provider file is skipped, not fatal */
      }
    };
    const aws = readJson<AwsFile>(path.join(dir, "aws-ip-ranges.json"));
    for (const p of aws?.prefixes ?? []) add("aws", p.ip_prefix, p.region, p.service);
    for (const p of aws?.ipv6_prefixes ?? []) add("aws", p.ipv6_prefix, p.region, p.service);
    for (const p of readJson<GoogleFile>(path.join(dir, "google-cloud.json"))?.prefixes ?? []) add("gcp", p.ipv4Prefix ?? p.ipv6Prefix, p.scope, p.service);
    for (const v of readJson<AzureFile>(path.join(dir, "azure-service-tags.json"))?.values ?? []) {
      for (const p of v.properties?.addressPrefixes ?? []) add("azure", p, v.properties?.region || undefined, v.properties?.systemService || v.name);
    }
    const cf = path.join(dir, "cloudflare-ips-v4.txt");
    if (fs.existsSync(cf)) for (const line of fs.readFileSync(cf, "utf8").split("\n")) add("cloudflare", line.trim() || undefined);
    return new CloudRanges(out);
  }

  lookup(address: string): Attribution | undefined {
    let addr: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      addr = ipaddr.process(address);
    } catch {
      return undefined;
    }
    let best: Entry | undefined;
    for (const e of this.entries) {
      if (e.net.kind() !== addr.kind() || (best && best.bits >= e.bits)) continue;
      if (addr.match(e.net, e.bits)) best = e;
    }
    return best && { provider: best.provider, region: best.region, service: best.service, prefix: best.prefix };
  }
}
