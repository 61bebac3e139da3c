import { describe, expect, it } from "vitest";
import {
  hostBelongs,
  MAX_HOSTS,
  parseOpenServices,
  scanTouches,
  TargetInventory,
  type InventoryStore,
  type LastScan,
  type PortsSeen,
  type SeenPortRecord,
} from "./inventory.js";
import type { TargetRecord } from "./targets-types.js";

const target = (text: string, over: Partial<TargetRecord> = {}): TargetRecord => ({
  _id: `target_${text}`,
  org_id: "org_a",
  target: text,
  kind: text.includes("/") ? "cidr" : /^[\d.:]+$/.test(text) ? "ip" : "domain",
  token: "t",
  created_at: new Date(0),
  status: "pending",
  last_error: "",
  include_subdomains: false,
  proven_addresses: [],
  version: 1,
  ...over,
});

/** The same forward-only rules as the Mongo store, in memory. */
class MemoryInventory implements InventoryStore {
  targets: TargetRecord[] = [];
  scans = new Map<string, LastScan>();
  portsById = new Map<string, SeenPortRecord>();
  async targetsOf(orgId: string) {
    return this.targets.filter((t) => t.org_id === orgId);
  }
  async recordScanEnd(_org: string, ids: string[], scan: LastScan) {
    for (const id of ids) {
      const cur = this.scans.get(id);
      if (!cur || cur.ended_at < scan.ended_at) this.scans.set(id, scan);
    }
  }
  async recordPorts(targetId: string, seen: PortsSeen) {
    for (const s of seen.services) {
      const _id = `${targetId}|${seen.address}|${s.port}`;
      const cur = this.portsById.get(_id);
      const first = cur && cur.first_seen_at < seen.seen_at ? cur.first_seen_at : seen.seen_at;
      const later = !cur || cur.last_seen_at <= seen.seen_at;
      const base = later ? { ...s, host: seen.host, last_scan_id: seen.scan_id } : cur!;
      this.portsById.set(_id, {
        ...base,
        _id,
        org_id: seen.org_id,
        target_id: targetId,
        address: seen.address,
        first_seen_at: first,
        last_seen_at: later ? seen.seen_at : cur!.last_seen_at,
      });
    }
  }
  async lastScan(_org: string, id: string) {
    return this.scans.get(id);
  }
  async ports(orgId: string, id: string) {
    return [...this.portsById.values()].filter((p) => p.org_id === orgId && p.target_id === id);
  }
  async forget(_org: string, id: string) {
    this.scans.delete(id);
    for (const k of [...this.portsById.keys()]) if (k.startsWith(`${id}|`)) this.portsById.delete(k);
  }
}

describe("target inventory", () => {
  it("reads the scanner's port inventory lines and skips what does not read so", () => {
    const evidence = ["22 tcp ssh OpenSSH 8.9p1", "443 tls http nginx 1.18.0", "6379 tcp unknown", "", "garbage line", "70000 tcp x"].join("\n");
    expect(parseOpenServices(evidence)).toEqual([
      { port: 22, transport: "tcp", service: "ssh", product: "OpenSSH 8.9p1" },
      { port: 443, transport: "tls", service: "http", product: "nginx 1.18.0" },
      { port: 6379, transport: "tcp", service: "unknown", product: "" },
    ]);
  });

  it("relates scans to targets by name or overlapping range", () => {
    expect(scanTouches("10.0.0.5", target("10.0.0.0/24"))).toBe(true);
    expect(scanTouches("10.0.0.0/28", target("10.0.0.5"))).toBe(true);
    expect(scanTouches("10.0.0.0/16", target("10.0.3.0/24"))).toBe(true);
    expect(scanTouches("10.1.0.5", target("10.0.0.0/24"))).toBe(false);
    expect(scanTouches("shop.example.com", target("shop.example.com"))).toBe(true);
    expect(scanTouches("a.shop.example.com", target("shop.example.com"))).toBe(false);
    expect(scanTouches("a.shop.example.com", target("shop.example.com", { include_subdomains: true }))).toBe(true);
    expect(scanTouches("10.0.0.5", target("shop.example.com"))).toBe(false);
    expect(scanTouches("::ffff:10.0.0.5", target("10.0.0.0/24"))).toBe(true);
  });

  it("puts a host under the targets its name or address belongs to", () => {
    expect(hostBelongs("10.0.0.5", "10.0.0.5", target("10.0.0.0/24"))).toBe(true);
    expect(hostBelongs("db.internal.test", "10.0.0.5", target("10.0.0.5"))).toBe(true);
    expect(hostBelongs("Shop.Example.com", "203.0.113.9", target("shop.example.com"))).toBe(true);
    expect(hostBelongs("10.0.1.5", "10.0.1.5", target("10.0.0.0/24"))).toBe(false);
  });

  it("keeps the last scan and each port's first and last sighting whatever order events come in", async () => {
    const store = new MemoryInventory();
    const range = target("10.0.0.0/24");
    const other = target("10.9.0.0/24");
    store.targets = [range, other, target("10.0.0.7", { org_id: "org_b", _id: "target_b" })];
    const inv = new TargetInventory(store);
    const t = (h: number) => new Date(Date.UTC(2026, 10, 1, h));

    expect(await inv.scanEnded("org_a", "10.0.0.5", { scan_id: "scan_2", status: "completed", ended_at: t(2) })).toBe(1);
    // A redelivered older end changes nothing; a later failed scan is the last scan.
    await inv.scanEnded("org_a", "10.0.0.0/28", { scan_id: "scan_1", status: "completed", ended_at: t(1) });
    expect((await inv.of(range)).last_scan?.scan_id).toBe("scan_2");
    await inv.scanEnded("org_a", "10.0.0.0/28", { scan_id: "scan_3", status: "failed", ended_at: t(3) });
    expect((await inv.of(range)).last_scan).toEqual({ scan_id: "scan_3", status: "failed", ended_at: t(3) });
    expect((await inv.of(other)).last_scan).toBeUndefined();

    const seen = (hour: number, scan: string, product: string): PortsSeen => ({
      org_id: "org_a",
      scan_id: scan,
      host: "10.0.0.7",
      address: "10.0.0.7",
      services: [{ port: 22, transport: "tcp", service: "ssh", product }],
      seen_at: t(hour),
    });
    expect(await inv.portsSeen(seen(5, "scan_5", "OpenSSH 9.6"))).toBe(1); // org_b's 10.0.0.7 is not org_a's
    await inv.portsSeen(seen(4, "scan_4", "OpenSSH 8.9")); // late and older: only the first sighting moves
    await inv.portsSeen(seen(5, "scan_5", "OpenSSH 9.6")); // redelivered
    const { ports, hosts } = await inv.of(range);
    expect(ports).toHaveLength(1);
    expect(ports[0]).toMatchObject({ port: 22, service: "ssh", product: "OpenSSH 9.6", first_seen_at: t(4), last_seen_at: t(5), last_scan_id: "scan_5" });
    expect(hosts).toEqual(["10.0.0.0/24", "10.0.0.7"]);
    expect(await store.ports("org_b", "target_b")).toEqual([]);

    // A range of many busy hosts: findings is asked about at most MAX_HOSTS of them.
    for (let i = 1; i <= 254; i++)
      for (const port of [22, 80])
        await inv.portsSeen({
          ...seen(6, "scan_6", ""),
          host: `10.0.0.${i}`,
          address: `10.0.0.${i}`,
          services: [{ port, transport: "tcp", service: "x", product: "" }],
        });
    expect((await inv.of(range)).hosts).toHaveLength(255);
    for (let i = 0; i < 300; i++)
      await store.recordPorts(range._id, {
        ...seen(7, "scan_7", ""),
        host: `h${i}.lab.test`,
        address: "10.0.0.1",
        services: [{ port: 1000 + i, transport: "tcp", service: "x", product: "" }],
      });
    expect((await inv.of(range)).hosts).toHaveLength(MAX_HOSTS);

    await inv.forget("org_a", range._id);
    expect(await inv.of(range)).toEqual({ ports: [], hosts: ["10.0.0.0/24"] });
  });
});
