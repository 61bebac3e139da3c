import { analyzeSshService } from "../ssh/analyze.js";
import { analyzeTlsService } from "../tls/analyze.js";
import type { PhaseHandler, Service } from "../types.js";
import { analyzeWebService } from "../web/analyze.js";

const isWeb = (s: Service) => s.name === "http" || s.name === "https";

/**
 * Web checks on every HTTP(S) service, TLS checks on every TLS service and the SSH algorithm
 * checks (the other transport-crypto configuration) on every SSH service found by enumeration. Services are handled one after another (each check already sends a burst of
 * requests; this keeps the load on the target modest); detections go out per service.
 */
export const webAnalysis: PhaseHandler = async (ctx) => {
  const httpsHosts = new Set(ctx.services.filter((s) => s.tls && isWeb(s)).map((s) => s.host));
  for (const svc of ctx.services) {
    if (ctx.signal.aborted) return;
    if (isWeb(svc)) {
      ctx.setTool("web");
      for (const d of await analyzeWebService(svc, { guard: ctx.guard, signal: ctx.signal, hostHasHttps: httpsHosts.has(svc.host) })) await ctx.report(d);
      if (!ctx.signal.aborted) ctx.covered?.(svc.host, svc.port, "web");
    }
    if (svc.tls && !ctx.signal.aborted) {
      ctx.setTool("tls");
      for (const d of await analyzeTlsService(svc, { guard: ctx.guard, signal: ctx.signal })) await ctx.report(d);
      if (!ctx.signal.aborted) ctx.covered?.(svc.host, svc.port, "tls");
    }
    if (svc.name === "ssh" && !ctx.signal.aborted) {
      ctx.setTool("ssh");
      for (const d of await analyzeSshService(svc, { guard: ctx.guard, signal: ctx.signal })) await ctx.report(d);
      if (!ctx.signal.aborted) ctx.covered?.(svc.host, svc.port, "ssh");
    }
  }
};
