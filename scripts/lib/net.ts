import fs from "node:fs";
import http from "node:http";
import net from "node:net";

/**
 * The kernel's ephemeral range (outgoing connections take their local ports from it), read once;
 * Linux's default when it cannot be read.
 */
function ephemeralRange(): [number, number] {
  try {
    const [lo, hi] = fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (lo && hi) return [lo, hi];
  } catch {
    // not Linux
  }
  return [32768, 60999];
}
const [EPHEMERAL_LOW] = ephemeralRange();
const LOW_PORT = 10_000;
/** Ports this process has handed out (see freePort). */
const handedOut = new Set<number>();

function canBind(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once("error", () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

/**
 * A port nothing listens on, for a server started right after. Chosen below the kernel's
 * ephemeral range: a port the kernel hands out (bind to 0) is also what it hands to outgoing
 * connections, and one of those (a Kafka or MongoDB client of another process) took such a port
 * between our check and the server's bind often enough to fail a test run with EADDRINUSE.
 * Falls back to the kernel's choice when the low range has no free port.
 */
export async function freePort(host = "127.0.0.1"): Promise<number> {
  if (EPHEMERAL_LOW > LOW_PORT + 1000) {
    for (let i = 0; i < 50; i++) {
      const port = LOW_PORT + Math.floor(Math.random() * (EPHEMERAL_LOW - LOW_PORT));
      // Never the same port twice in one process: a port handed out may not be bound yet (a
      // system's ports are all chosen before its processes start; a fault run's gateway once
      // failed to start for 2 minutes on a port in use, most likely handed out twice).
      if (handedOut.has(port)) continue;
      if (await canBind(port, host)) {
        handedOut.add(port);
        return port;
      }
    }
  }
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once("error", reject);
    srv.listen(0, host, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it returns true or the deadline passes. */
export async function waitUntil(
  probe: () => Promise<boolean>,
  opts: { timeoutMs: number; intervalMs?: number; what: string; failIf?: () => string | undefined },
) {
  const deadline = Date.now() + opts.timeoutMs;
  while (Date.now() < deadline) {
    const fatal = opts.failIf?.();
    if (fatal) throw new Error(`${opts.what}: ${fatal}`);
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 250));
  }
  throw new Error(`${opts.what}: not ready after ${opts.timeoutMs} ms`);
}

/**
 * Whether a plain-HTTP GET answers 2xx; rejects when nothing answers within `timeoutMs`.
 * node:http, not fetch: fetch loads undici, about 9 MiB that `npm start`'s supervisor, which
 * polls every process's /readyz with this, would keep for as long as it runs.
 */
export function httpOk(url: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: timeoutMs, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300);
    });
    req.once("timeout", () => req.destroy(new Error(`GET ${url}: no answer within ${timeoutMs} ms`)));
    req.once("error", reject);
  });
}
