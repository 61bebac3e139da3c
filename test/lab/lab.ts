import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeCerts } from "./certs.js";
import { debianPackages, startDebianHost } from "./debian-host.js";
import { createNamespace, namespacesAvailable, removeStaleNamespaces, type Namespace } from "./netns.js";
import type { ServerPlan, ServiceKey } from "./servers.js";

/*
 * The scan lab (DESIGN.md §5): servers with planted weaknesses on a "weak" host, and a
 * "hardened" host with none. Inside a network namespace of its own when this machine allows
 * it (root + iproute2): then the hosts are 10.231.N.2 and .3 on well-known ports, and scanning
 * every port is safe. Otherwise everything listens on 127.0.0.1 on ports the kernel picks, and
 * callers must scan only the explicit ports listed here (`mode` says which, `note` says why).
 */

export interface Endpoint {
  host: string;
  port: number;
}

export type TargetKey = Exclude<ServiceKey, "hardenedHttps" | "hardenedHttp" | "hardenedSsh" | "hardenedPostgres"> | "redis" | "memcached";

export interface Lab {
  mode: "netns" | "loopback";
  note: string;
  namespace?: Namespace;
  /** Egress allowlist that covers the lab and nothing else. */
  allowedNetworks: string;
  /** Name → address table for EgressGuard({ lookup }): the lab's hosts have names but no DNS. */
  lookup: (name: string) => Promise<string[]>;
  weak: { address: string; hostname: string; ports: number[] };
  targets: Record<TargetKey, Endpoint>;
  hardened: { address: string; hostname: string; ports: number[]; https: Endpoint; http: Endpoint; ssh: Endpoint; postgres: Endpoint; caCert: string };
  /** Debian's own OpenSSH server and nginx, fully updated, HTTP/2 off (debian-host.ts); `packages` are dpkg's versions. */
  patched: { address: string; hostname: string; ports: number[]; ssh: Endpoint; http: Endpoint; https: Endpoint; packages: { openssh: string; nginx: string } };
  /** The third-party servers from Debian packages that run in the lab. */
  realServers: string[];
  /**
   * Changes the lab while it runs (retests, scan comparisons): SIGSTOP/SIGCONT a real server
   * (`pause`: the port still completes TCP handshakes from the kernel backlog but the service says
   * nothing, like a hung host), or stop it for good (`kill`: the port refuses).
   */
  control(server: "redis" | "memcached", action: "pause" | "resume" | "kill"): Promise<void>;
  stop(): Promise<void>;
}

export interface LabOptions {
  /** Force loopback mode even where namespaces work (default: VSLAB_LOOPBACK=1 in the environment). */
  loopback?: boolean;
  /** Start redis-server and memcached (Debian packages) too; default true. */
  realServers?: boolean;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const WEAK_NAME = "weak.vslab.test";
const HARDENED_NAME = "hardened.vslab.test";
const PATCHED_NAME = "patched.vslab.test";

const NS_PORTS: Record<ServiceKey, number> = {
  http: 80,
  tlsWeak: 443,
  tlsSoon: 8443,
  tlsFuture: 9443,
  tlsChain: 8444,
  ssh: 22,
  sshPassword: 2222,
  ftp: 21,
  smtp: 25,
  telnet: 23,
  mysql: 3306,
  redisLike: 6380,
  mongoLike: 27017,
  elasticsearch: 9200,
  hardenedHttps: 443,
  hardenedHttp: 80,
  hardenedSsh: 22,
  postgres: 5432,
  hardenedPostgres: 5432,
};

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen({ host, port: 0 }, () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPort(host: string, port: number, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host, port });
      s.once("connect", () => (s.destroy(), resolve(true)));
      s.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`lab server ${host}:${port} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function readFirstLine(child: ChildProcess, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`lab servers not ready in ${ms} ms: ${err}`)), ms);
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout?.on("data", (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf("\n");
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(buf.slice(0, nl));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`lab servers exited with ${code}: ${err}`));
    });
  });
}

export async function startLab(opts: LabOptions = {}): Promise<Lab> {
  execFileSync("bash", [path.join(HERE, "setup.sh")], { stdio: "inherit" });
  const forced = opts.loopback ?? process.env.VSLAB_LOOPBACK === "1";
  const useNs = !forced && namespacesAvailable();
  if (useNs) removeStaleNamespaces();
  const ns = useNs ? createNamespace({ tag: "lab", hosts: 3 }) : undefined;
  const children: ChildProcess[] = [];
  const certs = makeCerts({ hardened: HARDENED_NAME, weak: WEAK_NAME });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener("exit", stopSync);
    for (const c of children) {
      if (c.exitCode !== null || c.signalCode !== null) continue;
      c.kill("SIGCONT"); // a paused server would not act on SIGTERM
      c.kill("SIGTERM");
    }
    await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once("exit", r)) : undefined)));
    ns?.destroy();
    fs.rmSync(certs.dir, { recursive: true, force: true });
  };
  // If the test process dies without calling stop(), still leave nothing behind.
  const stopSync = () => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    ns?.destroy();
    fs.rmSync(certs.dir, { recursive: true, force: true });
  };
  process.once("exit", stopSync);

  try {
    const weak = ns ? ns.addresses[0]! : "127.0.0.1";
    const hardened = ns ? ns.addresses[1]! : "127.0.0.1";
    const patched = ns ? ns.addresses[2]! : "127.0.0.1";
    const ports = ns ? NS_PORTS : (Object.fromEntries(Object.keys(NS_PORTS).map((k) => [k, 0])) as Record<ServiceKey, number>);
    const plan: ServerPlan = {
      weak,
      hardened,
      hardenedName: HARDENED_NAME,
      ports,
      certs: {
        expired: certs.expiredSelfSigned,
        soon: certs.expiringSoon,
        future: certs.notYetValid,
        hardened: certs.hardened,
        incompleteChain: certs.incompleteChain,
      },
    };
    const start = (cmd: string, args: string[]) => {
      const child = ns ? ns.spawn(cmd, args, { stdio: ["pipe", "pipe", "pipe"], cwd: ROOT }) : spawn(cmd, args, { stdio: ["pipe", "pipe", "pipe"], cwd: ROOT });
      children.push(child);
      return child;
    };
    const servers = start(process.execPath, ["--import", "tsx", path.join(HERE, "servers.ts"), JSON.stringify(plan)]);
    const bound = JSON.parse(await readFirstLine(servers, 30_000)) as Record<ServiceKey, number>;

    const patchedPorts = ns
      ? { ssh: 22, http: 80, https: 443 }
      : { ssh: await freePort(patched), http: await freePort(patched), https: await freePort(patched) };
    startDebianHost(start, patched, patchedPorts, certs.hardened, path.join(certs.dir, "debian-host"));
    for (const p of Object.values(patchedPorts)) await waitForPort(patched, p);

    const realServers: string[] = [];
    let redisPort = 0;
    let memcachedPort = 0;
    const named = new Map<"redis" | "memcached", ChildProcess>();
    if (opts.realServers !== false) {
      redisPort = ns ? 6379 : await freePort(weak);
      const redisChild = start("redis-server", [
        "--bind",
        weak,
        "--port",
        String(redisPort),
        "--protected-mode",
        "no",
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--logfile",
        "",
      ]);
      memcachedPort = ns ? 11211 : await freePort(weak);
      named.set("redis", redisChild);
      named.set("memcached", start("memcached", ["-l", weak, "-p", String(memcachedPort), "-U", "0", "-u", "nobody", "-m", "16"]));
      const { stdout } = { stdout: execFileSync("redis-server", ["--version"]).toString() };
      realServers.push(`redis-server (${/v=([\d.]+)/.exec(stdout)?.[1] ?? "?"})`, "memcached");
      // Only checked from the host side: the probe itself must cross the namespace boundary.
      await waitForPort(weak, redisPort);
      await waitForPort(weak, memcachedPort);
    }

    const ep = (host: string, port: number): Endpoint => ({ host, port });
    const targets = {
      http: ep(weak, bound.http),
      tlsWeak: ep(weak, bound.tlsWeak),
      tlsSoon: ep(weak, bound.tlsSoon),
      tlsFuture: ep(weak, bound.tlsFuture),
      tlsChain: ep(weak, bound.tlsChain),
      ssh: ep(weak, bound.ssh),
      sshPassword: ep(weak, bound.sshPassword),
      ftp: ep(weak, bound.ftp),
      smtp: ep(weak, bound.smtp),
      telnet: ep(weak, bound.telnet),
      mysql: ep(weak, bound.mysql),
      redisLike: ep(weak, bound.redisLike),
      mongoLike: ep(weak, bound.mongoLike),
      elasticsearch: ep(weak, bound.elasticsearch),
      postgres: ep(weak, bound.postgres),
      redis: ep(weak, redisPort),
      memcached: ep(weak, memcachedPort),
    } satisfies Record<TargetKey, Endpoint>;
    const weakPorts = Object.values(targets)
      .map((t) => t.port)
      .filter((p) => p > 0);
    const names: Record<string, string> = { [WEAK_NAME]: weak, [HARDENED_NAME]: hardened, [PATCHED_NAME]: patched };
    return {
      mode: ns ? "netns" : "loopback",
      note: ns
        ? `scan lab in network namespace ${ns.name} (${ns.subnet}); weak host ${weak}, hardened host ${hardened}, patched Debian host ${patched}`
        : `scan lab on 127.0.0.1 (${forced ? "loopback mode requested" : "network namespaces unavailable here"}): scans use the explicit lab ports only; full-range and firewall tests are skipped`,
      namespace: ns,
      allowedNetworks: ns ? ns.subnet : "127.0.0.1/32",
      lookup: async (name) => (names[name] ? [names[name]] : []),
      weak: { address: weak, hostname: WEAK_NAME, ports: weakPorts.sort((a, b) => a - b) },
      targets,
      hardened: {
        address: hardened,
        hostname: HARDENED_NAME,
        ports: [bound.hardenedSsh, bound.hardenedHttp, bound.hardenedHttps, bound.hardenedPostgres].sort((a, b) => a - b),
        https: ep(hardened, bound.hardenedHttps),
        http: ep(hardened, bound.hardenedHttp),
        ssh: ep(hardened, bound.hardenedSsh),
        postgres: ep(hardened, bound.hardenedPostgres),
        caCert: certs.ca.cert,
      },
      patched: {
        address: patched,
        hostname: PATCHED_NAME,
        ports: Object.values(patchedPorts).sort((a, b) => a - b),
        ssh: ep(patched, patchedPorts.ssh),
        http: ep(patched, patchedPorts.http),
        https: ep(patched, patchedPorts.https),
        packages: debianPackages(),
      },
      realServers,
      control: async (server, action) => {
        const child = named.get(server);
        if (!child || child.exitCode !== null || child.signalCode !== null) throw new Error(`lab server ${server} is not running`);
        if (action === "kill") {
          const exited = new Promise((r) => child.once("exit", r));
          child.kill("SIGKILL");
          await exited;
        } else child.kill(action === "pause" ? "SIGSTOP" : "SIGCONT");
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
