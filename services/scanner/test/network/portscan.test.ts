import { execFileSync } from "node:child_process";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLab, type Lab } from "../../../../test/lab/lab.js";
import { EgressDenied, EgressGuard } from "../../src/net/egress.js";
import { ConnectProber } from "../../src/net/tcp-probe.js";
import { scanPorts } from "../../src/engine/portscan/scanner.js";
import { TOP_TCP_PORTS, topTcpPorts } from "../../src/engine/portscan/top-ports.js";

/*
 * The connect scanner against the scan lab: exact port lists, a full 1-65535 sweep (only in
 * the lab namespace), firewall-dropped ports, cancellation, egress refusals, and a real TCP
 * self-connect on loopback (provoked with a fixed source port on one free port of ours).
 */

let lab: Lab;
let guard: EgressGuard;

beforeAll(async () => {
  lab = await startLab({ realServers: true });
  console.log(`[lab] ${lab.note}`);
  guard = new EgressGuard(lab.allowedNetworks);
});

afterAll(async () => {
  await lab?.stop();
});

const iptablesInLab = (args: string[]) => lab.namespace!.exec("iptables", args);

describe("port scanner", () => {
  it("scans exactly the requested ports and finds exactly the open ones among them", async () => {
    const closed = [1, 7, 99, 1234, 40000];
    const asked = [...lab.weak.ports.slice(0, 6), ...closed];
    const opened: number[] = [];
    const res = await scanPorts([lab.weak.address], asked, { guard, onOpen: (_h, p) => opened.push(p) });
    expect(res.probes).toBe(asked.length);
    expect(res.retries).toBe(0);
    const host = res.hosts[0]!;
    expect(host.open).toEqual(lab.weak.ports.slice(0, 6).sort((a, b) => a - b));
    expect(host.closed).toBe(closed.length);
    expect(host.filtered).toEqual([]);
    expect(opened.sort((a, b) => a - b)).toEqual(host.open);
    expect(host.smoothedRttMs).toBeGreaterThan(0);
  });

  it("sweeps all 65,535 ports of the lab host and finds exactly the lab's listeners", async (ctx) => {
    if (lab.mode !== "netns") return ctx.skip();
    const all = Array.from({ length: 65535 }, (_, i) => i + 1);
    const res = await scanPorts([lab.weak.address], all, { guard });
    expect(res.probes).toBeGreaterThanOrEqual(65535);
    expect(res.hosts[0]!.open).toEqual(lab.weak.ports);
    expect(res.hosts[0]!.closed).toBe(65535 - lab.weak.ports.length);
    console.log(`[portscan] 65,535 ports in ${Math.round(res.durationMs)} ms (${res.retries} retries)`);
  });

  it("reports firewall-dropped ports as filtered after retrying them, and open ports stay open", async (ctx) => {
    if (lab.mode !== "netns") return ctx.skip();
    const dropped = lab.targets.ssh.port;
    iptablesInLab(["-A", "INPUT", "-p", "tcp", "--dport", String(dropped), "-j", "DROP"]);
    try {
      const asked = [dropped, lab.targets.http.port, 4444];
      const res = await scanPorts([lab.weak.address], asked, { guard, minTimeoutMs: 100, maxTimeoutMs: 400, retries: 2 });
      expect(res.hosts[0]!.filtered).toEqual([dropped]);
      expect(res.hosts[0]!.open).toEqual([lab.targets.http.port]);
      expect(res.retries).toBe(2);
    } finally {
      iptablesInLab(["-D", "INPUT", "-p", "tcp", "--dport", String(dropped), "-j", "DROP"]);
    }
  });

  it("stops within a second of cancellation and keeps what it found", async (ctx) => {
    if (lab.mode !== "netns") return ctx.skip();
    // Every port silent except the lab's HTTP port: the scan would take many seconds.
    iptablesInLab(["-I", "INPUT", "-p", "tcp", "!", "--dport", String(lab.targets.http.port), "-j", "DROP"]);
    try {
      const controller = new AbortController();
      const ports = [lab.targets.http.port, ...Array.from({ length: 20000 }, (_, i) => 30000 + i)];
      const started = performance.now();
      const pending = scanPorts([lab.weak.address], ports, {
        guard,
        signal: controller.signal,
        initialConcurrency: 64,
        maxConcurrency: 64,
        minTimeoutMs: 2000,
      });
      setTimeout(() => controller.abort(), 500);
      const res = await pending;
      const elapsed = performance.now() - started;
      expect(res.aborted).toBe(true);
      expect(elapsed).toBeLessThan(1500);
      expect(res.hosts[0]!.open).toEqual([lab.targets.http.port]);
    } finally {
      iptablesInLab(["-D", "INPUT", "-p", "tcp", "!", "--dport", String(lab.targets.http.port), "-j", "DROP"]);
    }
  });

  it("refuses to probe addresses outside the egress allowlist", async () => {
    const narrow = new EgressGuard(`${lab.weak.address}/32`);
    await expect(scanPorts(["192.0.2.1"], [80], { guard: narrow })).rejects.toBeInstanceOf(EgressDenied);
    const prober = new ConnectProber(narrow);
    expect(() => prober.probe("198.51.100.7", 80, 100, () => undefined)).toThrow(EgressDenied);
    prober.close();
  });

  it("rejects a TCP self-connect instead of reporting the port open", async () => {
    // A free loopback port of our own; connecting from it to itself makes the kernel join the
    // socket to itself (simultaneous open) — the false "open" a naive connect scan would report.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen({ host: "127.0.0.1", port: 0 }, () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const loop = new EgressGuard("127.0.0.1/32");
    const res = await scanPorts(["127.0.0.1"], [port], { guard: loop, sourcePort: port });
    expect(res.hosts[0]!.selfConnects).toBe(1);
    expect(res.hosts[0]!.open).toEqual([]);
    expect(res.hosts[0]!.closed).toBe(1);
  });

  it("ships nmap's top 1,000 TCP ports, most common first", () => {
    expect(TOP_TCP_PORTS).toHaveLength(1000);
    expect(new Set(TOP_TCP_PORTS).size).toBe(1000);
    expect(topTcpPorts(10)).toEqual([80, 23, 443, 21, 22, 25, 3389, 110, 445, 139]);
    if (lab.mode === "netns") {
      const nmapSet = /\sservices="([^"]+)"/.exec(
        execFileSync("nmap", ["-sT", "--top-ports", "1000", "-oX", "-"], { stdio: ["ignore", "pipe", "ignore"] }).toString(),
      );
      if (nmapSet) {
        const expanded = nmapSet[1]!.split(",").flatMap((r) => {
          const [a, b] = r.split("-").map(Number);
          return b === undefined ? [a!] : Array.from({ length: b - a! + 1 }, (_, i) => a! + i);
        });
        expect([...TOP_TCP_PORTS].sort((a, b) => a - b)).toEqual(expanded);
      }
    }
  });
});
