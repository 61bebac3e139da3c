import { OPEN_PORTS, TELNET_EXPOSED } from "../fingerprint/checks.js";
import { identifyService } from "../fingerprint/identify.js";
import { scanPorts } from "../portscan/scanner.js";
import { mapLimit } from "../../templates-engine/pool.js";
import type { PhaseHandler, ScanContext, Service } from "../types.js";
import { detection } from "../web/check.js";

const IDENTIFY_CONCURRENCY = 8;

const describe = (s: Service) => [s.port, s.tls ? "tls" : "tcp", s.name ?? "unknown", s.product, s.version].filter(Boolean).join(" ");

async function reportHost(ctx: ScanContext, address: string, hostname: string | undefined, services: Service[]) {
  const target = hostname ?? address;
  const lines = services.sort((a, b) => a.port - b.port).map(describe);
  await ctx.report(
    detection(OPEN_PORTS, {
      target,
      affectedComponent: address,
      detail: `Open: ${services.map((s) => s.port).join(", ")}.`,
      evidence: { request: `TCP connect scan of ${ctx.ports.length} ports on ${address}`, response: lines.join("\n") },
    }),
  );
  for (const s of services.filter((x) => x.name === "telnet")) {
    await ctx.report(
      detection(TELNET_EXPOSED, {
        target,
        affectedComponent: `telnet on ${address}:${s.port}`,
        evidence: { request: `TCP connect to ${address}:${s.port}, wait for the server to speak`, response: s.banner ?? "" },
      }),
    );
  }
}

/**
 * Port scan of the live hosts over exactly `ctx.ports`, then service identification on every
 * open port. Reports one inventory finding per host with open ports, plus clearly risky
 * services (telnet). Stops promptly on cancellation, keeping what it found.
 */
export const enumeration: PhaseHandler = async (ctx) => {
  ctx.setTool("portscan");
  const hosts = ctx.hosts;
  if (!hosts.length || !ctx.ports.length) return;
  const scan = await scanPorts(
    hosts.map((h) => h.address),
    ctx.ports,
    { guard: ctx.guard, signal: ctx.signal },
  );
  ctx.log.info({ probes: scan.probes, retries: scan.retries, ms: Math.round(scan.durationMs), aborted: scan.aborted }, "port scan done");
  if (scan.aborted || ctx.signal.aborted) return;
  // The port inventory of every scanned host is complete (an empty one included).
  for (const h of hosts) ctx.covered?.(h.address, undefined, "portscan");

  ctx.setTool("fingerprint");
  for (const result of scan.hosts) {
    if (!result.open.length) continue;
    const host = hosts.find((h) => h.address === result.host)!;
    host.alive = true;
    const services = await mapLimit(
      result.open,
      IDENTIFY_CONCURRENCY,
      (port) => identifyService({ host: host.address, hostname: host.hostname, port }, { guard: ctx.guard, signal: ctx.signal }),
      ctx.signal,
    );
    ctx.services.push(...services);
    if (ctx.signal.aborted) return;
    // Identification decides the telnet exposure of every open port.
    for (const s of services) ctx.covered?.(s.host, s.port, "telnet");
    await reportHost(ctx, host.address, host.hostname, services);
  }
};
