import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { alive } from "../../scripts/lib/stack-state.js";

/*
 * A private network namespace for the scan lab (DESIGN.md §5): a veth pair whose host end is
 * 10.231.N.1/24 and whose namespace end carries 10.231.N.2, .3, ... — inside the local egress
 * allowlist (10.231.0.0/16), outside everything else. Scans of every port are safe there: only
 * the lab's own servers listen in it. Needs root and iproute2.
 */

export interface Namespace {
  name: string;
  /** The host side of the link (where the scanner runs). */
  hostAddress: string;
  /** Addresses inside the namespace, one per lab "host". */
  addresses: string[];
  /** The subnet, e.g. 10.231.37.0/24. */
  subnet: string;
  hostInterface: string;
  nsInterface: string;
  /** Runs a command inside the namespace and returns its stdout. */
  exec(cmd: string, args: string[]): string;
  /** Starts a long-running process inside the namespace. */
  spawn(cmd: string, args: string[], opts?: SpawnOptions): ChildProcess;
  destroy(): void;
}

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ["ignore", "pipe", "pipe"] }).toString();

/** True when this process may create namespaces (root, iproute2 present, kernel allows it). */
export function namespacesAvailable(): boolean {
  if (process.platform !== "linux" || process.getuid?.() !== 0) return false;
  const probe = `vslab-probe-${process.pid}`;
  try {
    run("ip", ["netns", "add", probe]);
    run("ip", ["netns", "del", probe]);
    return true;
  } catch {
    return false;
  }
}

function usedSubnets(): Set<number> {
  const used = new Set<number>();
  try {
    for (const line of run("ip", ["-4", "-o", "addr", "show"]).split("\n")) {
      const m = /inet 10\.231\.(\d+)\./.exec(line);
      if (m) used.add(Number(m[1]));
    }
  } catch {
    /* no addresses to avoid */
  }
  return used;
}

/** Creates the namespace and link; removes any half-made state if a step fails. */
export function createNamespace(opts: { tag?: string; hosts?: number } = {}): Namespace {
  const used = usedSubnets();
  // Spread concurrent runs over the /16 and skip subnets already on a link.
  let n = (process.pid % 200) + 20;
  while (used.has(n)) n = n >= 250 ? 20 : n + 1;
  // The owner's pid in the name lets another run tell a namespace being set up from a stale one.
  const name = `vslab-${opts.tag ?? "lab"}-${n}-p${process.pid}`;
  const hostIf = `vsh${n}`;
  const nsIf = `vsn${n}`;
  const count = opts.hosts ?? 2;
  const addresses = Array.from({ length: count }, (_, i) => `10.231.${n}.${i + 2}`);
  const destroy = () => {
    // Deleting the namespace removes its veth end, which removes the pair.
    try {
      run("ip", ["netns", "del", name]);
    } catch {
      /* already gone */
    }
    try {
      run("ip", ["link", "del", hostIf]);
    } catch {
      /* already gone */
    }
  };
  try {
    destroy();
    run("ip", ["netns", "add", name]);
    run("ip", ["link", "add", hostIf, "type", "veth", "peer", "name", nsIf]);
    run("ip", ["link", "set", nsIf, "netns", name]);
    run("ip", ["addr", "add", `10.231.${n}.1/24`, "dev", hostIf]);
    run("ip", ["link", "set", hostIf, "up"]);
    const inNs = (args: string[]) => run("ip", ["netns", "exec", name, ...args]);
    inNs(["ip", "link", "set", "lo", "up"]);
    for (const a of addresses) inNs(["ip", "addr", "add", `${a}/24`, "dev", nsIf]);
    inNs(["ip", "link", "set", nsIf, "up"]);
    inNs(["ip", "route", "add", "default", "via", `10.231.${n}.1`]);
    // Servers in the namespace may listen on well-known ports without special rights.
    try {
      inNs(["sysctl", "-q", "-w", "net.ipv4.ip_unprivileged_port_start=0"]);
    } catch {
      /* older kernels: we are root anyway */
    }
  } catch (err) {
    destroy();
    throw err;
  }
  return {
    name,
    hostAddress: `10.231.${n}.1`,
    addresses,
    subnet: `10.231.${n}.0/24`,
    hostInterface: hostIf,
    nsInterface: nsIf,
    exec: (cmd, args) => run("ip", ["netns", "exec", name, cmd, ...args]),
    spawn: (cmd, args, spawnOpts) => spawn("ip", ["netns", "exec", name, cmd, ...args], { stdio: ["ignore", "pipe", "pipe"], ...spawnOpts }),
    destroy,
  };
}

/** Removes namespaces and links a crashed earlier run of this lab left behind (ours only: vslab-*). */
export function removeStaleNamespaces(): void {
  let names: string[] = [];
  try {
    names = run("ip", ["netns", "list"])
      .split("\n")
      .map((l) => l.split(" ")[0] ?? "")
      .filter((l) => l.startsWith("vslab-"));
  } catch {
    return;
  }
  for (const name of names) {
    // A namespace whose owner is alive belongs to a running lab (maybe still starting its servers).
    const owner = Number(/-p(\d+)$/.exec(name)?.[1]);
    if (owner && alive(owner)) continue;
    // Without an owner in its name: one still holding a live process is in use.
    let pids = "";
    try {
      pids = run("ip", ["netns", "pids", name]).trim();
    } catch {
      /* gone meanwhile */
    }
    if (pids) continue;
    try {
      run("ip", ["netns", "del", name]);
    } catch {
      /* raced with its owner */
    }
  }
}
