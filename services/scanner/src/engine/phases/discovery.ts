import { ConnectProber } from "../../net/tcp-probe.js";
import { expandCidr, targetKind } from "../portscan/targets.js";
import type { Host, PhaseHandler, ScanContext } from "../types.js";

/** Ports most likely to answer (open or refused) on a live host; used when the scan asks for them. */
const LIVENESS_PORTS = [80, 443, 22, 21, 25, 3389, 445, 8080, 23, 53];
const LIVENESS_TIMEOUT_MS = 1500;
const LIVENESS_CONCURRENCY = 256;

/**
 * Which ports prove liveness: the common ones among the ports this scan may touch (DESIGN.md
 * §5: only the ports asked for), else the first few requested ports.
 */
export function livenessPorts(requested: readonly number[], count = 4): number[] {
  const allowed = new Set(requested);
  const common = LIVENESS_PORTS.filter((p) => allowed.has(p)).slice(0, count);
  return common.length ? common : requested.slice(0, count);
}

async function resolveTargets(ctx: ScanContext): Promise<Host[]> {
  const kind = targetKind(ctx.target);
  if (kind === "ip") return ctx.guard.allows(ctx.target) ? [{ address: ctx.target, alive: false }] : [];
  if (kind === "cidr")
    return expandCidr(ctx.target)
      .filter((a) => ctx.guard.allows(a))
      .map((address) => ({ address, alive: false }));
  const addresses = await ctx.guard.resolve(ctx.target);
  // One host per distinct address; the name stays for Host headers, SNI and finding targets.
  return [...new Set(addresses)].map((address) => ({ address, hostname: ctx.target, alive: false }));
}

/**
 * A host is alive when any probe port answers: an accepted connection or a refusal (RST) both
 * prove something is there; only silence does not. Probes run concurrently, bounded.
 */
async function markAlive(ctx: ScanContext, hosts: Host[], ports: number[]): Promise<void> {
  const prober = new ConnectProber(ctx.guard, { signal: ctx.signal });
  const jobs = hosts.flatMap((host) => ports.map((port) => ({ host, port })));
  let next = 0;
  await new Promise<void>((resolve) => {
    let inFlight = 0;
    const pump = () => {
      while (inFlight < LIVENESS_CONCURRENCY && next < jobs.length && !ctx.signal.aborted) {
        const job = jobs[next++]!;
        if (job.host.alive) continue;
        inFlight++;
        prober.probe(job.host.address, job.port, LIVENESS_TIMEOUT_MS, (r) => {
          if (r.outcome === "open" || r.outcome === "refused") job.host.alive = true;
          inFlight--;
          pump();
        });
      }
      if (inFlight === 0) resolve();
    };
    pump();
  });
  prober.close();
}

export const discovery: PhaseHandler = async (ctx) => {
  ctx.setTool("discovery");
  const hosts = await resolveTargets(ctx);
  if (!hosts.length) {
    ctx.log.warn({ target: ctx.target }, "target resolves to no address the scanner may reach");
    return;
  }
  await markAlive(ctx, hosts, livenessPorts(ctx.ports));
  // A single named or addressed target is scanned even if it answered none of the liveness
  // probes (they may all be filtered); from a range only the hosts that answered go on.
  const keep = targetKind(ctx.target) === "cidr" ? hosts.filter((h) => h.alive) : hosts;
  ctx.hosts.push(...keep);
  ctx.log.info({ hosts: keep.length, alive: hosts.filter((h) => h.alive).length, candidates: hosts.length }, "discovery done");
};
