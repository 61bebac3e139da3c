import type { EgressGuard } from "../../net/egress.js";
import { connectTls } from "../../net/tls.js";
import type { Service } from "../types.js";
import { parseBanner, printable, type Identity } from "./banner.js";
import { cpeFor } from "./cpe.js";
import { tryExchange } from "./exchange.js";
import { probeHttp } from "./http-probe.js";
import { mongoCommand } from "./mongo-wire.js";

export interface IdentifyOptions {
  guard: EgressGuard;
  signal?: AbortSignal;
  /** How long to wait for a service that speaks first. */
  bannerWaitMs?: number;
  timeoutMs?: number;
}

type Probe = (svc: Service, opts: Required<Omit<IdentifyOptions, "signal">> & { signal?: AbortSignal }) => Promise<Identity | undefined>;

const TLS_PORTS = new Set([443, 8443, 9443, 4443, 10443, 993, 995, 465, 636, 990, 5986, 6443]);

const redis: Probe = async (svc, o) => {
  const pong = await tryExchange(svc.host, svc.port, "*1\r\n$4\r\nPING\r\n", { ...o, until: (b) => b.includes("\r\n") });
  const text = pong.toString("latin1");
  if (!/^(\+PONG|-NOAUTH|-DENIED|-ERR operation not permitted)/.test(text)) return undefined;
  if (!text.startsWith("+PONG")) return { name: "redis", product: "redis", banner: text.trim() };
  const info = await tryExchange(svc.host, svc.port, "*2\r\n$4\r\nINFO\r\n$6\r\nserver\r\n", {
    ...o,
    until: (b) => /\r\n\r\n$/.test(b.toString("latin1")) || b.length > 8000,
  });
  const version = /redis_version:([\w.]+)/.exec(info.toString("latin1"))?.[1];
  return { name: "redis", product: "redis", version, banner: `+PONG; redis_version:${version ?? "?"}` };
};

const memcached: Probe = async (svc, o) => {
  const res = (await tryExchange(svc.host, svc.port, "version\r\n", { ...o, until: (b) => b.includes("\r\n") })).toString("latin1");
  const m = /^VERSION (\S+)/.exec(res);
  return m ? { name: "memcached", product: "memcached", version: m[1], banner: res.trim() } : undefined;
};

const mongodb: Probe = async (svc, o) => {
  const hello = await mongoCommand(svc.host, svc.port, { isMaster: 1 }, o);
  if (!hello.reply) return undefined;
  const build = await mongoCommand(svc.host, svc.port, { buildInfo: 1 }, o);
  const list = await mongoCommand(svc.host, svc.port, { listDatabases: 1, nameOnly: true }, o);
  const version = typeof build.reply?.version === "string" ? build.reply.version : undefined;
  const open = list.reply?.ok === 1 && Array.isArray(list.reply.databases);
  return {
    name: "mongodb",
    product: "mongodb",
    version,
    banner: `maxWireVersion ${String(hello.reply.maxWireVersion ?? "?")}; listDatabases without auth: ${open ? "yes" : "no"}`,
  };
};

/** PostgreSQL answers an SSLRequest with one byte, "S" or "N", and nothing else speaks like that. */
const postgresql: Probe = async (svc, o) => {
  const res = await tryExchange(svc.host, svc.port, Buffer.from("0000000804d2162f", "hex"), { ...o, until: (b) => b.length >= 1 });
  return res.length === 1 && (res[0] === 0x53 || res[0] === 0x4e)
    ? { name: "postgresql", product: "postgresql", banner: `SSLRequest answered "${String.fromCharCode(res[0])}"` }
    : undefined;
};

const http: Probe = async (svc, o) => {
  const id = await probeHttp(svc, o);
  if (!id) return undefined;
  const { response: _r, ...rest } = id;
  return rest;
};

/** TLS handshake; on success the service is re-probed as HTTPS (or keeps the TLS banner). */
const tls: Probe = async (svc, o) => {
  try {
    const s = await connectTls(svc.host, svc.port, {
      guard: o.guard,
      timeoutMs: o.timeoutMs,
      signal: o.signal,
      servername: svc.hostname,
      minVersion: "TLSv1",
      ciphers: "DEFAULT@SECLEVEL=0",
    });
    const proto = s.getProtocol();
    s.destroy();
    svc.tls = true;
    const overTls = await http(svc, o);
    return overTls ?? { name: "ssl", banner: `${proto ?? "TLS"} handshake; no HTTP inside` };
  } catch {
    return undefined;
  }
};

function probeOrder(port: number): Probe[] {
  if (port === 6379) return [redis, http, tls];
  if (port === 11211) return [memcached, http, tls];
  if (port >= 27017 && port <= 27019) return [mongodb, http, tls];
  if (port === 5432) return [postgresql, http, tls];
  if (TLS_PORTS.has(port)) return [tls, http, redis, memcached, mongodb, postgresql];
  return [http, tls, redis, memcached, mongodb, postgresql];
}

/**
 * Identifies what listens on an open port, like nmap's version scan in miniature: first the
 * NULL probe (services that greet: SSH, FTP, SMTP, MySQL, telnet), then protocol probes in an
 * order chosen by the port number, each on its own connection. Fills name/product/version,
 * the banner (evidence) and a CPE when product and version are known.
 */
export async function identifyService(base: { host: string; hostname?: string; port: number }, opts: IdentifyOptions): Promise<Service> {
  const o = { guard: opts.guard, signal: opts.signal, bannerWaitMs: opts.bannerWaitMs ?? 1500, timeoutMs: opts.timeoutMs ?? 2000 };
  const svc: Service = { host: base.host, hostname: base.hostname, port: base.port, tls: false };
  const first = await tryExchange(svc.host, svc.port, undefined, { ...o, timeoutMs: o.bannerWaitMs, until: (b) => b.includes("\n") || b.length >= 64 });
  let id: Identity | undefined = first.length ? parseBanner(first, svc.port) : undefined;
  if (id?.name === "smtp") {
    const ehlo = await tryExchange(svc.host, svc.port, "EHLO vulnscan.invalid\r\n", { ...o, until: (b) => /\r\n250 [^\r\n]*\r\n/.test(b.toString("latin1")) });
    // A fresh connection greets again: keep only the EHLO answer after the 220 line.
    const answer = printable(ehlo)
      .split(/\r?\n/)
      .filter((l) => !l.startsWith("220"))
      .join("\n");
    if (answer) id.banner = `${id.banner}\n${answer.slice(0, 400)}`;
  }
  if (!id?.name) {
    for (const probe of probeOrder(svc.port)) {
      if (opts.signal?.aborted) break;
      const found = await probe(svc, o);
      if (found) {
        id = found;
        break;
      }
    }
  }
  Object.assign(svc, id ?? {});
  if (!svc.name && first.length) svc.banner = printable(first);
  svc.cpe = cpeFor(svc.product, svc.version);
  return svc;
}
