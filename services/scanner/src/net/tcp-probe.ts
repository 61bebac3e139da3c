import net from "node:net";
import { constants as osConstants } from "node:os";
import { performance } from "node:perf_hooks";
import type { EgressGuard } from "./egress.js";

/*
 * Connect-only TCP probes for the port scanner: open a connection, learn whether the port
 * answered (SYN-ACK → open, RST → closed, nothing → timeout), close it. No stream, no data.
 *
 * Why not net.connect: a net.Socket builds a full Duplex stream per connection. Measured here,
 * 65,535 connects to closed ports take ~3.5 s through net.connect and ~1.8 s through libuv's
 * TCP handle directly (what net.Socket wraps), which is what a fast scanner needs. The handle
 * comes from process.binding("tcp_wrap"), an internal API: when a Node release drops it, the
 * prober falls back to net.connect (correct, just slower) — see `fastPathAvailable`.
 *
 * On Linux the prober also reuses sockets: a socket whose connect was refused may connect
 * again (the kernel's first reconnect attempt reports ECONNABORTED and resets the socket; the
 * second proceeds). That saves socket(), close() and two epoll_ctl calls per closed port —
 * most ports of most hosts — and roughly halves the system time of a full-range scan.
 */

export type ProbeOutcome = "open" | "refused" | "timeout" | "unreachable" | "resource" | "self-connect" | "aborted" | "error";

export interface ProbeResult {
  outcome: ProbeOutcome;
  /** Time to the answer (open/refused), for RTT estimation. */
  rttMs: number;
  /** errno name for errors, e.g. ECONNREFUSED, EMFILE. */
  code?: string;
}

type Done = (r: ProbeResult) => void;

interface TcpHandle {
  connect(req: unknown, address: string, port: number): number;
  connect6(req: unknown, address: string, port: number): number;
  bind(address: string, port: number): number;
  bind6(address: string, port: number, flags: number): number;
  getsockname(out: Record<string, unknown>): number;
  getpeername(out: Record<string, unknown>): number;
  close(cb?: () => void): void;
  /** Close with RST (what socket.resetAndDestroy uses); absent on old releases. */
  reset?(cb?: () => void): number;
}
interface TcpBinding {
  TCP: new (type: number) => TcpHandle;
  TCPConnectWrap: new () => { oncomplete?: (status: number) => void };
  constants: { SOCKET: number };
}

const binding: TcpBinding | undefined = (() => {
  try {
    const b = (process as unknown as { binding(name: string): TcpBinding }).binding("tcp_wrap");
    return typeof b?.TCP === "function" && typeof b.TCPConnectWrap === "function" ? b : undefined;
  } catch {
    return undefined;
  }
})();

export const fastPathAvailable = binding !== undefined;

const ECONNREFUSED = -osConstants.errno.ECONNREFUSED;
const ECONNABORTED = -osConstants.errno.ECONNABORTED;
const REUSE = process.platform === "linux";
const MAX_IDLE = 4096;

const errnoName = new Map<number, string>(Object.entries(osConstants.errno).map(([name, n]) => [-n, name]));
const RESOURCE = new Set(["EMFILE", "ENFILE", "ENOBUFS", "EADDRNOTAVAIL", "EAGAIN", "ENOMEM"]);
const UNREACHABLE = new Set(["EHOSTUNREACH", "ENETUNREACH", "EACCES", "EPERM", "EHOSTDOWN", "ENETDOWN"]);

function classify(code: string): ProbeOutcome {
  if (code === "ECONNREFUSED" || code === "ECONNRESET") return "refused";
  if (code === "ETIMEDOUT") return "timeout";
  if (RESOURCE.has(code)) return "resource";
  if (UNREACHABLE.has(code)) return "unreachable";
  return "error";
}

interface Pending {
  deadline: number;
  cancel(outcome: ProbeOutcome): void;
}

/**
 * One in-flight probe of the fast path. A class rather than closures: a full-range scan makes
 * 65,535 of these, and per-probe closures showed up as garbage-collection time in profiles.
 */
class FastProbe implements Pending {
  readonly started = performance.now();
  readonly deadline: number;
  private finished = false;

  constructor(
    private readonly owner: ConnectProber,
    readonly handle: TcpHandle,
    private readonly host: string,
    private readonly port: number,
    timeoutMs: number,
    private readonly done: Done,
    private readonly reusable: boolean,
  ) {
    this.deadline = this.started + timeoutMs;
  }

  connect(b: TcpBinding): number {
    const req = new b.TCPConnectWrap() as { oncomplete?: (status: number) => void; probe?: FastProbe };
    req.probe = this;
    req.oncomplete = onConnectComplete;
    return net.isIPv6(this.host) ? this.handle.connect6(req, this.host, this.port) : this.handle.connect(req, this.host, this.port);
  }

  complete(status: number): void {
    const rttMs = performance.now() - this.started;
    if (status === 0) {
      const local: Record<string, unknown> = {};
      const peer: Record<string, unknown> = {};
      this.handle.getsockname(local);
      this.handle.getpeername(peer);
      // A connect to a free ephemeral port on loopback can connect the socket to itself.
      const self = local.port === peer.port && local.address === peer.address;
      this.finish({ outcome: self ? "self-connect" : "open", rttMs });
      return;
    }
    const code = errnoName.get(status) ?? `E${-status}`;
    this.finish({ outcome: code === "ECANCELED" ? "aborted" : classify(code), rttMs, code }, status);
  }

  cancel(outcome: ProbeOutcome): void {
    this.finish({ outcome, rttMs: performance.now() - this.started, code: outcome === "timeout" ? "ETIMEDOUT" : undefined });
  }

  finish(r: ProbeResult, status?: number): void {
    if (this.finished) return;
    this.finished = true;
    this.owner.release(this, this.handle, r.outcome, status, this.reusable);
    this.done(r);
  }
}

/** libuv calls a connect request's oncomplete with the request as `this`. */
function onConnectComplete(this: { probe?: FastProbe }, status: number): void {
  this.probe?.complete(status);
}

/**
 * Runs many connect probes with per-probe timeouts. One sweep timer serves every probe in
 * flight (a timer each would cost more than the connect), and one abort listener closes them
 * all, so a cancelled scan stops within one sweep interval.
 */
export class ConnectProber {
  private readonly pending = new Set<Pending>();
  /** Addresses already passed through the egress check (an address's verdict cannot change). */
  private readonly allowed = new Set<string>();
  /** Sockets whose last connect was refused, ready to connect again (Linux). */
  private readonly idle: TcpHandle[] = [];
  private sweeper?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly guard: EgressGuard,
    private readonly opts: {
      signal?: AbortSignal;
      sweepMs?: number;
      forceSlowPath?: boolean;
      /** Fixed source port (like nmap -g); also how tests provoke a real self-connect. */
      sourcePort?: number;
    } = {},
  ) {
    opts.signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  get inFlight(): number {
    return this.pending.size;
  }

  probe(host: string, port: number, timeoutMs: number, done: Done): void {
    if (this.closed || this.opts.signal?.aborted) {
      done({ outcome: "aborted", rttMs: 0 });
      return;
    }
    if (!this.allowed.has(host)) {
      this.guard.check(host);
      this.allowed.add(host);
    }
    this.ensureSweeper();
    if (binding && !this.opts.forceSlowPath) this.fastProbe(binding, host, port, timeoutMs, done);
    else this.slowProbe(host, port, timeoutMs, done);
  }

  close(): void {
    this.closed = true;
    this.opts.signal?.removeEventListener("abort", this.onAbort);
    for (const p of [...this.pending]) p.cancel("aborted");
    for (const h of this.idle.splice(0)) h.close();
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private readonly onAbort = () => {
    for (const p of [...this.pending]) p.cancel("aborted");
  };

  private ensureSweeper() {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const now = performance.now();
      for (const p of this.pending) if (p.deadline <= now) p.cancel("timeout");
      if (this.pending.size === 0 && this.sweeper) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, this.opts.sweepMs ?? 20);
  }

  private fastProbe(b: TcpBinding, host: string, port: number, timeoutMs: number, done: Done) {
    const reusable = REUSE && this.opts.sourcePort === undefined;
    const reused = reusable ? this.idle.pop() : undefined;
    const probe = new FastProbe(this, reused ?? new b.TCP(b.constants.SOCKET), host, port, timeoutMs, done, reusable);
    this.pending.add(probe);
    let err = 0;
    if (this.opts.sourcePort !== undefined)
      err = net.isIPv6(host)
        ? probe.handle.bind6("::", this.opts.sourcePort, 0)
        : probe.handle.bind(host.startsWith("127.") ? host : "0.0.0.0", this.opts.sourcePort);
    if (!err) err = probe.connect(b);
    // A refused socket's first reconnect only resets it (see above); the second one is real.
    if (reused && err === ECONNABORTED) err = probe.connect(b);
    if (err) {
      const code = errnoName.get(err) ?? `E${-err}`;
      probe.finish({ outcome: classify(code), rttMs: 0, code });
    }
  }

  /** Called by a finished fast probe: keep its socket for reuse or close it. */
  release(probe: Pending, handle: TcpHandle, outcome: ProbeOutcome, status: number | undefined, reusable: boolean): void {
    this.pending.delete(probe);
    // RST an open connection: no TIME_WAIT here, no half-open session for the service.
    if (outcome === "open" && handle.reset) handle.reset();
    else if (status === ECONNREFUSED && reusable && this.idle.length < MAX_IDLE && !this.closed) this.idle.push(handle);
    else handle.close();
  }

  private slowProbe(host: string, port: number, timeoutMs: number, done: Done) {
    const t0 = performance.now();
    const socket = net.connect({
      host,
      port,
      localPort: this.opts.sourcePort,
      localAddress: this.opts.sourcePort !== undefined && host.startsWith("127.") ? host : undefined,
    });
    let finished = false;
    const finish = (r: ProbeResult) => {
      if (finished) return;
      finished = true;
      this.pending.delete(entry);
      socket.removeAllListeners();
      socket.on("error", () => undefined);
      socket.resetAndDestroy();
      done(r);
    };
    const entry: Pending = { deadline: t0 + timeoutMs, cancel: (outcome) => finish({ outcome, rttMs: performance.now() - t0 }) };
    this.pending.add(entry);
    socket.once("connect", () => {
      const self = socket.localPort === socket.remotePort && socket.localAddress === socket.remoteAddress;
      finish({ outcome: self ? "self-connect" : "open", rttMs: performance.now() - t0 });
    });
    socket.once("error", (e: NodeJS.ErrnoException) => finish({ outcome: classify(e.code ?? ""), rttMs: performance.now() - t0, code: e.code }));
  }
}
